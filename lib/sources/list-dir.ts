/** readdir + lstat of one directory's `*.md` files (or of named ones only), tolerant of a missing directory. */
import fs from 'node:fs';
import path from 'node:path';
import type { Location } from '../trust/tiers';
import type { ListedFile } from './types';
import { readEntries } from './read-dir';
import { lstatSizeMtime, type SizeMtime } from './stat-quick';

/** The size and mtime of a file listed under `withStatLater`: unknown until it is opened. */
export const STAT_LATER = -1;

let statLater = false;

/**
 * Inside `fn`, regular files are listed from the readdir alone, with size and mtime
 * STAT_LATER: a first index reads every file anyway, and takes both from the open file
 * (lib/service/index/scan.ts, docs/performance.md, "A first index stats each file once").
 * Every rule of a listing (names, symlinks, what is a file) still runs.
 */
export function withStatLater<T>(fn: () => T): T {
  const outer = statLater;
  statLater = true;
  try {
    return fn();
  } finally {
    statLater = outer;
  }
}

/** The names of a directory (relative to the root) to look at instead of reading it. */
export type NamesOnly = (relDir: string) => readonly string[];

let namesOnly: NamesOnly | null = null;

/**
 * Inside `fn`, a folder of memory files is not read: only the names `only` gives for it are
 * looked at, each with an `lstat`, and the same rules decide what is listed (a name that is
 * gone or not a file is not). The archive's month folders are still read from `archive/`.
 * The index's watcher passes the files its events named; the rest of the listing is the one
 * it kept (docs/freshness.md, "Targeted rescans").
 */
export function withNamesOnly<T>(only: NamesOnly, fn: () => T): T {
  const outer = namesOnly;
  namesOnly = only;
  try {
    return fn();
  } finally {
    namesOnly = outer;
  }
}

/** Whether a name in a listed directory can be a memory file at all. */
function candidate(name: string, skip?: (name: string) => boolean): boolean {
  return name.endsWith('.md') && !skip?.(name);
}

/**
 * A symlink where a memory file is expected: listed so it can be reported, never followed.
 * Its time is the link's own (`lstat`): with none, its row would date from 1970 and show
 * as 20,000 days old in every table and queue.
 */
export function refusedLink(relPath: string, filename: string, location: Location, mtimeMs: number): ListedFile {
  return { relPath, filename, location, size: 0, mtimeMs, refused: 'symlinked memory files are refused' };
}

function statted(relPath: string, filename: string, location: Location, st: fs.Stats): ListedFile {
  return { relPath, filename, location, size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
}

export function listMarkdown(
  root: string,
  relDir: string,
  location: Location,
  skip?: (name: string) => boolean,
): ListedFile[] {
  const dir = path.join(root, relDir);
  if (namesOnly) return listNames(dir, relDir, location, namesOnly(relDir), skip);
  let entries: fs.Dirent[];
  try {
    entries = readEntries(dir);
  } catch {
    return [];
  }
  const out: ListedFile[] = [];
  // `dir` is normalised and an entry's name holds no separator: the path of each entry is
  // `path.join(dir, name)` without normalising it again per file (a session start lists
  // every file of its project's folders, docs/session-context.md).
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  for (const e of entries) {
    if (!candidate(e.name, skip)) continue;
    const relPath = relDir ? `${relDir}/${e.name}` : e.name;
    if (e.isSymbolicLink()) {
      let link: SizeMtime;
      try {
        link = lstatSizeMtime(prefix + e.name);
      } catch {
        continue; // removed between readdir and lstat
      }
      out.push(refusedLink(relPath, e.name, location, link.mtimeMs));
      continue;
    }
    if (!e.isFile()) continue;
    if (statLater) {
      out.push({ relPath, filename: e.name, location, size: STAT_LATER, mtimeMs: STAT_LATER });
      continue;
    }
    // The entry's type came from the readdir: only its size and mtime are wanted (stat-quick.ts).
    let st: SizeMtime;
    try {
      st = lstatSizeMtime(prefix + e.name);
    } catch {
      continue; // removed between readdir and lstat
    }
    out.push({ relPath, filename: e.name, location, size: st.size, mtimeMs: st.mtimeMs });
  }
  return out;
}

/** `listMarkdown` of the given names only (withNamesOnly): what an `lstat` finds there now. */
function listNames(
  dir: string,
  relDir: string,
  location: Location,
  names: readonly string[],
  skip?: (name: string) => boolean,
): ListedFile[] {
  const out: ListedFile[] = [];
  for (const name of names) {
    if (!candidate(name, skip)) continue;
    const relPath = relDir ? `${relDir}/${name}` : name;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(path.join(dir, name));
    } catch {
      continue; // gone: not listed
    }
    if (st.isSymbolicLink()) out.push(refusedLink(relPath, name, location, Math.floor(st.mtimeMs)));
    else if (st.isFile()) out.push(statted(relPath, name, location, st));
  }
  return out;
}

/** `archive/YYYY-MM/*.md` for every month folder. */
export function listArchive(root: string, relDir: string): ListedFile[] {
  let months: fs.Dirent[];
  try {
    months = fs.readdirSync(path.join(root, relDir), { withFileTypes: true });
  } catch {
    return [];
  }
  return months
    .filter((m) => m.isDirectory() && /^\d{4}-\d{2}$/.test(m.name))
    .flatMap((m) => listMarkdown(root, `${relDir}/${m.name}`, 'archive'));
}
