/**
 * The one write pipeline for records of every layout (docs/records-write.md):
 * plan → preview → lock → snapshot → execute per file → audit → index.
 *
 * Planning asks each record's adapter for its edits against an in-memory overlay of
 * the store, so a later step sees the earlier steps' edits (two records of one file
 * → both edits land). The overlay's result is then turned into whole-file changes —
 * a rewrite in place, a move, a create, a removal — and those go, as ONE batch,
 * through the same crash-safe `execute()` every memory transition uses
 * (lib/service/records/batch.ts). Nothing here writes a file itself.
 */
import { findRecord, readRawRecord, readSourceRecords, type RecordView } from './read';
import crypto from 'node:crypto';
import path from 'node:path';
import type { Actor, AuditAction, AuditEvent } from '../../audit/event';
import { AUDIT_ACTIONS } from '../../audit/event';
import type { SourceInfo } from '../../sources';
import type { FileEdit, LayoutRecord, RecordPlan, RecordTier } from '../../sources/record';
import { applyEdits, EditConflict, linesOf } from '../../sources/edits';
import { confine, PathEscapeError } from '../../core/paths';
import { isoNow } from '../../trust/dates';
import { sanitiseReason } from '../../trust/reason';
import { containsSecret } from '../../validators/withhold';
import type { ServiceContext } from '../context';
import { listAuditFiles, readAuditFrom } from '../audit/audit-log';
import { readIfExists } from '../write/fs-atomic';
import { sha256 } from '../index/inspect';
import { withRootLockOrBusy } from '../write/lock';
import { recoverSource } from '../write/recover';
import { newBatchId } from '../batches/batch-store';
import { commitRecordBatch, finishRecordBatches, type ChangeBytes } from './batch';

export interface RecordStep {
  id: string;
  action: string;
  reason?: string;
  options?: Record<string, unknown>;
}

export type RecordApplyResult =
  | { ok: true; batch: string; done: number; summary: string[] }
  | {
      ok: false;
      code: 'not-found' | 'ambiguous' | 'refused' | 'read-only' | 'conflict' | 'locked';
      message: string;
      command?: string | null;
    };

type Fail = Extract<RecordApplyResult, { ok: false }>;

export type RecordPreview =
  | { ok: true; summary: string[]; files: { file: string; before: string; after: string }[] }
  | Fail;

/**
 * The record named by id (`<source>:<key>`) or bare key: found through the record index
 * (docs/records.md), then read afresh and unmasked from the store, as a plan needs its bytes.
 */
export function findRecordForWrite(
  ctx: ServiceContext,
  idOrKey: string,
):
  | { ok: true; source: SourceInfo; record: LayoutRecord }
  | { ok: false; code: 'not-found' | 'ambiguous'; message: string } {
  const found = findRecord(ctx, idOrKey);
  if (!found.ok) return found;
  // The index row is the store as read at its current change token, and it is unmasked when
  // no secret was found: then it is the raw record, and the store is not read a second time
  // (docs/performance.md, "Records"). The plan still reads the file's bytes and the commit
  // checks them again under the lock.
  const record = unmasked(found.record) ?? readRawRecord(ctx, found.source, found.record.id);
  if (!record)
    return { ok: false, code: 'not-found', message: `${found.record.id} is no longer in ${found.source.root}` };
  return { ok: true, source: found.source, record };
}

/** The record as the adapter gave it, when the view holds it unmasked (no secret finding). */
function unmasked(view: RecordView): LayoutRecord | null {
  if (view.findings.some((f) => f.check === 'secret')) return null;
  const { source: _source, findings: _findings, ...record } = view;
  return record;
}

/** After a write: the store's token moved, so reading it again refreshes the index rows. */
export function refreshRecordIndex(ctx: ServiceContext, source: SourceInfo): void {
  readSourceRecords(ctx, source);
}

/** A planned batch: every step's plan, the files as read, and the files as they will be. */
export interface PlannedRecords {
  source: SourceInfo;
  steps: { step: RecordStep; record: LayoutRecord; plan: RecordPlan }[];
  /** Every file the plans read, as it was (null: absent); checked again under the lock. */
  disk: Map<string, Buffer | null>;
  /** The files the batch writes, in the order they are applied. */
  changes: ChangeBytes[];
}

/** Where a line of the file as read lands after the edits so far; null when an edit replaced it. */
type LineMap = (line: number) => number | null;

