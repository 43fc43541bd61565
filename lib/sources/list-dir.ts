/** readdir + lstat of one directory's `*.md` files, tolerant of a missing directory. */
import fs from 'node:fs';
import path from 'node:path';
import type { Location } from '../trust/tiers';
import type { ListedFile } from './types';

/** A file's size and mtime from an earlier listing, by its path relative to the root. */
export type StatReuse = (relPath: string) => { size: number; mtimeMs: number } | undefined;

let reuse: StatReuse | null = null;

/**
 * Inside `fn`, a listed file `known` answers for is not lstat'ed: its size and mtime are
 * taken from that earlier listing. The index's watcher passes the files it saw no event for
 * (docs/freshness.md, "Targeted rescans"); every rule of a listing (names, symlinks, what is
 * a file) still runs on the fresh readdir.
 */
export function withStatReuse<T>(known: StatReuse, fn: () => T): T {
  const outer = reuse;
  reuse = known;
  try {
    return fn();
  } finally {
    reuse = outer;
  }
}

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

export function listMarkdown(
  root: string,
  relDir: string,
  location: Location,
  skip?: (name: string) => boolean,
): ListedFile[] {
  const dir = path.join(root, relDir);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: ListedFile[] = [];
  for (const e of entries) {
    if (!e.name.endsWith('.md') || skip?.(e.name)) continue;
    const relPath = relDir ? `${relDir}/${e.name}` : e.name;
    if (e.isSymbolicLink()) {
      out.push({
        relPath,
        filename: e.name,
        location,
        size: 0,
        mtimeMs: 0,
        refused: 'symlinked memory files are refused',
      });
      continue;
    }
    if (!e.isFile()) continue;
    if (statLater) {
      out.push({ relPath, filename: e.name, location, size: STAT_LATER, mtimeMs: STAT_LATER });
      continue;
    }
    const seen = reuse?.(relPath);
    if (seen) {
      out.push({ relPath, filename: e.name, location, size: seen.size, mtimeMs: seen.mtimeMs });
      continue;
    }
    let st: fs.Stats;
    try {
      st = fs.lstatSync(path.join(dir, e.name));
    } catch {
      continue; // removed between readdir and lstat
    }
    out.push({ relPath, filename: e.name, location, size: st.size, mtimeMs: Math.floor(st.mtimeMs) });
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
