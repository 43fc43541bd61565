'use server';
/**
 * Batches from the dashboard (docs/batches.md): the plan as a server action, apply
 * only what the user saw (same files, same bytes), a typed count when the plan
 * asks for confirmation, and undo. Parse → call the service → revalidate.
 */
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action, type ActionResult } from '@/lib/action-result';
import { context, freshContext } from '@/lib/server';
import { applyPlan, planAudit, planBackfillBatch, type BatchPlan } from '@/lib/service/batch-plan';
import { undoBatch } from '@/lib/service/undo';

const Kind = z.enum(['audit', 'backfill']);
const plan = (kind: z.infer<typeof Kind>): BatchPlan => (kind === 'audit' ? planAudit(freshContext()) : planBackfillBatch(freshContext()));

export const loadAuditPlan = action(z.object({}), (): ActionResult<BatchPlan> => ({ ok: true, data: plan('audit') }));
export const loadBackfillPlan = action(z.object({}), (): ActionResult<BatchPlan> => ({ ok: true, data: plan('backfill') }));

export interface AppliedBatch {
  batch: string | null;
  message: string;
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
  const now = p.files.map((f) => `${f.id}@${f.sha256}`).sort();
  const seen = [...input.seen].sort();
  if (now.length !== seen.length || now.some((x, i) => x !== seen[i])) {
    return { ok: false, code: 'stale-plan', message: `The plan changed since it was shown (now ${now.length} files): review it again before applying.` };
  }
  if (p.confirm.needed && input.typedCount !== p.confirm.count) {
    return { ok: false, code: 'needs-confirmation', message: `Type ${p.confirm.count} to confirm: ${p.confirm.reason}.` };
  }
  const r = applyPlan(context(), p, { actor: 'user:web', confirmed: true });
  revalidatePath('/', 'layout');
  if (!r.ok) return { ok: false, code: r.code, message: r.message };
  return { ok: true, data: { batch: r.outcome?.batch ?? null, message: r.message } };
}

export const undoBatchAction = action(z.object({ batch: z.string().min(1).max(80) }), (input): ActionResult<AppliedBatch> => {
  const r = undoBatch(context(), input.batch, 'user:web');
  revalidatePath('/', 'layout');
  if (!r.ok) return { ok: false, code: r.code, message: r.message };
  return { ok: true, data: { batch: r.outcome?.batch ?? null, message: r.message } };
});
