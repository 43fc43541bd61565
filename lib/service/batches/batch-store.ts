/**
 * What undo needs (docs/batches.md): before a batch touches anything, every file it may
 * change is copied, byte for byte, with its place, and so is the root's index file
 * (MEMORY.md). The SQLite index is a deletable cache, so nothing undo relies on lives
 * only there. The copies live in the data directory, keyed by root, never inside a
 * synced root or a git work tree (CONTRACT §2.5; lib/service/meta/places.ts):
 *
 *   <data>/roots/<key>/batches/<id>/manifest.json   what the batch was about to change
 *   <data>/roots/<key>/batches/<id>/blobs/<sha256>  the pre-batch bytes (0600, folders 0700)
 *   <data>/roots/<key>/batches/<id>/state.json      the index file's sha after the batch
 *
 * Batches an earlier version wrote in `<root>/.memtrust/batches/` are still read (and
 * undone) where they are; new ones never go there.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Actor, AuditEvent } from '../../audit/event';
import { fsyncDir, readIfExists, replaceFileAtomic, sweepDeadWriters, writeFileDurable } from '../write/fs-atomic';
import { sha256 } from '../index/inspect';
import { ensureRootDataDir, legacyMetaDir, rootDataDir } from '../meta/places';

export const BATCH_ID = /^[A-Za-z0-9_-]{1,80}$/;

export type BatchKind = 'audit' | 'backfill' | 'bulk' | 'transition' | 'repair' | 'undo' | 'records' | 'recover';

/**
 * One file change of a record batch (docs/records-write.md), applied through execute():
 * a rewrite in place (src = dst), a move (src ≠ dst), a create (before null) or a
 * removal (`trash`: dst is a private place under `.memtrust/batches/<id>/removed/`).
 * Shas name blobs of the batch folder, so recovery can finish it from the root alone.
 */
export interface RecordChange {
  op: string;
  src: string;
  dst: string;
  before: string | null;
  after: string;
  trash?: boolean;
}

export interface SnapshotFile {
  memory: string;
  /** Place before the batch, relative to the root. */
  rel: string;
  sha: string;
}

export interface BatchManifest {
  v: 1;
  id: string;
  kind: BatchKind;
  at: string;
  machine: string;
  actor: Actor;
  /** For an undo batch: the batch it undoes. */
  undoes?: string;
  files: SnapshotFile[];
  /** The index file (MEMORY.md) before the batch; sha null when there was none. */
  index?: { file: string; sha: string | null };
  /** A record batch: its file changes in order and the events appended once all are in place. */
  records?: { source: string; changes: RecordChange[]; events: AuditEvent[] };
  /** Copies deleted because they held a credential since removed from the memory (copy-purge.ts). */
  purged?: { memory: string; sha: string; at: string; why: 'credential-removed' }[];
  /** When the copies were deleted for being older than `undoRetentionDays` (copy-purge.ts). */
  expired?: string;
}

export interface BatchState {
  /** The index file's sha once the batch's last step finished (null: absent). */
  indexAfterSha?: string | null;
  done: boolean;
  /** A record batch being (or that was) put back because a file changed under it (docs/records-write.md). */
  rolledBack?: boolean;
  /** A record batch whose files are all in place: recovery only finishes its audit (docs/records-write.md). */
  committed?: boolean;
}

/** Where new batches of this root go: the root's folder in the data directory. */
export function batchesHome(root: string): string {
  return path.join(rootDataDir(root), 'batches');
}

/** Where an earlier version kept them: inside the root. */
export function legacyBatchesHome(root: string): string {
  return path.join(legacyMetaDir(root), 'batches');
}

function idsIn(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((n) => BATCH_ID.test(n));
  } catch {
    return [];
  }
}

/** The ids of every batch of the root, both places (a readdir each; none when missing). */
export function batchIds(root: string): string[] {
  const here = idsIn(batchesHome(root));
  const old = idsIn(legacyBatchesHome(root)).filter((id) => !here.includes(id));
  return [...here, ...old];
}

