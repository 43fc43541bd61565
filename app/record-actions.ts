'use server';
/**
 * Server actions for records of record roots (docs/records.md): reads here; the write
 * pipeline's preview and apply actions are appended below them. Every input is
 * zod-checked by `action()`; results are values, never thrown.
 */
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action, type ActionResult } from '@/lib/core/action-result';
import type { ErrorCode } from '@/lib/core/error-codes';
import { context, freshContext } from '@/lib/server';
import { applyRecordActions, previewRecordActions, type RecordPreview } from '@/lib/service/records/apply';
import {
  findRecord,
  listRecords,
  recordActionStates,
  type RecordActionState,
  type RecordView,
} from '@/lib/service/records/read';
import { RECORD_FLAGS } from '@/lib/sources/record';

const RecordFilterInput = z.object({
  source: z.string().max(64).optional(),
  layout: z.string().max(64).optional(),
  tier: z.enum(['verified', 'inferred', 'quarantined', 'archived']).optional(),
  flag: z.enum(RECORD_FLAGS).optional(),
  q: z.string().max(200).optional(),
  offset: z.number().int().min(0).max(10_000_000).optional(),
  limit: z.number().int().min(1).max(10_000).optional(),
});

export type RecordList = ReturnType<typeof listRecords>;

export const listRecordsAction = action(RecordFilterInput, (filter): ActionResult<RecordList> => {
  return { ok: true, data: listRecords(freshContext(), { limit: 200, ...filter }) };
});

export interface RecordDetail {
  record: RecordView;
  root: string;
  label: string;
  shape: string | null;
  /** Every verb of the layout, with why a refused one is refused (and, read-only, the owner's command). */
  actionStates: RecordActionState[];
  readOnly: string | null;
}

export const getRecordAction = action(
  z.object({ id: z.string().min(1).max(400) }),
  (input): ActionResult<RecordDetail> => {
    const ctx = freshContext();
    const r = findRecord(ctx, input.id);
    if (!r.ok) return { ok: false, code: r.code, message: r.message };
    return {
      ok: true,
      data: {
        record: r.record,
        root: r.source.root,
        label: r.source.label,
        shape: r.source.shape ?? null,
        actionStates: recordActionStates(ctx, r.source, r.record),
        readOnly: r.source.adapter.readOnly ?? null,
      },
    };
  },
);

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

type Refusal = { ok: false; code: ErrorCode; message: string; command?: string | null };

/** What the steps would change, file by file (before and after text), nothing written. */
export const previewRecordAction = action(
  RecordSteps,
  (input): ActionResult<Extract<RecordPreview, { ok: true }>> | Refusal => {
    const r = previewRecordActions(freshContext(), input.steps);
    return r.ok ? { ok: true, data: r } : r;
  },
);

/** Applies the steps as one batch (undone from the batch page like every batch). */
export const applyRecordAction = action(
  RecordSteps,
  (input): ActionResult<{ batch: string; done: number; summary: string[] }> | Refusal => {
    const r = applyRecordActions(context(), input.steps, { actor: 'user:web' });
    revalidatePath('/', 'layout');
    return r.ok ? { ok: true, data: { batch: r.batch, done: r.done, summary: r.summary } } : r;
  },
);
