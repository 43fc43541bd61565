'use server';
/**
 * Server actions for records of every layout (docs/records-write.md). Reads (recsvc)
 * and writes (recwrite) live here; writes go through lib/service/records/apply.ts.
 */
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action, type ActionResult } from '@/lib/action-result';
import { context, freshContext } from '@/lib/server';
import { applyRecordActions, previewRecordActions, type RecordPreview } from '@/lib/service/records/apply';

// ---- writes (recwrite) ----

const RecordSteps = z.object({
  steps: z
    .array(
      z.object({
        id: z.string().min(1).max(400),
        action: z.string().regex(/^[a-z][a-z-]{0,39}$/),
        reason: z.string().max(1000).optional(),
        options: z.record(z.string().max(60), z.union([z.string().max(400), z.number(), z.boolean()])).optional(),
      }),
    )
    .min(1)
    .max(50),
});

type Refusal = { ok: false; code: string; message: string; command?: string | null };

/** What the steps would change, file by file (before and after text), nothing written. */
export const previewRecordAction = action(RecordSteps, (input): ActionResult<Extract<RecordPreview, { ok: true }>> | Refusal => {
  const r = previewRecordActions(freshContext(), input.steps);
  return r.ok ? { ok: true, data: r } : r;
});

/** Applies the steps as one batch (undone from the batch page like every batch). */
export const applyRecordAction = action(RecordSteps, (input): ActionResult<{ batch: string; done: number; summary: string[] }> | Refusal => {
  const r = applyRecordActions(context(), input.steps, { actor: 'user:web' });
  revalidatePath('/', 'layout');
  return r.ok ? { ok: true, data: { batch: r.batch, done: r.done, summary: r.summary } } : r;
});
