/**
 * Bulk actions from the inbox selection (docs/review-inbox.md "Bulk actions") on a
 * 30-file folder shaped like a real Claude Code folder: the plan (left-out memories
 * with the rule), the typed-count rule, one batch, Undo byte for byte (MEMORY.md
 * included); and repair-and-restore as a batch of one that `memtrust undo` reverses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeFolder } from '../fixtures/claude-folder';
import { applyPlan, planBackfillBatch, planTransitions } from './batch-plan';
import { undoBatch } from './undo';
import { batchesHome } from './batch-store';
import { repairAndRestore, repairModel } from '../write/repair';
import {
  closeCtx,
  memoryFile,
  openCtx,
  put,
  readAudit,
  removeSandbox,
  runCli,
  sandbox,
  sha,
  treeFiles,
  type Sandbox,
} from '../test-support';

let sb: Sandbox;
afterEach(() => removeSandbox(sb));

describe('bulk demote, archive and back-fill of chosen memories', () => {
  beforeEach(() => {
    sb = sandbox('memtrust-bulk-');
    for (const [rel, bytes] of Object.entries(claudeFolder())) put(sb.root, rel, bytes);
  });

  const keysOf = (ctx: ReturnType<typeof openCtx>, names: string[]) => names.map((n) => `${ctx.sources[0]!.id}:${n}`);
  const liveMemories = () =>
    fs
      .readdirSync(sb.root)
      .filter((f) => f.endsWith('.md') && f !== 'MEMORY.md')
      .sort();

  it('plans each chosen file, asks for the typed count above 10, applies one batch, and Undo restores every byte', () => {
    const ctx = openCtx(sb);
    const before = treeFiles(sb.root);
    const chosen = liveMemories().slice(0, 12);
    const plan = planTransitions(ctx, keysOf(ctx, chosen), 'demote', 'outdated after the move');
    // Every planned file is a demote of a chosen memory; the rest are left out with a rule.
    expect(plan.kind).toBe('bulk');
    expect(plan.files.length + plan.skipped.length).toBe(12);
    for (const f of plan.files)
      expect(f).toMatchObject({
        action: 'demote',
        to: 'quarantined',
        destination: `quarantine/${f.memory}`,
        moves: true,
      });
    const n = plan.files.length;
    expect(n).toBeGreaterThan(10);
    expect(plan.confirm).toMatchObject({ needed: true, count: n });
    expect(plan.destinations).toEqual([{ to: 'quarantined', files: n }]);
    expect(treeFiles(sb.root)).toEqual(before);

    const refused = applyPlan(ctx, plan, { actor: 'user:web', confirmed: false, reason: 'outdated after the move' });
    expect(refused).toMatchObject({ ok: false, code: 'needs-confirmation', count: n });
    expect(treeFiles(sb.root)).toEqual(before);

    const r = applyPlan(ctx, plan, { actor: 'user:web', confirmed: true, reason: 'outdated after the move' });
    if (!r.ok || !r.outcome) throw new Error('not applied');
    expect(r.outcome).toMatchObject({ kind: 'bulk', done: n, refused: 0 });
    expect(fs.readdirSync(path.join(sb.root, 'quarantine')).sort()).toEqual(plan.files.map((f) => f.memory).sort());
    const events = readAudit(sb.root).filter((e) => e.batch === r.outcome!.batch);
    expect(events).toHaveLength(n);
    for (const e of events) expect(e).toMatchObject({ action: 'demote', to: 'quarantined', actor: 'user:web' });
    expect(treeFiles(sb.root)).not.toEqual(before);

    const u = undoBatch(ctx, r.outcome.batch, 'user:web');
    expect(u.ok).toBe(true);
    expect(treeFiles(sb.root)).toEqual(before);
  });

  it('leaves out what the action is not allowed for, with the rule, and never applies it', () => {
    const ctx = openCtx(sb);
    const chosen = liveMemories().slice(0, 3);
    // Archive is for quarantined memories past their wait: live memories are left out.
    const plan = planTransitions(ctx, [...keysOf(ctx, chosen), `${ctx.sources[0]!.id}:no_such_file.md`], 'archive');
    expect(plan.files).toEqual([]);
    expect(plan.skipped).toHaveLength(4);
    for (const s of plan.skipped) expect(s.reason.length).toBeGreaterThan(10);
    const before = treeFiles(sb.root);
    expect(applyPlan(ctx, plan, { actor: 'user:web', confirmed: true })).toMatchObject({ ok: true, outcome: null });
    expect(treeFiles(sb.root)).toEqual(before);
  });

  it('a file changed after the plan was shown is left as it is', () => {
    const ctx = openCtx(sb);
    const [a, b] = liveMemories();
    const plan = planTransitions(ctx, keysOf(ctx, [a!, b!]), 'demote', 'stale');
    expect(plan.files).toHaveLength(2);
    fs.appendFileSync(path.join(sb.root, a!), '\nedited after the plan\n');
    const r = applyPlan(ctx, plan, { actor: 'user:web', confirmed: true, reason: 'stale' });
    if (!r.ok || !r.outcome) throw new Error('not applied');
    expect(r.outcome).toMatchObject({ done: 1, refused: 1 });
    expect(fs.existsSync(path.join(sb.root, a!))).toBe(true);
  });

  it('back-fill of a selection plans only the chosen files', () => {
    const ctx = openCtx(sb);
    const all = planBackfillBatch(ctx);
    expect(all.files.length).toBeGreaterThan(2);
    const two = all.files.slice(0, 2).map((f) => `${f.source}:${f.file}`);
    const plan = planBackfillBatch(ctx, {}, two);
    expect(plan.files.map((f) => `${f.source}:${f.file}`)).toEqual(two);
    const before = treeFiles(sb.root);
    const r = applyPlan(ctx, plan, { actor: 'user:web', confirmed: true });
    if (!r.ok || !r.outcome) throw new Error('not applied');
    expect(r.outcome.done).toBe(2);
    expect(undoBatch(ctx, r.outcome.batch, 'user:web').ok).toBe(true);
    expect(treeFiles(sb.root)).toEqual(before);
  });
});

describe('bulk promote of ticked memories', () => {
  beforeEach(() => {
    sb = sandbox('memtrust-bulk-promote-');
    // Past the 7-day observation at NOW (2026-11-22).
    for (const [rel, bytes] of Object.entries(claudeFolder()))
      put(sb.root, rel, bytes, new Date('2026-09-01T00:00:00Z'));
  });

  it('promotes the clean ones as one batch, leaves every flagged one out with the reason, and Undo restores every byte', () => {
    const ctx = openCtx(sb);
    const id = ctx.sources[0]!.id;
    const live = fs.readdirSync(sb.root).filter((f) => f.endsWith('.md') && f !== 'MEMORY.md');
    const flagged = new Set(
      (
        ctx.handle.sqlite
          .prepare(
            `SELECT DISTINCT m.filename AS f FROM entries m LEFT JOIN findings x ON x.key = m.key
             WHERE m.location = 'memories' AND (m.validate_exit IN (1, 2) OR x.class = 'credential' OR m.injection_exit <> 0)`,
          )
          .all() as { f: string }[]
      ).map((r) => r.f),
    );
    expect(flagged.size).toBeGreaterThan(0);
    const before = treeFiles(sb.root);
    const plan = planTransitions(
      ctx,
      live.map((f) => `${id}:${f}`),
      'promote',
    );
    expect(plan.files.map((f) => f.memory).sort()).toEqual(live.filter((f) => !flagged.has(f)).sort());
    expect(plan.skipped.map((s) => s.file).sort()).toEqual([...flagged].sort());
    for (const s of plan.skipped) expect(s.reason).toMatch(/credential|validator|injection|frontmatter|YAML/);
    for (const f of plan.files) expect(f).toMatchObject({ action: 'promote', to: 'verified', moves: false });
    // Promote moves nothing: the typed count is not asked for below 11 moves.
    expect(plan.confirm.needed).toBe(false);

    const r = applyPlan(ctx, plan, { actor: 'user:web', confirmed: false });
    if (!r.ok || !r.outcome) throw new Error(`not applied: ${JSON.stringify(r)}`);
    expect(r.outcome).toMatchObject({ kind: 'bulk', done: plan.files.length, refused: 0 });
    expect(r.message).toContain('promoted');
    for (const f of plan.files)
      expect(fs.readFileSync(path.join(sb.root, f.memory), 'utf8'), f.memory).toContain('trust-level: verified');
    const after = treeFiles(sb.root);
    for (const f of flagged) expect(after[f], f).toBe(before[f]);
    expect(undoBatch(ctx, r.outcome.batch, 'user:web').ok).toBe(true);
    expect(treeFiles(sb.root)).toEqual(before);
  });
});

describe('repair and restore is one undoable batch', () => {
  const Q: [string, string][] = [
    ['name', 'Integration tests'],
    ['description', 'run them first'],
    ['type', 'feedback'],
    ['source-machine', 'box'],
    ['trust-level', 'quarantined'],
    ['created-at', '2026-01-01T00:00:00Z'],
    ['last-verified', '2026-11-10'],
    ['quarantined-at', '2026-11-10T09:00:00Z'],
    ['quarantined-by', 'box'],
    ['quarantine-reason', 'doubtful'],
  ];

  it('keeps both sha256 in the event, and `memtrust undo OP` puts the quarantined bytes back', () => {
    sb = sandbox('memtrust-repair-undo-');
    // Personal data, not a credential: a credential's copy is purged once removed (copy-purge.test.ts).
    const bytes = memoryFile(Q, `\nRun the tests before merging.\n\nThe build box is 10.20.30.40.\n`);
    put(sb.root, 'quarantine/feedback_tests.md', bytes);
    const ctx = openCtx(sb);
    const before = treeFiles(sb.root);
    const ref = { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' };
    const m = repairModel(ctx, ref);
    if (!m.ok) throw new Error(m.message);
    const r = repairAndRestore(
      ctx,
      ref,
      { redactions: Object.fromEntries(m.model.values.map((v) => [v.key, 'remove'])) },
      sha(bytes),
      'repair-op-1',
    );
    expect(r).toMatchObject({ ok: true, op: 'repair-op-1', to: 'verified' });
    const ev = readAudit(sb.root).find((e) => e.id === 'repair-op-1')!;
    expect(ev).toMatchObject({ action: 'restore', batch: 'repair-op-1', before_sha256: sha(bytes) });
    expect(ev.after_sha256).toBe(sha(fs.readFileSync(path.join(sb.root, 'memories/feedback_tests.md'))));
    expect(fs.existsSync(path.join(batchesHome(sb.root), 'repair-op-1'))).toBe(true);
    expect(fs.existsSync(path.join(sb.root, '.memtrust/batches'))).toBe(false);
    closeCtx(sb);
    const u = runCli(['undo', 'repair-op-1'], sb.env);
    expect(u.status, u.stderr).toBe(0);
    expect(treeFiles(sb.root)).toEqual(before);
    expect(fs.readFileSync(path.join(sb.root, 'quarantine/feedback_tests.md')).equals(bytes)).toBe(true);
  });
});
