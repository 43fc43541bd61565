/**
 * The list of batches (docs/batches.md "The list of batches"): newest first, the undo batch
 * named as the undo of its batch, and "undone" only while an undo of it stands.
 */
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { claudeFolder } from '../fixtures/claude-folder';
import { applyPlan, planTransitions } from './batch-plan';
import { undoBatch } from './undo';
import { listBatches } from './batch-list';
import { batchInfo } from './batch-info';
import { closeCtx, openCtx, put, removeSandbox, sandbox, type Sandbox } from '../test-support';

let sb: Sandbox;
afterEach(() => removeSandbox(sb));

it('lists a batch, its undo and the redo, with whether Undo still applies', () => {
  sb = sandbox('memtrust-batch-list-');
  for (const [rel, bytes] of Object.entries(claudeFolder())) put(sb.root, rel, bytes);
  const ctx = openCtx(sb);
  expect(listBatches(ctx)).toEqual([]);
  const names = fs
    .readdirSync(sb.root)
    .filter((f) => f.endsWith('.md') && f !== 'MEMORY.md')
    .slice(0, 3);
  const plan = planTransitions(
    ctx,
    names.map((n) => `${ctx.sources[0]!.id}:${n}`),
    'demote',
    'moved',
  );
  const r = applyPlan(ctx, plan, { actor: 'user:web', confirmed: true, reason: 'moved' });
  if (!r.ok || !r.outcome) throw new Error('not applied');
  const batch = r.outcome.batch;
  expect(listBatches(ctx)).toMatchObject([{ id: batch, kind: 'bulk', files: plan.files.length, state: 'can-undo' }]);

  const u1 = undoBatch(ctx, batch, 'user:web');
  if (!u1.ok || !u1.outcome) throw new Error('not undone');
  const afterUndo = listBatches(ctx);
  expect(afterUndo.map((b) => [b.kind, b.state])).toEqual([
    ['undo', 'can-undo'],
    ['bulk', 'undone'],
  ]);
  expect(afterUndo[0]).toMatchObject({ undoes: batch });
  expect(afterUndo[1]).toMatchObject({ undoneBy: [u1.outcome.batch] });

  // Undoing the undo is a redo: the first batch can be undone again, the undo no longer stands.
  const u2 = undoBatch(ctx, u1.outcome.batch, 'user:web');
  if (!u2.ok || !u2.outcome) throw new Error('redo not applied');
  const afterRedo = listBatches(ctx);
  expect(afterRedo.map((b) => [b.id, b.state])).toEqual([
    [u2.outcome.batch, 'can-undo'],
    [u1.outcome.batch, 'undone'],
    [batch, 'can-undo'],
  ]);
  expect(batchInfo(ctx, batch)?.undoneBy).toEqual([u1.outcome.batch]);
  closeCtx(sb);
});
