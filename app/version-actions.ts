'use server';
/**
 * "Recover all" of a mass change outside memtrust (docs/versions.md, "Mass changes"): every
 * file that change deleted or rewrote, put back as one undoable batch. Parse → call the
 * service → revalidate.
 */
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action, type ActionResult } from '@/lib/action-result';
import { context } from '@/lib/server';
import { openStore } from '@/lib/service/versions/versions-of';
import { outsideBatchTargets, recoverVersions } from '@/lib/service/versions/recover';
import { updateMassChange } from '@/lib/service/versions/mass-change';

export const recoverAllAction = action(
  z.object({ batch: z.string().min(1).max(80) }),
  (input): ActionResult<{ batch: string | null; message: string }> => {
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
    return { ok: true, data: { batch: r.batch, message: `${r.message}.${note}` } };
  },
);