const TIER_AFTER: Record<string, RecordTier> = {
  promote: 'verified',
  demote: 'quarantined',
  archive: 'archived',
  restore: 'inferred',
};

/** Plans every step against the overlay; a refusal of any step refuses them all. */
export function planRecordActions(
  ctx: ServiceContext,
  steps: RecordStep[],
): { ok: true; planned: PlannedRecords } | Fail {
  if (steps.length === 0) return { ok: false, code: 'refused', message: 'no record steps given' };
  const now = ctx.now();
  const disk = new Map<string, Buffer | null>();
  const state = new Map<string, Buffer | null>();
  /** current path → path as read (moves), and per path as read the line maps of the edits so far. */
  const originOf = new Map<string, string>();
  const maps = new Map<string, LineMap[]>();
  let source: SourceInfo | null = null;
  const planned: PlannedRecords['steps'] = [];

  const diskRead = (rel: string): Buffer | null => {
    if (disk.has(rel)) return disk.get(rel)!;
    if (rel.startsWith('.memtrust/') || rel === '.memtrust')
      throw new PathEscapeError(`${rel} is memtrust's own folder`);
    const b = readIfExists(confine(source!.root, rel));
    disk.set(rel, b);
    return b;
  };
  const overlay = (rel: string): Buffer | null => (state.has(rel) ? state.get(rel)! : diskRead(rel));
  const currentPath = (orig: string): string | null => {
    for (const [cur, o] of originOf) if (o === orig) return cur;
    return state.has(orig) && state.get(orig) === null ? null : orig;
  };

  for (const [n, step] of steps.entries()) {
    const label = `step ${n + 1} (${step.action} ${step.id})`;
    const found = findRecordForWrite(ctx, step.id);
    if (!found.ok) return found;
    const { record } = found;
    if (source && found.source.id !== source.id)
      return {
        ok: false,
        code: 'refused',
        message: `${label}: the steps of one batch must be records of one root (${source.root} and ${found.source.root})`,
      };
    source = found.source;
    const adapter = source.adapter;
    if (step.reason && containsSecret(step.reason, ctx.owner())) {
      return {
        ok: false,
        code: 'refused',
        message: `${step.action} refused: the reason looks like it contains a secret (a token, key, private address or e-mail); describe the problem without the value`,
      };
    }
    if (adapter.readOnly) {
      const p = adapter.plan(record, step.action, {
        now,
        read: () => null,
        reason: step.reason,
        options: step.options,
      });
      const command = p.ok ? null : (p.command ?? null);
      return {
        ok: false,
        code: 'read-only',
        command,
        message: `${record.id}: ${adapter.label} (${adapter.layout} layout) is read-only for memtrust: ${adapter.readOnly}${command ? `; run instead: ${command}` : ''}`,
      };
    }
    if (!record.actions.includes(step.action)) {
      const why = record.refused[step.action] ?? `the ${adapter.layout} layout has no action ${step.action}`;
      return {
        ok: false,
        code: 'refused',
        message: `${record.id}: ${step.action} refused (${adapter.layout} layout): ${why}; allowed now: ${record.actions.join(', ') || 'nothing'}`,
      };
    }
    // The record as it stands after the earlier steps: its file and lines moved with their edits.
    let at: LayoutRecord;
    try {
      at = shifted(record, currentPath(record.location.file), maps.get(record.location.file) ?? [], diskRead, overlay);
    } catch (e) {
      if (e instanceof EditConflict) return { ok: false, code: 'conflict', message: `${label}: ${e.message}` };
      throw e;
    }
    let p: ReturnType<typeof adapter.plan>;
    try {
      p = adapter.plan(at, step.action, {
        now,
        read: overlay,
        reason: step.reason ? sanitiseReason(step.reason) : undefined,
        options: withRestoreHint(source.root, record, step),
      });
    } catch (e) {
      if (e instanceof PathEscapeError) return { ok: false, code: 'refused', message: `${label}: ${e.message}` };
      throw e;
    }
    if (!p.ok) {
      if (p.command)
        return {
          ok: false,
          code: 'read-only',
          command: p.command,
          message: `${record.id}: ${p.reason}; run instead: ${p.command}`,
        };
      return {
        ok: false,
        code: 'refused',
        message: `${record.id}: ${step.action} refused (${adapter.layout} layout): ${p.reason}`,
      };
    }
    try {
      applyEdits(overlay, p.plan.edits, state);
    } catch (e) {
      if (e instanceof EditConflict)
        return { ok: false, code: 'conflict', message: `${label}: ${e.message}: nothing was written` };
      if (e instanceof PathEscapeError) return { ok: false, code: 'refused', message: `${label}: ${e.message}` };
      throw e;
    }
    track(p.plan.edits, originOf, maps);
    planned.push({ step, record, plan: p.plan });
  }
  return { ok: true, planned: { source: source!, steps: planned, disk, changes: changesOf(disk, state, originOf) } };
}

