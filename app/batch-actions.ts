'use server';
/**
 * Batches from the dashboard (docs/batches.md): the plan as a server action, apply
 * only what the user saw (same files, same bytes), a typed count when the plan
 * asks for confirmation, and undo. Parse → call the service → revalidate.
 */
import type { Failure } from '@/lib/core/error-codes';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action, type ActionResult } from '@/lib/core/action-result';
import { context, freshContext } from '@/lib/server';
import {
  applyPlan,
  planAudit,
  planBackfillBatch,
  planTransitions,
  type BatchPlan,
} from '@/lib/service/batches/batch-plan';
import { containsSecret } from '@/lib/validators/withhold';
import { undoBatch } from '@/lib/service/batches/undo';
import { applyRecordBulk, confirmationWithRecords, planRecordBulk, recordIdsOf } from '@/lib/service/records/bulk';
import { TEXT_WITHHELD, textGuard } from '@/lib/report/redact';
import crypto from 'node:crypto';

const Kind = z.enum(['audit', 'backfill']);

/**
 * The plan as the browser may see it: a file name or note that looks like it
 * holds a secret is withheld, as on the audit page; a withheld file keeps an opaque id
 * so the apply step can still check it is the file that was shown.
 */
function plan(kind: z.infer<typeof Kind>): BatchPlan {
  const ctx = freshContext();
  return shown(ctx, kind === 'audit' ? planAudit(ctx) : planBackfillBatch(ctx));
}

function shown(ctx: ReturnType<typeof freshContext>, p: BatchPlan): BatchPlan {
  const guard = textGuard(ctx.owner());
  return {
    ...p,
    files: p.files.map((f) => {
      const hidden = guard(f.memory) !== f.memory;
      return {
        ...f,
        ...(hidden
          ? {
              id: `${f.source}:withheld-${crypto.createHash('sha256').update(f.id).digest('hex').slice(0, 16)}`,
              memory: TEXT_WITHHELD,
              file: TEXT_WITHHELD,
              destination: TEXT_WITHHELD,
            }
          : {}),
        note: guard(f.note),
        // Finding messages are masked by the validators themselves; a second check would
        // withhold the mask too (`postgres://…:…@…` still looks like a URL with credentials).
      };
    }),
    skipped: p.skipped.map((x) => ({ file: guard(x.file) ?? '', reason: guard(x.reason) ?? '' })),
  };
}

export const loadAuditPlan = action(z.object({}), (): ActionResult<BatchPlan> => ({ ok: true, data: plan('audit') }));
export const loadBackfillPlan = action(
  z.object({}),
  (): ActionResult<BatchPlan> => ({ ok: true, data: plan('backfill') }),
);

export interface AppliedBatch {
  batch: string | null;
  message: string;
  /** Batches applied with it (a bulk selection's records: one record batch per record root), each with its Undo. */
  also?: string[];
}

const Apply = z.object({
  /** `<id>@<sha256>` of every file the user was shown. */
  seen: z.array(z.string().max(600)).max(200_000),
  typedCount: z.number().int().nonnegative().optional(),
});

export type ApplyInput = z.input<typeof Apply>;

export const applyAuditBatch = action(Apply, (input) => applyBatch('audit', input));
export const applyBackfillBatch = action(Apply, (input) => applyBatch('backfill', input));

function applyBatch(kind: z.infer<typeof Kind>, input: z.infer<typeof Apply>): ActionResult<AppliedBatch> {
  const p = plan(kind);
  const raw = kind === 'audit' ? planAudit(freshContext()) : planBackfillBatch(freshContext());
  const now = p.files.map((f) => `${f.id}@${f.sha256}`).sort();
  const seen = [...input.seen].sort();
  if (now.length !== seen.length || now.some((x, i) => x !== seen[i])) {
    return {
      ok: false,
      code: 'stale-plan',
      message: `The plan changed since it was shown (now ${now.length} files): review it again before applying.`,
    };
  }
  if (p.confirm.needed && input.typedCount !== p.confirm.count) {
    return {
      ok: false,
      code: 'needs-confirmation',
      message: `Type ${p.confirm.count} to confirm: ${p.confirm.reason}.`,
    };
  }
  // The shown plan matched; apply the unguarded one (same files, same order).
  if (raw.files.length !== p.files.length || raw.files.some((f, i) => f.sha256 !== p.files[i]!.sha256)) {
    return {
      ok: false,
      code: 'stale-plan',
      message: 'The plan changed while it was checked: review it again before applying.',
    };
  }
  const r = applyPlan(context(), raw, { actor: 'user:web', confirmed: true });
  revalidatePath('/', 'layout');
  if (!r.ok) return { ok: false, code: r.code, message: r.message };
  return { ok: true, data: { batch: r.outcome?.batch ?? null, message: r.message } };
}

export const undoBatchAction = action(
  z.object({ batch: z.string().min(1).max(80) }),
  (input): ActionResult<AppliedBatch> => {
    const r = undoBatch(context(), input.batch, 'user:web');
    revalidatePath('/', 'layout');
    if (!r.ok) return { ok: false, code: r.code, message: r.message };
    return { ok: true, data: { batch: r.outcome?.batch ?? null, message: r.message } };
  },
);

