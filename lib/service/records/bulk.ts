/**
 * Bulk actions on the records of an inbox selection (docs/review-inbox.md "Bulk actions"):
 * each record is asked what the single buttons ask — its layout's verbs now
 * (`actions` / `refused`) — and a flagged record (a credential or injection finding) is
 * never bulk-promoted, the memories' rule. What is left is planned and applied through
 * the one record write path (apply.ts), one record batch per record root with its Undo;
 * the memories of the same selection are the memory batch beside it (a memory batch and
 * a record batch are journalled in different roots' batch folders, docs/batches.md).
 */
import { RECORD_ENTRY } from '../../../db/queries/entry-kind';
import type { Actor } from '../../audit/event';
import { confirmationFor, type Confirmation, type RootShare } from '../../trust/batch-rules';
import type { Finding } from '../../validators/types';
import { flaggedReason } from '../write/preview';
import type { ServiceContext } from '../context';
import { commitRecordPlan, planRecordActions, type RecordStep } from './apply';
import { findRecord } from './read';

export type RecordBulkAction = 'promote' | 'demote' | 'archive' | 'backfill';

/** Why a record is not promoted with others: the memory rule (a credential finding) or an injection finding. */
export function recordFlaggedReason(findings: readonly Pick<Finding, 'check' | 'code' | 'label'>[]): string | null {
  const credential = flaggedReason(findings, 0);
  if (credential) return credential.replace('the memory has', 'the record has');
  if (findings.some((f) => f.check === 'injection'))
    return 'refused: the record has an injection finding; read it and promote it on its own';
  return null;
}

export interface RecordBulkItem {
  id: string;
  key: string;
  source: string;
  from: string;
  to: string;
  summary: string;
}

export interface RecordBulkPlan {
  items: RecordBulkItem[];
  leftOut: { id: string; reason: string }[];
}

/** The ids among `keys` that name records (the rest are memory keys). */
export function recordIdsOf(ctx: ServiceContext, keys: readonly string[]): Set<string> {
  if (keys.length === 0 || ctx.recordSources.length === 0) return new Set();
  const rows = ctx.handle.sqlite
    .prepare(`SELECT key AS id FROM entries WHERE ${RECORD_ENTRY} AND key IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(keys)) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

/** Each source's steps that plan on their own and together; the others left out with the plan's reason. */
function planned(ctx: ServiceContext, ids: readonly string[], action: RecordBulkAction, reason: string) {
  const leftOut: RecordBulkPlan['leftOut'] = [];
  const bySource = new Map<string, RecordStep[]>();
  for (const id of ids) {
    const found = findRecord(ctx, id);
    if (!found.ok) {
      leftOut.push({ id, reason: found.message });
      continue;
    }
    const r = found.record;
    if (action === 'backfill') {
      leftOut.push({ id, reason: "a record's state is its layout's own field: nothing to back-fill" });
      continue;
    }
    const flagged = action === 'promote' ? recordFlaggedReason(r.findings) : null;
    if (flagged) {
      leftOut.push({ id, reason: flagged });
      continue;
    }
    if (!r.actions.includes(action)) {
      leftOut.push({ id, reason: r.refused[action] ?? `${r.layout} records have no ${action}` });
      continue;
    }
    const step: RecordStep = { id: r.id, action, ...(reason ? { reason } : {}) };
    const list = bySource.get(found.source.id);
    if (list) list.push(step);
    else bySource.set(found.source.id, [step]);
  }
  const plans = [...bySource.values()].flatMap((all) => {
    const together = planRecordActions(ctx, all);
    if (together.ok) return [{ steps: all, plan: together }];
    // One refusal refuses a whole plan: the steps refused alone are left out with their reason, the rest planned again.
    const steps = all.filter((step) => {
      const alone = planRecordActions(ctx, [step]);
      if (!alone.ok) leftOut.push({ id: step.id, reason: alone.message });
      return alone.ok;
    });
    return steps.length ? [{ steps, plan: planRecordActions(ctx, steps) }] : [];
  });
  return { plans, leftOut };
}

export function planRecordBulk(
  ctx: ServiceContext,
  ids: readonly string[],
  action: RecordBulkAction,
  reason = '',
): RecordBulkPlan {
  const { plans, leftOut } = planned(ctx, ids, action, reason);
  const items: RecordBulkItem[] = [];
  for (const { steps, plan } of plans) {
    if (!plan.ok) {
      for (const s of steps) leftOut.push({ id: s.id, reason: plan.message });
      continue;
    }
    for (const s of plan.planned.steps)
      items.push({
        id: s.record.id,
        key: s.record.key,
        source: plan.planned.source.id,
        from: s.record.tier,
        to: { promote: 'verified', demote: 'quarantined', archive: 'archived' }[action as string] ?? s.record.tier,
        summary: s.plan.summary,
      });
  }
  return { items, leftOut };
}

/**
 * The typed count of a selection of memories and records (docs/batches.md "Confirmation"):
 * the memory plan's roots plus each record root, where a record demoted or archived counts as
 * moving and the root's live records (not archived) are its memories — one rule for both.
 */
export function confirmationWithRecords(
  ctx: ServiceContext,
  memoryRoots: readonly RootShare[],
  records: RecordBulkPlan,
  rewriting: number,
): Confirmation {
  const live = new Map(
    (
      ctx.handle.sqlite
        .prepare(
          `SELECT source, count(*) AS n FROM entries WHERE ${RECORD_ENTRY} AND tier <> 'archived' GROUP BY source`,
        )
        .all() as { source: string; n: number }[]
    ).map((r) => [r.source, r.n]),
  );
  const shares: RootShare[] = ctx.recordSources
    .filter((s) => records.items.some((r) => r.source === s.id))
    .map((s) => ({
      root: s.root,
      memories: live.get(s.id) ?? 0,
      moving: records.items.filter((r) => r.source === s.id && (r.to === 'quarantined' || r.to === 'archived')).length,
    }));
  return confirmationFor([...memoryRoots, ...shares], rewriting);
}

export interface RecordBulkResult {
  /** One record batch per record root, each with its own Undo. */
  batches: string[];
  done: number;
  leftOut: RecordBulkPlan['leftOut'];
  /** A root whose batch was not written (a file changed since the plan, the root busy). */
  failed: string[];
}

/** Plans again (the files as they are now) and commits each root's plan as one record batch. */
export function applyRecordBulk(
  ctx: ServiceContext,
  ids: readonly string[],
  action: RecordBulkAction,
  reason: string,
  opts: { actor: Actor },
): RecordBulkResult {
  const { plans, leftOut } = planned(ctx, ids, action, reason);
  const out: RecordBulkResult = { batches: [], done: 0, leftOut, failed: [] };
  for (const { plan } of plans) {
    if (!plan.ok) {
      out.failed.push(plan.message);
      continue;
    }
    const r = commitRecordPlan(ctx, plan.planned, opts);
    if (!r.ok) out.failed.push(r.message);
    else if (r.batch) {
      out.batches.push(r.batch);
      out.done += r.done;
    }
  }
  return out;
}
