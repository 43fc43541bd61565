'use server';
/**
 * Recover of versions kept by memtrust (docs/versions.md): "Recover all" of a mass change and
 * Recover of one memory. Parse → call the service → revalidate.
 */
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action, type ActionResult } from '@/lib/core/action-result';
import { context } from '@/lib/server';
import { openStore } from '@/lib/service/versions/versions-of';
import { outsideBatchTargets, recoverVersions } from '@/lib/service/versions/recover';
import { updateMassChange } from '@/lib/service/versions/mass-change';
import { recoverMemory } from '@/lib/service/versions/version-view';

export const recoverAllAction = action(
  z.object({ batch: z.string().min(1).max(80) }),
  (input): ActionResult<{ batch: string | null; files: number; message: string }> => {
    const ctx = context();
    const store = openStore(ctx);
    if (!store) return { ok: false, code: 'not-found', message: 'No version store: the index is not a file.' };
    const targets = outsideBatchTargets(ctx, store, input.batch);
    if (targets.length === 0)
      return { ok: false, code: 'not-found', message: 'No kept version of the files that change removed.' };
    const r = recoverVersions(ctx, store, targets, 'user:web');
    revalidatePath('/', 'layout');
    if (!r.ok) return { ok: false, code: 'conflict', message: r.message };
    updateMassChange(store, input.batch, { settled: true });
    const note =
      r.redacted.length > 0 ? ' Credential values were replaced in the kept copies: put them back by hand.' : '';
    return { ok: true, data: { batch: r.batch, files: r.files.length, message: `${r.message}.${note}` } };
  },
);

/**
 * Recover of one memory (docs/versions.md, "Versions in the dashboard"): a deleted one as its
 * last kept version had it, or any memory as version `sha` had it. One undoable batch.
 */
export const recoverMemoryAction = action(
  z.object({
    id: z.string().min(3).max(600),
    sha: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
  }),
  (input): ActionResult<{ batch: string | null; files: number; message: string }> => {
    const r = recoverMemory(context(), input.id, input.sha, 'user:web');
    revalidatePath('/', 'layout');
    if (!r.ok) return { ok: false, code: 'conflict', message: r.message };
    const note =
      r.redacted.length > 0 ? ' Credential values were replaced in the kept copy: put them back by hand.' : '';
    return { ok: true, data: { batch: r.batch, files: r.files.length, message: `${r.message}.${note}` } };
  },
);