/**
 * Bulk actions on the inbox selection (docs/review-inbox.md "Bulk actions"): the same
 * plan, the same typed count, one batch with Undo. Promote plans only the ticked memories the
 * single button would promote; a flagged one is left out with the reason.
 */
const Bulk = z.object({
  keys: z.array(z.string().min(3).max(600)).min(1).max(100_000),
  action: z.enum(['promote', 'demote', 'archive', 'backfill']),
  reason: z.string().max(500).optional(),
});

export type BulkInput = z.input<typeof Bulk>;

function bulkPlan(ctx: ReturnType<typeof freshContext>, input: z.infer<typeof Bulk>): BatchPlan | Failure {
  const reason = input.reason?.trim() ?? '';
  if (input.action === 'demote' && !reason)
    return {
      ok: false,
      code: 'reason-required',
      message: 'Demote needs a reason: type one reason for all the chosen memories.',
    };
  if (reason && containsSecret(reason, ctx.owner()))
    return {
      ok: false,
      code: 'reason-has-secret',
      message:
        'The reason looks like it contains a secret (a token, key, private address or e-mail): describe the problem without the value.',
    };
  // The selection's records go through the record batch path (lib/service/records/bulk.ts).
  const recordIds = recordIdsOf(ctx, input.keys);
  const keys = input.keys.filter((k) => !recordIds.has(k));
  const p =
    input.action === 'backfill' ? planBackfillBatch(ctx, {}, keys) : planTransitions(ctx, keys, input.action, reason);
  if (recordIds.size === 0) return p;
  const guard = textGuard(ctx.owner());
  const records = planRecordBulk(ctx, [...recordIds], input.action, reason);
  return {
    ...p,
    // The typed count covers the records too: ticking 40 records to demote is confirmed like 40 files.
    confirm: confirmationWithRecords(ctx, p.roots, records, p.kind === 'backfill' ? p.files.length : 0),
    records: {
      items: records.items.map((r) => ({ ...r, summary: guard(r.summary) ?? TEXT_WITHHELD })),
      leftOut: records.leftOut.map((l) => ({ ...l, reason: guard(l.reason) ?? TEXT_WITHHELD })),
    },
  };
}

export const loadBulkPlan = action(Bulk, (input): ActionResult<BatchPlan> => {
  const ctx = freshContext();
  const p = bulkPlan(ctx, input);
  return 'kind' in p ? { ok: true, data: shown(ctx, p) } : p;
});

const BulkApply = Bulk.extend(Apply.shape).extend({
  /** The record ids the plan showed (a bulk selection's records). */
  records: z.array(z.string().max(600)).max(100_000).optional(),
});

export const applyBulkBatch = action(BulkApply, (input): ActionResult<AppliedBatch> => {
  const ctx = freshContext();
  const raw = bulkPlan(ctx, input);
  if (!('kind' in raw)) return raw;
  const p = shown(ctx, raw);
  const now = p.files.map((f) => `${f.id}@${f.sha256}`).sort();
  const seen = [...input.seen].sort();
  if (now.length !== seen.length || now.some((x, i) => x !== seen[i])) {
    return {
      ok: false,
      code: 'stale-plan',
      message: `The plan changed since it was shown (now ${now.length} files): review it again before applying.`,
    };
  }
  if (p.confirm.needed && input.typedCount !== p.confirm.count) {
    return {
      ok: false,
      code: 'needs-confirmation',
      message: `Type ${p.confirm.count} to confirm: ${p.confirm.reason}.`,
    };
  }
  const shownRecords = (raw.records?.items ?? []).map((r) => r.id).sort();
  const seenRecords = [...(input.records ?? [])].sort();
  if (shownRecords.join('\n') !== seenRecords.join('\n')) {
    return {
      ok: false,
      code: 'stale-plan',
      message: `The plan changed since it was shown (now ${shownRecords.length} records): review it again before applying.`,
    };
  }
  // The memory batch first (when it has files), then one record batch per record root.
  const r =
    raw.files.length > 0 || !raw.records
      ? applyPlan(context(), raw, { actor: 'user:web', confirmed: true, reason: input.reason?.trim() })
      : null;
  if (r && !r.ok) {
    revalidatePath('/', 'layout');
    return { ok: false, code: r.code, message: r.message };
  }
  const recs = shownRecords.length
    ? applyRecordBulk(context(), shownRecords, input.action, input.reason?.trim() ?? '', { actor: 'user:web' })
    : null;
  revalidatePath('/', 'layout');
  const batches = [...(r?.outcome?.batch ? [r.outcome.batch] : []), ...(recs?.batches ?? [])];
  const message = [
    r?.message,
    recs ? `${recs.done} ${recs.done === 1 ? 'record' : 'records'} in ${recs.batches.length} record batch(es)` : null,
    ...(recs?.failed ?? []),
  ]
    .filter(Boolean)
    .join('; ');
  if (batches.length === 0 && recs?.failed.length) return { ok: false, code: 'changed', message };
  return { ok: true, data: { batch: batches[0] ?? null, message, also: batches.slice(1) } };
});
