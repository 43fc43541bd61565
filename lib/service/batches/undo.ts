/**
 * `memtrust undo BATCH` and the dashboard's Undo (docs/batches.md;
 * docs/batches.md): every file of the batch goes back to its exact pre-batch bytes
 * and place, the index file (MEMORY.md) too, provided nothing changed since the
 * batch; otherwise nothing is touched and the refusal names the file. Undo is a
 * batch of its own (so it can be undone) and needs no validation (it is not restore).
 *
 * What happened is read from the root, never from SQLite: the batch's events from
 * the audit JSONL files, the pre-batch bytes from the batch's folder (batch-store.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Actor, AuditEvent, EventTier } from '../../audit/event';
import type { FileSourceInfo, SourceInfo } from '../../sources';
import type { Location } from '../../trust/tiers';
import type { ServiceContext } from '../context';
import { listAuditFiles, readAuditFrom } from '../audit/audit-log';
import {
  BATCH_ID,
  batchDir,
  newBatchId,
  readBlob,
  readManifest,
  readState,
  writeState,
  type BatchManifest,
  type SnapshotFile,
} from './batch-store';
import { runBatch, type BatchOutcome, type BatchStep } from './batch-run';
import { editSharedFile, readIfExists } from '../write/fs-atomic';
import { sha256 } from '../index/inspect';
import { resolveMemory } from '../index/resolve';
import { applyToMemory } from '../write/transition';
import { withRootLock, withRootLockOrBusy } from '../write/lock';
import { markIndexed } from '../claude/claude-index';
import { sameOutside } from './undo-finish';
import { undoRecordBatch } from '../records/batch';
import { expireOldBatches } from './copy-purge';

export type UndoResult =
  | { ok: true; noop: boolean; undone: string; outcome: BatchOutcome | null; message: string }
  | {
      ok: false;
      code: 'bad-id' | 'not-found' | 'conflict' | 'locked' | 'damaged' | 'partial' | 'purged' | 'expired';
      message: string;
      paths?: string[];
      outcome?: BatchOutcome;
    };

/** The batch's events in this root, every machine's file, in file order. */
export function batchEvents(root: string, id: string): AuditEvent[] {
  return listAuditFiles(root).flatMap((f) => {
    try {
      return readAuditFrom(f, 0).events.filter((e) => e.batch === id);
    } catch {
      return [];
    }
  });
}

function locationOf(source: FileSourceInfo, rel: string): { dir: Location; month?: string } {
  const dir = path.posix.dirname(rel) === '.' ? '' : path.posix.dirname(rel);
  if (dir === source.adapter.files.dirOf('quarantine')) return { dir: 'quarantine' };
  const archiveBase = path.posix.dirname(source.adapter.files.dirOf('archive', '0000-00'));
  if (dir.startsWith(`${archiveBase}/`)) return { dir: 'archive', month: path.posix.basename(dir) };
  return { dir: 'memories' };
}

