/**
 * A record batch on disk (docs/records-write.md): the file changes a batch of record
 * steps amounts to, applied one by one through the crash-safe `execute()` of
 * transition.ts, and finished or put back as a whole. The batch's manifest (written
 * durably before the first byte changes, with the bytes before AND after of every
 * file as blobs) is its journal: recovery (`finishRecordBatches`) rolls an
 * interrupted batch forward when every file is as before or as after, and back when
 * any file was changed by someone else, so a record that moves between two files is
 * never lost half-way. The per-record audit events are appended once every file is
 * in place. Undo builds the inverse changes and runs them the same way.
 */
import path from 'node:path';
import type { Actor, AuditEvent } from '../../audit/event';
import type { SourceInfo } from '../../sources';
import { isoNow } from '../../trust/dates';
import type { ServiceContext } from '../context';
import type { Located } from '../index/resolve';
import type { Intent } from '../write/journal';
import { pendingIntents } from '../write/journal';
import { execute, type TransitionResult } from '../write/transition';
import { readIfExists } from '../write/fs-atomic';
import { sha256 } from '../index/inspect';
import { appendAudit } from '../audit/audit-log';
import { ignoreOwnFolder } from '../meta/places';
import { purgeRecordCopies } from '../batches/copy-purge';
import { mirrorAudit } from '../audit/audit-mirror';
import { eventApplied } from '../index/index-commit';
import {
  batchIds,
  batchDir,
  readBlob,
  readManifest,
  readState,
  writeSnapshot,
  writeState,
  type BatchKind,
  type BatchManifest,
  type RecordChange,
} from '../batches/batch-store';

/** A file change as planned, with its bytes. */
export interface ChangeBytes {
  src: string;
  dst: string;
  before: Buffer | null;
  after: Buffer;
  trash?: boolean;
}

export type RecordBatchRun = { ok: true; changes: RecordChange[] } | { ok: false; message: string; paths: string[] };

const shaAt = (root: string, rel: string): string | null => {
  const b = readIfExists(path.join(root, rel));
  return b ? sha256(b) : null;
};

/** Where a change stands on disk: not started, done, or neither (someone else changed a file). */
export function changeState(root: string, c: RecordChange): 'before' | 'after' | 'foreign' {
  if (c.before === null) {
    const d = shaAt(root, c.dst);
    return d === null ? 'before' : d === c.after ? 'after' : 'foreign';
  }
  if (c.src === c.dst) {
    const s = shaAt(root, c.src);
    return s === c.before ? 'before' : s === c.after ? 'after' : 'foreign';
  }
  const s = shaAt(root, c.src);
  const d = shaAt(root, c.dst);
  if (s === c.before && d === null) return 'before';
  if (s === null && d === c.after) return 'after';
  return 'foreign';
}

/** One file change through the one crash-safe path (execute: journal, aside, compare, link, commit). */
function runChange(
  ctx: ServiceContext,
  source: SourceInfo,
  m: BatchManifest,
  c: RecordChange,
  bytes: Buffer,
): TransitionResult {
  const located: Located<SourceInfo> = {
    source,
    relPath: c.src,
    abs: path.join(source.root, c.src),
    filename: path.posix.basename(c.src),
    location: 'memories',
  };
  // The event execute() carries for its messages; a record change appends none itself (`events: []`).
  const carrier: AuditEvent = {
    v: 1,
    id: c.op,
    at: m.at,
    machine: ctx.machine,
    actor: m.actor,
    action: 'edit',
    memory: c.src,
    from: null,
    to: null,
    reason: null,
    findings: [],
    before_sha256: c.before,
    after_sha256: c.after,
    recovered: false,
    batch: m.id,
  };
  const intent: Intent = {
    v: 1,
    op: c.op,
    machine: ctx.machine,
    src: c.src,
    dst: c.dst,
    tmp: path.posix.join(path.posix.dirname(c.dst), `.${path.posix.basename(c.dst)}.${c.op}.tmp`),
    beforeSha: c.before ?? '',
    afterSha: c.after,
    event: carrier,
    events: [],
    ...(c.trash ? { trash: true } : {}),
  };
  return execute(ctx, located, intent, bytes);
}

/**
 * A removed file's holding place: inside the root (a link cannot cross file systems),
 * in `.memtrust/removed/`, which the folder's `.gitignore` keeps out of git
 * (lib/service/meta/places.ts). Batches of earlier versions named `.memtrust/batches/<id>/removed/`.
 */
const trashOf = (id: string, op: string, src: string) => `.memtrust/removed/${id}/${op}-${path.posix.basename(src)}`;

/** The change that puts `c` back (for a roll-back and for undo). */
function inverse(id: string, c: RecordChange, op: string): RecordChange {
  if (c.before === null)
    return { op, src: c.dst, dst: trashOf(id, op, c.dst), before: c.after, after: c.after, trash: true };
  return { op, src: c.dst, dst: c.src, before: c.after, after: c.before };
}