/**
 * A restore goes back where the record's last demote took it from: that demote's memo
 * (kept in its audit event) is handed to the adapter as `options.restoreAt`, unless the
 * caller gave one (docs/records-write.md, "Restore").
 */
function withRestoreHint(root: string, record: LayoutRecord, step: RecordStep): Record<string, unknown> | undefined {
  if (step.action !== 'restore' || step.options?.restoreAt !== undefined) return step.options;
  let memo: AuditEvent['memo'] | undefined;
  let at = '';
  for (const f of listAuditFiles(root)) {
    let events: AuditEvent[];
    try {
      events = readAuditFrom(f, 0).events;
    } catch {
      continue;
    }
    for (const e of events)
      if (e.key === record.key && e.record_action === 'demote' && e.memo && e.at >= at) {
        memo = e.memo;
        at = e.at;
      }
  }
  return memo ? { ...step.options, restoreAt: memo } : step.options;
}

/** Records the line maps and moves of one plan's edits, so later steps find their records. */
function track(edits: FileEdit[], originOf: Map<string, string>, maps: Map<string, LineMap[]>): void {
  const orig = (cur: string) => originOf.get(cur) ?? cur;
  for (const e of edits) {
    if (e.kind === 'move') {
      const o = orig(e.from);
      originOf.delete(e.from);
      originOf.set(e.to, o);
    } else if (e.kind === 'write') {
      // A whole-file write keeps no line map: a later record of the file is only taken if its lines are unchanged in place.
      maps.set(orig(e.file), [...(maps.get(orig(e.file)) ?? []), (l) => l]);
    } else if (e.kind === 'replace-lines') {
      const added = linesIn(e.bytes);
      const list = maps.get(orig(e.file)) ?? [];
      list.push((l) => (l < e.line ? l : l >= e.line + e.count ? l + added - e.count : null));
      maps.set(orig(e.file), list);
    }
  }
}

const linesIn = (b: Buffer): number => {
  let n = 0;
  for (const x of b) if (x === 0x0a) n++;
  return b.length && b[b.length - 1] !== 0x0a ? n + 1 : n;
};

/** The record with its file and lines where the earlier edits put them, proven unchanged. */
function shifted(
  record: LayoutRecord,
  file: string | null,
  maps: LineMap[],
  diskRead: (f: string) => Buffer | null,
  overlay: (f: string) => Buffer | null,
): LayoutRecord {
  const loc = record.location;
  if (file === null) throw new EditConflict(`${loc.file} was removed by an earlier step`);
  if (maps.length === 0 && file === loc.file) return record;
  const map = (l: number): number => {
    let x: number | null = l;
    for (const m of maps) if (x !== null) x = m(x);
    if (x === null)
      throw new EditConflict(`an earlier step of the batch edited the lines of ${record.key} in ${loc.file}`);
    return x;
  };
  if (loc.line === 0) return { ...record, location: { ...loc, file } };
  const line = map(loc.line);
  const endLine = map(loc.endLine);
  const was = diskRead(loc.file);
  const now = overlay(file);
  const a = was && linesOf(was, loc.line, loc.endLine);
  const b = now && linesOf(now, line, endLine);
  if (!a || !b || !a.equals(b))
    throw new EditConflict(`the lines of ${record.key} in ${loc.file} are not where an earlier step left them`);
  return {
    ...record,
    location: { file, line, endLine },
    fields: record.fields.map((f) => (f.line > 0 ? { ...f, line: map(f.line) } : f)),
  };
}