interface Work {
  source: FileSourceInfo;
  manifest: BatchManifest;
  /** Files to put back: snapshot, bytes, where and what it is now, the event it undoes. */
  files: { snap: SnapshotFile; bytes: Buffer; now: string; nowSha: string; event: AuditEvent }[];
  index: { file: string; bytes: Buffer } | null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Looks at everything first; returns the work, or a refusal naming what changed. */
function prepare(
  id: string,
  source: FileSourceInfo,
  manifest: BatchManifest,
  undoRetentionDays: number,
): { work: Work; already: boolean } | Extract<UndoResult, { ok: false }> {
  const root = source.root;
  const gone = copiesGone(id, manifest, undoRetentionDays);
  if (gone) return gone;
  const events = batchEvents(root, id);
  const last = new Map<string, AuditEvent>();
  for (const e of events) last.set(e.memory, e);
  const conflicts: { name: string; why: string; abs: string }[] = [];
  const work: Work = { source, manifest, files: [], index: null };
  for (const snap of manifest.files) {
    const event = last.get(snap.memory);
    if (!event) continue; // never applied (refused or interrupted before it): nothing to put back
    const bytes = readBlob(root, id, snap.sha);
    if (!bytes)
      return {
        ok: false,
        code: 'damaged',
        message: `refused: the saved copy of ${snap.memory} in ${batchDir(root, id)} is missing or damaged; nothing was changed`,
      };
    const found = resolveMemory([source], snap.memory);
    if (!found.ok) {
      conflicts.push({ name: snap.memory, why: 'is gone', abs: path.join(root, snap.rel) });
      continue;
    }
    if (found.conflictWith) {
      conflicts.push({
        name: snap.memory,
        why: `is in both ${found.found.relPath} and ${found.conflictWith.relPath}`,
        abs: found.found.abs,
      });
      continue;
    }
    const cur = sha256(fs.readFileSync(found.found.abs));
    if (found.found.relPath === snap.rel && cur === snap.sha) continue; // already as it was
    if (cur !== event.after_sha256) {
      conflicts.push({ name: snap.memory, why: 'changed', abs: found.found.abs });
      continue;
    }
    if (found.found.relPath !== snap.rel && fs.existsSync(path.join(root, snap.rel))) {
      conflicts.push({
        name: snap.memory,
        why: `has another file in its old place ${snap.rel}`,
        abs: path.join(root, snap.rel),
      });
      continue;
    }
    work.files.push({ snap, bytes, now: found.found.relPath, nowSha: cur, event });
  }
  if (manifest.index?.sha) {
    const abs = path.join(root, manifest.index.file);
    const cur = readIfExists(abs);
    const curSha = cur ? sha256(cur) : null;
    const after = readState(root, id)?.indexAfterSha;
    if (curSha !== manifest.index.sha) {
      const bytes = readBlob(root, id, manifest.index.sha);
      // The after-state may be missing or stale (a batch interrupted and rolled forward
      // by recovery): then the index is safe to replace only if it differs from the
      // saved copy in the batch's own lines.
      const batchFiles = new Set(manifest.files.map((f) => f.memory));
      if (
        curSha !== after &&
        !(bytes && cur && sameOutside(bytes.toString('utf8'), cur.toString('utf8'), batchFiles))
      ) {
        conflicts.push({ name: manifest.index.file, why: 'changed', abs });
      }
      if (!bytes)
        return {
          ok: false,
          code: 'damaged',
          message: `refused: the saved copy of ${manifest.index.file} in ${batchDir(root, id)} is missing or damaged; nothing was changed`,
        };
      work.index = { file: manifest.index.file, bytes };
    }
  }
  if (conflicts.length) {
    const first = conflicts[0]!;
    const more = conflicts.length > 1 ? ` (and ${plural(conflicts.length - 1, 'other file', 'other files')})` : '';
    return {
      ok: false,
      code: 'conflict',
      paths: conflicts.map((c) => c.abs),
      message: `refused as a conflict: ${first.name} ${first.why} since batch ${id}${more}; nothing was changed (undo never overwrites a later change: revert it, or move the other files back one by one)`,
    };
  }
  return { work, already: work.files.length === 0 && !work.index };
}

/**
 * A batch whose copies are gone on purpose cannot be undone, and says why: copies older
 * than `undoRetentionDays` are deleted, and so is a copy that held a credential since
 * removed from the memory (copy-purge.ts; docs/batches.md).
 */
function copiesGone(id: string, manifest: BatchManifest, days: number): Extract<UndoResult, { ok: false }> | null {
  if (manifest.expired)
    return {
      ok: false,
      code: 'expired',
      message: `refused: batch ${id} is older than ${days} days (undoRetentionDays): its undo copies were deleted on ${manifest.expired.slice(0, 10)}; it can no longer be undone`,
    };
  const p = manifest.purged?.[0];
  if (p)
    return {
      ok: false,
      code: 'purged',
      message: `refused: the undo copy of ${p.memory} in batch ${id} held a credential that was removed from the memory; it was purged on ${p.at.slice(0, 10)}, so this batch can no longer be undone; nothing was changed`,
    };
  return null;
}

export function undoBatch(ctx: ServiceContext, id: string, actor: Actor): UndoResult {
  if (!BATCH_ID.test(id))
    return { ok: false, code: 'bad-id', message: `not a batch id: ${JSON.stringify(id).slice(0, 90)}` };
  // Copies past their retention go first, so an old batch says it expired (copy-purge.ts).
  for (const s of [...ctx.sources, ...(ctx.recordSources ?? [])]) if (!s.error) expireOldBatches(ctx, s);
  // A record root's batch: its own inverse changes through the same crash-safe path (docs/records-write.md).
  // A memory root's recover batch is one too (docs/versions.md, "Recover").
  for (const source of [...(ctx.recordSources ?? []), ...ctx.sources]) {
    const manifest = source.error ? null : readManifest(source.root, id);
    if (manifest?.records)
      return copiesGone(id, manifest, ctx.config.undoRetentionDays) ?? undoRecords(ctx, source, manifest, actor);
  }
  const found = ctx.sources
    .filter((s) => !s.error)
    .map((s) => ({ source: s, manifest: readManifest(s.root, id) }))
    .filter((x) => x.manifest);
  if (found.length === 0) {
    return {
      ok: false,
      code: 'not-found',
      message: `no batch ${id} in the configured roots (undo records live in the data directory, docs/batches.md)`,
    };
  }
  const works: Work[] = [];
  for (const { source, manifest } of found) {
    const r = prepare(id, source, manifest!, ctx.config.undoRetentionDays);
    if ('ok' in r) return r;
    if (!r.already) works.push(r.work);
  }
  if (works.length === 0)
    return {
      ok: true,
      noop: true,
      undone: id,
      outcome: null,
      message: `batch ${id} is already undone: every file is as it was before it`,
    };

  const steps: BatchStep[] = works.flatMap((w) =>
    w.files.map((f) => ({
      source: w.source,
      memory: f.snap.memory,
      relPath: f.now,
      expectSha: f.nowSha,
      run: (ids) =>
        applyToMemory(ctx, { ref: f.snap.memory, sourceId: w.source.id, actor, ...ids }, (_ins, at) => ({
          ok: true,
          noop: false,
          action: 'undo',
          from: f.event.to,
          to: f.event.from as EventTier,
          set: {},
          remove: [],
          move: at.relPath === f.snap.rel ? null : locationOf(w.source, f.snap.rel),
          reason: `undo of batch ${id}`,
          bytes: f.bytes,
        })),
    })),
  );
  const outcome = runBatch(ctx, { kind: 'undo', actor, undoes: id }, steps);
  if (outcome.refused) {
    const r = outcome.results.find((x) => !x.result.ok)!;
    return {
      ok: false,
      code: 'partial',
      outcome,
      message: `undo of ${id} stopped short: ${r.result.ok ? '' : r.result.message}; undo ${outcome.batch} to return to where the batch left things`,
    };
  }
  // The index file last, whole: the per-file line edits above keep it consistent
  // if we are interrupted; this makes it the exact pre-batch bytes.
  const notes: string[] = [];
  for (const w of works) {
    if (!w.index) {
      if (outcome.done > 0) writeState(w.source.root, outcome.batch, { indexAfterSha: null, done: true });
      continue;
    }
    const files = new Set(w.manifest.files.map((f) => f.memory));
    const target = w.index.bytes;
    const restored = withRootLock(w.source.root, ctx.machine, () => {
      // Someone else's edit since the checks above is never overwritten, and a save that
      // lands while we write is never lost (editSharedFile; docs/crash-safety.md).
      let whole = true;
      editSharedFile(path.join(w.source.root, w.index!.file), outcome.batch, (cur) => {
        whole = !cur || sameOutside(target.toString('utf8'), cur.toString('utf8'), files);
        return whole && !cur?.equals(target) ? target : null;
      });
      markIndexed(ctx.handle.sqlite, w.source);
      return whole;
    });
    const nowIndex = readIfExists(path.join(w.source.root, w.index.file));
    writeState(w.source.root, outcome.batch, {
      indexAfterSha: restored ? sha256(w.index.bytes) : nowIndex ? sha256(nowIndex) : null,
      done: true,
    });
    notes.push(
      restored
        ? `${w.index.file} restored`
        : `${w.index.file} was edited meanwhile: its lines were put back one by one, not restored whole`,
    );
  }
  return {
    ok: true,
    noop: false,
    undone: id,
    outcome,
    message: `batch ${id} undone as batch ${outcome.batch}: ${plural(outcome.done, 'file', 'files')} put back${notes.length ? `, ${notes.join('; ')}` : ''}`,
  };
}

function undoRecords(ctx: ServiceContext, source: SourceInfo, manifest: BatchManifest, actor: Actor): UndoResult {
  return withRootLockOrBusy(source.root, ctx.machine, (): UndoResult => {
    const newId = newBatchId(ctx.now(), crypto.randomBytes(4).toString('hex'));
    const r = undoRecordBatch(ctx, source, manifest, actor, newId);
    if (!r.ok) return r;
    if (r.noop || !r.batch) return { ok: true, noop: true, undone: manifest.id, outcome: null, message: r.message };
    const results = r.files.map((file) => ({
      source: source.id,
      memory: file,
      file,
      result: {
        ok: true as const,
        noop: false,
        op: r.batch!,
        memory: file,
        from: null,
        to: null,
        path: path.join(source.root, file),
        message: `${file} put back`,
      },
    }));
    return {
      ok: true,
      noop: false,
      undone: manifest.id,
      outcome: { batch: r.batch, kind: 'undo', results, done: results.length, noop: 0, refused: 0 },
      message: r.message,
    };
  });
}
