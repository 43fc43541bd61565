'use server';
/**
 * The records pages' own reads (docs/records-pages.md): the change token the open
 * pages poll to refresh when a store changes outside memtrust (codeclone, an editor),
 * and the preview of a step list as changed lines, masked on the server. Applying
 * goes through applyRecordAction (app/record-actions.ts) like every record write.
 */
import { z } from 'zod';
import { action, type ActionResult } from '@/lib/core/action-result';
import { context, freshContext } from '@/lib/server';
import { previewRecordActions } from '@/lib/service/records/apply';
import { previewHunks, type FilePreview } from '@/lib/web/record-preview';
import { maskValues } from '@/lib/validators/mask-inline';
import { recordRootsToken } from './token';

/** Changes whenever any record root would read differently (the adapters' stat-based tokens). */
export const pollRecordRoots = action(z.object({}), (): ActionResult<string> => {
  return { ok: true, data: recordRootsToken(context()) };
});

const Steps = z.object({
  steps: z
    .array(
      z.object({
        id: z.string().min(1).max(400),
        action: z.string().min(1).max(40),
        reason: z.string().max(1000).optional(),
        options: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .min(1)
    .max(100),
});

export interface StepsPreview {
  summary: string[];
  files: FilePreview[];
}

export const previewRecordChanges = action(Steps, (input): ActionResult<StepsPreview> => {
  const ctx = freshContext();
  const owner = ctx.owner();
  const mask = (s: string) => maskValues(s, owner).text;
  const r = previewRecordActions(ctx, input.steps);
  if (!r.ok) return { ok: false, code: r.code, message: mask(r.command ? `${r.message} (${r.command})` : r.message) };
  return { ok: true, data: { summary: r.summary.map(mask), files: r.files.map((f) => previewHunks(f, mask)) } };
});