/** The overlay's result as whole-file changes: removals, moves, rewrites, creates. */
function changesOf(
  disk: Map<string, Buffer | null>,
  state: Map<string, Buffer | null>,
  originOf: Map<string, string>,
): ChangeBytes[] {
  const removes: ChangeBytes[] = [];
  const moves: ChangeBytes[] = [];
  const rewrites: ChangeBytes[] = [];
  const creates: ChangeBytes[] = [];
  const movedFrom = new Set<string>();
  for (const [cur, orig] of originOf) {
    const before = disk.get(orig) ?? null;
    const after = state.get(cur) ?? null;
    if (cur === orig || !before || !after) continue;
    moves.push({ src: orig, dst: cur, before, after });
    movedFrom.add(orig);
  }
  const moveDst = new Set(moves.map((m) => m.dst));
  for (const [file, after] of state) {
    if (moveDst.has(file)) continue;
    const before = disk.get(file) ?? null;
    if (after && before && !after.equals(before)) rewrites.push({ src: file, dst: file, before, after });
    else if (after && !before) creates.push({ src: file, dst: file, before: null, after });
    else if (!after && before && !movedFrom.has(file))
      removes.push({ src: file, dst: file, before, after: before, trash: true });
  }
  return [...removes, ...moves, ...rewrites, ...creates];
}

/** What the steps would change, file by file, without writing anything. */
export function previewRecordActions(ctx: ServiceContext, steps: RecordStep[]): RecordPreview {
  const p = planRecordActions(ctx, steps);
  if (!p.ok) return p;
  return {
    ok: true,
    summary: p.planned.steps.map((s) => s.plan.summary),
    files: p.planned.changes.map((c) => ({
      file: c.trash ? c.src : c.dst,
      before: c.before?.toString('utf8') ?? '',
      after: c.trash ? '' : c.after.toString('utf8'),
    })),
  };
}

export function applyRecordActions(
  ctx: ServiceContext,
  steps: RecordStep[],
  opts: { actor: Actor },
): RecordApplyResult {
  const p = planRecordActions(ctx, steps);
  if (!p.ok) return p;
  return commitRecordPlan(ctx, p.planned, opts);
}

/**
 * Applies a plan as one batch under the root's lock: every file the plan read must
 * still be exactly as read (else `conflict`, nothing written); then snapshot, each
 * file change through execute(), one audit event per step, the index refreshed.
 */
export function commitRecordPlan(
  ctx: ServiceContext,
  planned: PlannedRecords,
  opts: { actor: Actor },
): RecordApplyResult {
  const { source } = planned;
  const summary = planned.steps.map((s) => s.plan.summary);
  return withRootLockOrBusy(source.root, ctx.machine, (): RecordApplyResult => {
    recoverSource(ctx, source);
    finishRecordBatches(ctx, source);
    for (const [rel, bytes] of planned.disk) {
      const cur = readIfExists(path.join(source.root, rel));
      if (!(cur === null ? bytes === null : bytes !== null && cur.equals(bytes))) {
        return {
          ok: false,
          code: 'conflict',
          message: `${rel} changed on disk since the plan was made: nothing was written (look again and retry)`,
        };
      }
    }
    if (planned.changes.length === 0) return { ok: true, batch: '', done: 0, summary };
    const now = ctx.now();
    const id = newBatchId(now, crypto.randomBytes(4).toString('hex'));
    const finalOf = (file: string): Buffer | null => {
      const c = planned.changes.find((x) => x.src === file || x.dst === file);
      return c ? (c.trash ? null : c.after) : (planned.disk.get(file) ?? null);
    };
    const events: AuditEvent[] = planned.steps.map(({ step, record, plan }, i) => {
      const before = planned.disk.get(record.location.file) ?? null;
      const after = finalOf(planned.changes.find((c) => c.src === record.location.file)?.dst ?? record.location.file);
      return {
        v: 1,
        id: `${id}-${i + 1}`,
        at: isoNow(now),
        machine: ctx.machine,
        actor: opts.actor,
        action: (AUDIT_ACTIONS as readonly string[]).includes(step.action) ? (step.action as AuditAction) : 'edit',
        memory: record.key,
        from: record.tier,
        to: TIER_AFTER[step.action] ?? record.tier,
        reason: step.reason ? sanitiseReason(step.reason) || null : null,
        findings: [],
        before_sha256: before ? sha256(before) : null,
        after_sha256: after ? sha256(after) : null,
        recovered: false,
        batch: id,
        layout: record.layout,
        key: record.key,
        record_action: step.action,
        memo: plan.memo,
        files: plan.files,
      };
    });
    const r = commitRecordBatch(ctx, source, {
      id,
      kind: 'records',
      actor: opts.actor,
      changes: planned.changes,
      events,
    });
    if (!r.ok) return { ok: false, code: 'conflict', message: r.message };
    refreshRecordIndex(ctx, source);
    return { ok: true, batch: id, done: planned.steps.length, summary };
  });
}
