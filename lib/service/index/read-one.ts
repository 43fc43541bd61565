/**
 * One listed file read and inspected for the index: what the scan's main thread and the
 * inspect pool's workers (inspect-pool.ts) both run, so a file gets the same row either way.
 * fs, no db.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ListedFile } from '../../sources';
import { STAT_LATER } from '../../sources/list-dir';
import type { OwnerIdentity } from '../../validators/types';
import { clockBases, factsOf, inspect, readFields, sha256 } from './inspect';
import { OPEN_READ, readFd } from '../../core/read-fd';
import { prepareRow, type PreparedRow } from './index-rows';

/** Files above this are indexed as an error row, never read whole (docs/memory-files.md). */
export const SCAN_READ_CAP = 1024 * 1024;

export type ReadResult =
  | { ins: ReturnType<typeof inspect>; bytes: Buffer }
  | { error: string }
  | { touched: ReturnType<typeof clockBases> }
  | { gone: true };

/**
 * readOne's answer with an inspection already turned into the row the scan inserts; with
 * `keepBytes`, the bytes inspected too, for the version store (docs/versions.md): the same
 * bytes, not a second read that could see a later write.
 */
export type PreparedResult = Exclude<ReadResult, { ins: unknown }> | { row: PreparedRow; bytes?: Uint8Array };

/** One file of root `sourceId` read, inspected and made into its row: what the scan writes (maybe on a worker). */
export function readPrepared(
  root: string,
  sourceId: string,
  f: ListedFile,
  owner: OwnerIdentity,
  priorSha: string | null,
  keepBytes = false,
): PreparedResult {
  const r = readOne(root, f, owner, priorSha);
  if (!('ins' in r)) return r;
  const row = prepareRow(sourceId, f, r.ins);
  return keepBytes ? { row, bytes: r.bytes } : { row };
}

export function readOne(root: string, f: ListedFile, owner: OwnerIdentity, priorSha: string | null = null): ReadResult {
  if (f.refused) return { error: f.refused };
  const abs = path.join(root, f.readFrom ?? f.relPath);
  let bytes: Buffer;
  if (f.size === STAT_LATER) {
    const got = openListedLater(abs, f);
    if (!Buffer.isBuffer(got)) return got;
    bytes = got;
  } else {
    if (f.size > SCAN_READ_CAP) return { error: tooLarge(f.size) };
    try {
      bytes = fs.readFileSync(abs);
    } catch (e) {
      return { error: unreadable(e) };
    }
  }
  try {
    if (priorSha !== null && sha256(bytes) === priorSha)
      return { touched: clockBases(factsOf(readFields(bytes).fields, f)) };
    return { ins: inspect(bytes, f, owner), bytes };
  } catch (e) {
    // A validator bug must not stop the scan of every other file.
    return { error: `could not be inspected: ${e instanceof Error ? e.message : String(e)}` };
  }
}

const tooLarge = (size: number) => `file too large (${size} bytes, limit 1 MiB)`;
const unreadable = (e: unknown) => `file unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})`;

/**
 * A file listed without an lstat (withStatLater): opened once, never through a symlink put
 * there since the readdir, its size and mtime set on `f` from the open file, then read whole
 * unless it is over the cap or no longer a regular file. What an lstat would have answered otherwise: a file that cannot
 * be opened takes its size and mtime from an lstat now, and one removed meanwhile is gone.
 */
export function openListedLater(abs: string, f: ListedFile): Buffer | { error: string } | { gone: true } {
  let fd: number;
  try {
    fd = fs.openSync(abs, OPEN_READ | fs.constants.O_NOFOLLOW);
  } catch (e) {
    try {
      const st = fs.lstatSync(abs);
      f.size = st.size;
      f.mtimeMs = Math.floor(st.mtimeMs);
    } catch {
      return { gone: true };
    }
    return { error: unreadable(e) };
  }
  try {
    const st = fs.fstatSync(fd);
    f.size = st.size;
    f.mtimeMs = Math.floor(st.mtimeMs);
    if (!st.isFile()) return { error: 'file unreadable (not a regular file)' };
    if (f.size > SCAN_READ_CAP) return { error: tooLarge(f.size) };
    // As readFileSync reads a regular file: up to the size the open file has.
    return readFd(fd, f.size);
  } catch (e) {
    return { error: unreadable(e) };
  } finally {
    fs.closeSync(fd);
  }
}
