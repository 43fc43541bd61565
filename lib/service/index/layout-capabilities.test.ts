/**
 * A layout's capabilities are a precondition beside the trust rules (docs/records.md,
 * "File layouts"): an action its adapter does not support is never offered (detail page,
 * `list --json` rows, bulk plans) and is refused by the transition with the layout named,
 * the file untouched. The shipped file layouts support every action; a narrowed copy of
 * the trust-root adapter stands for a layout that does not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listMemories } from '../../../db/queries/memories';
import { transition } from '../write/transition';
import { memoryDetail } from './memory-detail';
import { rowActions } from './list-actions';
import { scan } from './scan-service';
import { closeCtx, memoryFile, openCtx, put, removeSandbox, sandbox, type Sandbox } from '../test-support';
import type { ServiceContext } from '../context';

let sb: Sandbox;
let ctx: ServiceContext;

beforeEach(() => {
  sb = sandbox('memtrust-capabilities-');
  put(
    sb.root,
    'memories/feedback_merge.md',
    memoryFile(
      [
        ['name', 'Merge rule'],
        ['description', 'wait for green'],
        ['type', 'feedback'],
        ['trust-level', 'inferred'],
        ['created-at', '2026-10-01T09:00:00Z'],
      ],
      '\nNever merge on red: wait for the whole pipeline to pass.\n',
    ),
  );
  ctx = openCtx(sb);
  scan(ctx);
  // The same layout, without promote.
  const source = ctx.sources[0]!;
  source.adapter = {
    ...source.adapter,
    files: { ...source.adapter.files, supports: ['demote', 'restore', 'archive', 'reaffirm'] },
  };
});
afterEach(() => {
  closeCtx(sb);
  removeSandbox(sb);
});

describe('layout capabilities', () => {
  it('promote, allowed by the trust rules, is neither offered nor applied when the layout lacks it', () => {
    const file = path.join(sb.root, 'memories/feedback_merge.md');
    const before = fs.readFileSync(file);

    const d = memoryDetail(ctx, 'feedback_merge.md');
    if (!d.ok) throw new Error(d.message);
    expect(d.detail.actions.find((a) => a.action === 'promote')).toEqual({
      action: 'promote',
      allowed: false,
      reason:
        'promote is not supported by the trust-model root layout (it supports: demote, restore, archive, reaffirm)',
    });
    expect(d.detail.actions.find((a) => a.action === 'demote')?.allowed).toBe(true);

    const rows = listMemories(ctx.handle.sqlite, {}, ctx.now()).items;
    const adapters = new Map(ctx.sources.map((s) => [s.id, s.adapter]));
    expect(rowActions(ctx.handle.sqlite, rows, ctx.now(), (id) => adapters.get(id)).get(rows[0]!.key)).toEqual([
      'demote',
    ]);

    const r = transition(ctx, { ref: 'feedback_merge.md', action: 'promote', actor: 'user:cli' });
    expect(r).toMatchObject({ ok: false, code: 'refused' });
    expect(r.ok ? '' : r.message).toContain('not supported by the trust-model root layout');
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('with the full adapter the same memory may be promoted', () => {
    const s = ctx.sources[0]!;
    s.adapter = { ...s.adapter, files: { ...s.adapter.files, supports: ['promote', 'demote'] } };
    const d = memoryDetail(ctx, 'feedback_merge.md');
    if (!d.ok) throw new Error(d.message);
    expect(d.detail.actions.find((a) => a.action === 'promote')?.allowed).toBe(true);
  });
});
