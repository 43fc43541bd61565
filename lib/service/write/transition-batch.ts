/**
 * A single transition as a batch of one (docs/trust-model.md; docs/batches.md): the same
 * snapshot as any batch, so `memtrust undo OP` puts it back too. The batch id is
 * the operation id, so a retried operation finds its own snapshot untouched.
 */
import crypto from 'node:crypto';
import type { ServiceContext } from '../context';
import { resolveMemory } from '../index/resolve';
import { transition, type TransitionRequest, type TransitionResult } from './transition';
import { runBatch } from '../batches/batch-run';
import { BATCH_ID } from '../batches/batch-store';

export function transitionAsBatch(ctx: ServiceContext, req: TransitionRequest): TransitionResult {
  const op = req.opId ?? crypto.randomUUID();
  const found = BATCH_ID.test(op) ? resolveMemory(ctx.sources, req.ref, { sourceId: req.sourceId }) : null;
  // Refusals that need no snapshot come from the transition itself, worded as always.
  if (!found?.ok) return transition(ctx, { ...req, opId: op });
  const { source, relPath, filename } = found.found;
  const outcome = runBatch(ctx, { kind: 'transition', actor: req.actor, id: op }, [
    {
      source,
      memory: filename,
      relPath,
      expectSha: req.expectSha,
      run: () => transition(ctx, { ...req, opId: op, batch: op }),
    },
  ]);
  return outcome.results[0]!.result;
}