/**
 * Writes the batch's manifest and blobs durably, then applies it. Call holding the
 * root's lock. On a refusal (a file changed while the batch ran) the changes already
 * made are put back and nothing is audited.
 */
export function commitRecordBatch(
  ctx: ServiceContext,
  source: SourceInfo,
  opts: { id: string; kind: BatchKind; actor: Actor; undoes?: string; changes: ChangeBytes[]; events: AuditEvent[] },
): RecordBatchRun {
  const changes: RecordChange[] = opts.changes.map((c, i) => {
    const op = `${opts.id}-f${i + 1}`;
    return {
      op,
      src: c.src,
      dst: c.trash ? trashOf(opts.id, op, c.src) : c.dst,
      before: c.before ? sha256(c.before) : null,
      after: sha256(c.after),
      ...(c.trash ? { trash: true } : {}),
    };
  });
  const manifest: BatchManifest = {
    v: 1,
    id: opts.id,
    kind: opts.kind,
    at: isoNow(ctx.now()),
    machine: ctx.machine,
    actor: opts.actor,
    ...(opts.undoes ? { undoes: opts.undoes } : {}),
    files: opts.changes.filter((c) => c.before).map((c) => ({ memory: c.src, rel: c.src, sha: sha256(c.before!) })),
    records: { source: source.id, changes, events: opts.events },
  };
  const blobs = opts.changes.flatMap((c) => (c.before ? [c.before, c.after] : [c.after]));
  // Durable before any file of the store changes: the batch's journal and its undo record.
  writeSnapshot(source.root, manifest, blobs);
  if (changes.some((c) => c.trash)) ignoreOwnFolder(source.root);
  const run = runRecordChanges(ctx, source, manifest);
  // A change that removed a credential: no copy of any batch keeps it, this one's included (copy-purge.ts).
  if (run.ok) purgeRecordCopies(ctx, source);
  return run;
}

/** Applies the batch's remaining changes (from the start or after a crash), then audits it; or puts it back. */
export function runRecordChanges(ctx: ServiceContext, source: SourceInfo, m: BatchManifest): RecordBatchRun {
  const root = source.root;
  const rec = m.records!;
  let failed: { message: string; paths: string[] } | null = null;
  // Once every file was in place the batch is committed: a later save is newer than it, never a reason to put it back.
  const committed = !!readState(root, m.id)?.committed;
  for (const c of committed ? [] : rec.changes) {
    const st = changeState(root, c);
    if (st === 'after') continue;
    if (st === 'foreign') {
      failed = {
        message: `${path.posix.basename(c.src)} changed on disk while the batch ran: nothing was written`,
        paths: [path.join(root, c.src)],
      };
      break;
    }
    const bytes = readBlob(root, m.id, c.after);
    if (!bytes) {
      failed = {
        message: `the new copy of ${c.src} in ${batchDir(root, m.id)} is missing or damaged: nothing was written`,
        paths: [path.join(root, c.src)],
      };
      break;
    }
    const r = runChange(ctx, source, m, c, bytes);
    if (!r.ok) {
      failed = { message: r.message, paths: r.paths ?? [path.join(root, c.src)] };
      break;
    }
  }
  if (failed) {
    rollBackRecordChanges(ctx, source, m);
    return { ok: false, ...failed };
  }
  // Every file is in place: the commit point. Then the record events, each once (a retry after a crash skips those already written).
  if (!committed) writeState(root, m.id, { done: false, committed: true });
  mirrorAudit(ctx.handle.sqlite, source.id, root);
  for (const e of rec.events) if (!eventApplied(ctx.handle.sqlite, source.id, e.id)) appendAudit(root, ctx.machine, e);
  mirrorAudit(ctx.handle.sqlite, source.id, root);
  writeState(root, m.id, { done: true });
  return { ok: true, changes: rec.changes };
}

/**
 * Puts back every change of the batch that is done, last first, from the batch's
 * blobs. A file someone saved meanwhile is left with their save (it is newer).
 * The decision is written first, so a recovery after a crash here goes on putting back.
 */
export function rollBackRecordChanges(ctx: ServiceContext, source: SourceInfo, m: BatchManifest): void {
  const root = source.root;
  writeState(root, m.id, { done: false, rolledBack: true });
  const changes = m.records!.changes;
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i]!;
    if (changeState(root, c) !== 'after') continue;
    const back = inverse(m.id, c, `${c.op}b`);
    const bytes = c.before === null ? readBlob(root, m.id, c.after) : readBlob(root, m.id, c.before);
    if (bytes) runChange(ctx, source, m, back, bytes);
  }
  writeState(root, m.id, { done: true, rolledBack: true });
}

/** Record batches of this root that did not finish (cheap: a readdir and a stat per batch). */
export function unfinishedRecordBatches(root: string): string[] {
  return batchIds(root).filter((id) => {
    if (readState(root, id)?.done) return false;
    return !!readManifest(root, id)?.records;
  });
}

/**
 * Recovery of interrupted record batches (after the per-file intents were settled by
 * recoverSource), under the root's lock: roll forward when every file is as before or
 * as after, back otherwise. A batch with an unresolved file intent is left alone
 * (that intent is reported as a conflict).
 */