/** The batch's folder: in the data directory, or where an earlier version left it in the root. */
export function batchDir(root: string, id: string): string {
  if (!BATCH_ID.test(id)) throw new Error(`not a batch id: ${id}`);
  const here = path.join(batchesHome(root), id);
  if (fs.existsSync(here)) return here;
  const old = path.join(legacyBatchesHome(root), id);
  return fs.existsSync(path.join(old, 'manifest.json')) ? old : here;
}

/**
 * Temp files of the snapshot carry the writer's pid, so a leftover of a writer that
 * died can be told from one being written right now (docs/batches.md).
 */
const tmpTag = () => `batch-${process.pid}`;
const TMP_NAME = /^\..+\.batch-(\d+)\.tmp$/;

function writeBlob(dir: string, bytes: Buffer): void {
  const name = sha256(bytes);
  const file = path.join(dir, 'blobs', name);
  const old = readIfExists(file);
  // A blob cut short by a crash has the right name and the wrong bytes: write it again.
  if (old && sha256(old) === name) return;
  if (old) fs.rmSync(file, { force: true });
  writeFileDurable(file, bytes);
  fs.chmodSync(file, 0o600);
}

/**
 * Writes the snapshot durably before the batch's first step. An existing manifest is
 * never replaced: a retried operation must not overwrite the record of the bytes it
 * started from with the bytes it produced.
 */
export function writeSnapshot(root: string, manifest: BatchManifest, blobs: Buffer[]): boolean {
  const dir = batchDir(root, manifest.id);
  if (fs.existsSync(path.join(dir, 'manifest.json'))) return false;
  ensureRootDataDir(root);
  fs.mkdirSync(path.join(dir, 'blobs'), { recursive: true, mode: 0o700 });
  for (const d of [batchesHome(root), dir, path.join(dir, 'blobs')]) fs.chmodSync(d, 0o700);
  for (const b of blobs) writeBlob(dir, b);
  fsyncDir(path.join(dir, 'blobs'));
  replaceFileAtomic(path.join(dir, 'manifest.json'), Buffer.from(JSON.stringify(manifest, null, 1)), tmpTag());
  fsyncDir(path.dirname(dir));
  return true;
}

/**
 * Removes snapshot temp files left by a writer that is gone (killed while writing a
 * manifest or state). Our own pid counts as gone: recovery runs synchronously, so
 * this process is not writing one at the same time.
 */
export function sweepBatchLeftovers(root: string, isAlive: (pid: number) => boolean): void {
  for (const id of batchIds(root))
    sweepDeadWriters(batchDir(root, id), TMP_NAME, (pid) => pid === process.pid || !isAlive(pid));
}

export function writeState(root: string, id: string, state: BatchState): void {
  replaceFileAtomic(path.join(batchDir(root, id), 'state.json'), Buffer.from(JSON.stringify(state)), tmpTag());
}

export function readManifest(root: string, id: string): BatchManifest | null {
  const b = readIfExists(path.join(batchDir(root, id), 'manifest.json'));
  if (!b) return null;
  try {
    const m = JSON.parse(b.toString('utf8')) as BatchManifest;
    return m && m.id === id && Array.isArray(m.files) ? m : null;
  } catch {
    return null;
  }
}

export function readState(root: string, id: string): BatchState | null {
  const b = readIfExists(path.join(batchDir(root, id), 'state.json'));
  if (!b) return null;
  try {
    return JSON.parse(b.toString('utf8')) as BatchState;
  } catch {
    return null;
  }
}

/** The pre-batch bytes with that sha, verified; null when missing or damaged. */
export function readBlob(root: string, id: string, sha: string): Buffer | null {
  if (!/^[0-9a-f]{64}$/.test(sha)) return null;
  const b = readIfExists(path.join(batchDir(root, id), 'blobs', sha));
  return b && sha256(b) === sha ? b : null;
}

/** Short, sortable, unique: `b20261122T120000Z-3f9a1c`. */
export function newBatchId(now: Date, random: string): string {
  return `b${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${random.slice(0, 6)}`;
}
