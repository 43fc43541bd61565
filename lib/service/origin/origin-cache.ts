/**
 * Transcript passes kept by (path, size, mtime) (docs/origin.md "Cache"): in this process's
 * memory (the dashboard keeps it across requests) and in a small file beside the index
 * database (the CLI and the hooks, one process per command). A transcript that grew or
 * changed is read again; the file is rewritten whole through a rename, so a crash or two
 * writers leave either version, never a torn file. The user text it keeps is masked.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FileWrite, SessionFacts } from '../../origin/session-scan';
import { replaceFile } from '../replace-file';

export interface CachedScan {
  size: number;
  mtimeMs: number;
  facts: SessionFacts;
  writes: FileWrite[];
}

const FILE_NAME = 'origin-cache.json';
const VERSION = 1;
/** Transcripts remembered (each holds a few KB: the writes of one session). */
const MAX_ENTRIES = 400;

const memory = new Map<string, CachedScan>();
/** Each cache file's mtime when this process last read it: another process (`memtrust scan`) may have written it since. */
const loadedFiles = new Map<string, number>();

function cacheFile(dataDir: string): string {
  return path.join(dataDir, FILE_NAME);
}

function loadFile(dataDir: string | null): void {
  if (!dataDir) return;
  let mtime = -1;
  try {
    mtime = fs.statSync(cacheFile(dataDir)).mtimeMs;
  } catch {
    // none yet
  }
  if (loadedFiles.get(dataDir) === mtime) return;
  loadedFiles.set(dataDir, mtime);
  if (mtime < 0) return;
  try {
    const raw = JSON.parse(fs.readFileSync(cacheFile(dataDir), 'utf8')) as {
      version?: number;
      entries?: Record<string, CachedScan>;
    };
    if (raw.version !== VERSION || typeof raw.entries !== 'object' || !raw.entries) return;
    for (const [k, v] of Object.entries(raw.entries)) {
      if (typeof v?.size !== 'number' || !Array.isArray(v.writes)) continue;
      // A pass of a longer (later) transcript wins: the other process read it after us.
      const mine = memory.get(k);
      if (!mine || v.size > mine.size || (v.size === mine.size && v.mtimeMs > mine.mtimeMs)) memory.set(k, v);
    }
  } catch {
    // No cache yet, or an unreadable one: it is only a cache.
  }
}

/**
 * The kept pass for this transcript when its size and mtime still match. `writtenBefore`
 * (a memory's mtime): a pass of a transcript that has only grown since also answers when
 * the memory was last written before that pass — a transcript is appended to, and the call
 * that wrote the memory was logged before the write (a running session grows its
 * transcript with every line; the page would otherwise never find it cached).
 */
export function cachedScan(
  transcript: string,
  st: fs.Stats,
  dataDir: string | null,
  writtenBefore?: number,
): CachedScan | null {
  loadFile(dataDir);
  const hit = memory.get(transcript);
  const grown =
    hit !== undefined &&
    writtenBefore !== undefined &&
    st.size > hit.size &&
    st.mtimeMs >= hit.mtimeMs &&
    writtenBefore <= hit.mtimeMs;
  if (hit && ((hit.size === st.size && hit.mtimeMs === st.mtimeMs) || grown)) {
    // Most recently used last: the oldest are dropped first.
    memory.delete(transcript);
    memory.set(transcript, hit);
    return hit;
  }
  return null;
}

/** Inside `batched`, the file is written once at the end, not after every transcript. */
let batching = 0;
let dirty = false;

export function keepScan(transcript: string, scan: CachedScan, dataDir: string | null): void {
  memory.delete(transcript);
  memory.set(transcript, scan);
  while (memory.size > MAX_ENTRIES) memory.delete(memory.keys().next().value as string);
  if (batching > 0) {
    dirty = true;
    return;
  }
  persist(dataDir);
}

/** Runs `fn` with the cache file written once, after it (a scan reads many transcripts). */
export function batched<T>(dataDir: string | null, fn: () => T): T {
  batching++;
  try {
    return fn();
  } finally {
    batching--;
    if (batching === 0 && dirty) {
      dirty = false;
      persist(dataDir);
    }
  }
}

function persist(dataDir: string | null): void {
  if (!dataDir) return;
  // What another process kept meanwhile is kept too.
  loadFile(dataDir);
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    const file = cacheFile(dataDir);
    replaceFile(file, JSON.stringify({ version: VERSION, entries: Object.fromEntries(memory) }));
    // Our own write is not news to us.
    loadedFiles.set(dataDir, fs.statSync(file).mtimeMs);
  } catch {
    // A read-only data dir: the pass is kept in memory only.
  }
}

/** Tests: forget the process's copy (the file stays). */
export function clearOriginMemoryCache(): void {
  memory.clear();
  loadedFiles.clear();
}
