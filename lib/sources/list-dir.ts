/** readdir + lstat of one directory's `*.md` files, tolerant of a missing directory. */
import fs from 'node:fs';
import path from 'node:path';
import type { Location } from '../trust/tiers';
import type { ListedFile } from './types';

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
