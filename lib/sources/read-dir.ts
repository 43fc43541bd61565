/**
 * A folder's entries, read once while `withSharedReads` runs. The dashboard's first page
 * detects each root's layout (detect.ts) and then counts its files for the first-index gate
 * (lib/server/first-index.ts): in a Claude Code home, 220 folders and 40,000 names read twice
 * in one request. Inside the scope the second look takes the first one's entries; outside it
 * every call reads the disk, as before.
 */
import fs from 'node:fs';
import path from 'node:path';

let shared: Map<string, fs.Dirent[]> | null = null;

/** `fs.readdirSync(dir, { withFileTypes: true })`, from the scope's first read when there is one. */
export function readEntries(dir: string): fs.Dirent[] {
  if (!shared) return fs.readdirSync(dir, { withFileTypes: true });
  const key = path.resolve(dir);
  let entries = shared.get(key);
  if (!entries) {
    entries = fs.readdirSync(dir, { withFileTypes: true });
    shared.set(key, entries);
  }
  return entries;
}

/** Runs `fn` with each folder read at most once (a folder that could not be read is tried again). */
export function withSharedReads<T>(fn: () => T): T {
  if (shared) return fn();
  shared = new Map();
  try {
    return fn();
  } finally {
    shared = null;
  }
}