export function finishRecordBatches(
  ctx: ServiceContext,
  source: SourceInfo,
): { id: string; outcome: 'rolled-forward' | 'rolled-back'; message: string }[] {
  const out: { id: string; outcome: 'rolled-forward' | 'rolled-back'; message: string }[] = [];
  const ids = unfinishedRecordBatches(source.root);
  if (ids.length === 0) return out;
  const pending = new Set(pendingIntents(source.root, ctx.machine).map((p) => p.intent?.op));
  for (const id of ids) {
    const m = readManifest(source.root, id)!;
    if (m.records!.changes.some((c) => pending.has(c.op) || pending.has(`${c.op}b`))) continue;
    if (readState(source.root, id)?.rolledBack) {
      rollBackRecordChanges(ctx, source, m);
      out.push({ id, outcome: 'rolled-back', message: `record batch ${id} put back after an interruption` });
      continue;
    }
    const r = runRecordChanges(ctx, source, m);
    out.push(
      r.ok
        ? { id, outcome: 'rolled-forward', message: `record batch ${id} completed after an interruption` }
        : { id, outcome: 'rolled-back', message: `record batch ${id} put back after an interruption: ${r.message}` },
    );
  }
  return out;
}

export type RecordUndo =
  | { ok: true; noop: boolean; batch: string | null; files: string[]; message: string }
  | { ok: false; code: 'conflict' | 'damaged'; message: string; paths?: string[] };

/**
 * Undo of a record batch (docs/records-write.md): every file it changed must still be as
 * the batch left it; then the inverse changes run as a batch of their own (kind `undo`),
 * byte for byte from the saved copies, with one `undo` event per record step undone.
 * Call holding the root's lock.
 */
export function undoRecordBatch(
  ctx: ServiceContext,
  source: SourceInfo,
  m: BatchManifest,
  actor: Actor,
  newId: string,
): RecordUndo {
  const root = source.root;
  const state = readState(root, m.id);
  if (!state?.done || state.rolledBack)
    return {
      ok: true,
      noop: true,
      batch: null,
      files: [],
      message: `batch ${m.id} changed nothing (it was put back or never finished): nothing to undo`,
    };
  const todo: RecordChange[] = [];
  for (const c of m.records!.changes) {
    const st = changeState(root, c);
    if (st === 'before') continue;
    if (st === 'foreign') {
      return {
        ok: false,
        code: 'conflict',
        paths: [path.join(root, c.dst)],
        message: `refused as a conflict: ${c.trash ? c.src : c.dst} changed since batch ${m.id}; nothing was changed (undo never overwrites a later change)`,
      };
    }
    todo.push(c);
  }
  if (todo.length === 0)
    return {
      ok: true,
      noop: true,
      batch: null,
      files: [],
      message: `batch ${m.id} is already undone: every file is as it was before it`,
    };
  const changes: ChangeBytes[] = [];
  for (const c of [...todo].reverse()) {
    // The bytes the batch left, as checked above (a save since then is never taken as the undo's starting point).
    const now = readIfExists(path.join(root, c.dst));
    if (!now || sha256(now) !== c.after) {
      return {
        ok: false,
        code: 'conflict',
        paths: [path.join(root, c.dst)],
        message: `refused as a conflict: ${c.trash ? c.src : c.dst} changed since batch ${m.id}; nothing was changed (undo never overwrites a later change)`,
      };
    }
    if (c.before === null) {
      changes.push({ src: c.dst, dst: c.dst, before: now, after: now, trash: true });
      continue;
    }
    const bytes = readBlob(root, m.id, c.before);
    if (!bytes)
      return {
        ok: false,
        code: 'damaged',
        message: `refused: the saved copy of ${c.src} in ${batchDir(root, m.id)} is missing or damaged; nothing was changed`,
      };
    changes.push({ src: c.dst, dst: c.src, before: now, after: bytes });
  }
  const at = isoNow(ctx.now());
  const events: AuditEvent[] = m.records!.events.map((e, i) => ({
    ...e,
    id: `${newId}-${i + 1}`,
    at,
    machine: ctx.machine,
    actor,
    action: 'undo',
    record_action: 'undo',
    from: e.to,
    to: e.from,
    reason: `undo of batch ${m.id}`,
    before_sha256: e.after_sha256,
    after_sha256: e.before_sha256,
    recovered: false,
    batch: newId,
  }));
  const r = commitRecordBatch(ctx, source, { id: newId, kind: 'undo', actor, undoes: m.id, changes, events });
  if (!r.ok) return { ok: false, code: 'conflict', message: `refused as a conflict: ${r.message}`, paths: r.paths };
  return {
    ok: true,
    noop: false,
    batch: newId,
    files: changes.map((c) => c.dst),
    message: `batch ${m.id} undone as batch ${newId}: ${changes.length} ${changes.length === 1 ? 'file' : 'files'} put back`,
  };
}
