// TEMPORARY (recpages): replaced by recsvc/recwrite at merge
'use server';
/** Stand-in for the record server actions of the agreed API (reads by recsvc, writes by recwrite). */
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action, type ActionResult } from '@/lib/action-result';
import { freshContext } from '@/lib/server';
import { findRecord, listRecords, type RecordView } from '@/lib/service/records/read';
import { applyRecordActions, previewRecordActions } from '@/lib/service/records/apply';

const Filter = z.object({
  source: z.string().max(100).optional(),
  layout: z.string().max(40).optional(),
  tier: z.string().max(40).optional(),
  flag: z.string().max(40).optional(),
  q: z.string().max(200).optional(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(500).optional(),
});

export const listRecordsAction = action(Filter, (input): ActionResult<ReturnType<typeof listRecords>> => ({ ok: true, data: listRecords(freshContext(), input) }));

export const getRecordAction = action(z.object({ id: z.string().min(1).max(400) }), (input): ActionResult<RecordView> => {
  const r = findRecord(freshContext(), input.id);
  return r.ok ? { ok: true, data: r.record } : { ok: false, code: r.code, message: r.message };
});

const Steps = z.object({
  steps: z
    .array(z.object({ id: z.string().min(1).max(400), action: z.string().min(1).max(40), reason: z.string().max(1000).optional(), options: z.record(z.string(), z.unknown()).optional() }))
    .min(1)
    .max(100),
});

export const previewRecordAction = action(Steps, (input): ActionResult<{ summary: string[]; files: { file: string; before: string; after: string }[] }> => {
  const r = previewRecordActions(freshContext(), input.steps);
  return r.ok ? { ok: true, data: { summary: r.summary, files: r.files } } : { ok: false, code: r.code, message: r.message };
});

export const applyRecordAction = action(Steps, (input): ActionResult<{ batch: string; done: number; summary: string[] }> => {
  const r = applyRecordActions(freshContext(), input.steps, { actor: 'user:web' });
  revalidatePath('/', 'layout');
  return r.ok ? { ok: true, data: { batch: r.batch, done: r.done, summary: r.summary } } : { ok: false, code: r.code, message: r.message };
});
