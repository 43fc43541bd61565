/**
 * Issue 19 item 3: the fault-injection suite (docs/crash-safety.md, "Fault-injection
 * suite"). Every write kind is one row of WRITE_KINDS; the harness
 * (fixtures/fault-harness.ts) kills it after each of its file-system calls, saves a
 * file as an editor would at each of them, and both, then recovers and checks that
 * every memory exists exactly once with its bytes and every save is kept or the
 * write refused. A real CLI run killed with SIGKILL at sampled points confirms that
 * the in-process kill leaves the disk as a real one does. Prints what it covered.
 *
 * Adding a write kind (undo, a bulk batch…): add a row — its files, its `run`, and
 * the files an editor might save meanwhile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transition } from './transition';
import { applyBackfill, planBackfill } from './backfill';
import { runAudit } from './audit-run';
import { createMemory, editMemory, suggestFilename, type MemoryInput } from './create-edit';
import { PROFILE, prepare, runCase, workDir, type CaseResult, type Mode, type WriteKind } from './fixtures/fault-harness';
import { memoryFile, pool, placements, readAudit, runCliAsync, sandbox, sha, tmpFiles, journalFiles, type Sandbox } from './test-support';

const body = (what: string) => `\n${what}\n\n**Why:** it bit us once in production.\n\n**How to apply:** check before every change.\n`;
const mem = (name: string, type: string, extra: [string, string][], text: string) =>
  memoryFile([['name', name], ['description', `${name.toLowerCase()} notes`], ['type', type], ...extra], body(text));

const DEPLOY = mem('Deploy order', 'feedback', [['trust-level', 'inferred'], ['created-at', '2026-10-01T00:00:00Z']], 'Deploys go through the staging cluster first.');
const ROLE = mem('Role', 'user', [['trust-level', 'verified'], ['created-at', '2026-09-01T00:00:00Z'], ['last-verified', '2026-11-01']], 'Platform engineer, owns the homelab and the CI runners.');
const QUARANTINED = mem('Old proxy', 'reference', [['trust-level', 'quarantined'], ['created-at', '2026-08-01T00:00:00Z'], ['quarantine-reason', 'looked wrong'], ['quarantined-at', '2026-11-20']], 'The reverse proxy forwards the dashboard port to the storage box.');
const QUARANTINED_LONG = mem('Old VPN', 'reference', [['trust-level', 'quarantined'], ['created-at', '2025-08-01T00:00:00Z'], ['quarantine-reason', 'superseded'], ['quarantined-at', '2026-01-05']], 'The VPN endpoint moved; the old config lives in the wiki.');
const NO_TIER_A = mem('Build cache', 'project', [['created-at', '2026-11-01T00:00:00Z']], 'The build cache lives on the second disk, pruned weekly.');
const NO_TIER_B = mem('Backups', 'project', [], 'Nightly backups go to the offsite bucket; restores are tested monthly.');
const TOO_SHORT = memoryFile([['name', 'Short'], ['description', 'too short'], ['type', 'project'], ['trust-level', 'inferred'], ['created-at', '2026-11-01T00:00:00Z']], '\nTiny.\n');
const INDEX = '# Memory index\n\n- [Deploy order](feedback_deploy_order.md) — deploy order notes\n- [Role](user_role.md) — role notes\n';
const NEW_MEMORY: MemoryInput = { name: 'Release freeze', description: 'no deploys on Fridays', type: 'feedback', body: 'No deploys after Thursday noon; the on-call rotation is thin on weekends.\n' };
const NEW_FILE = suggestFilename(NEW_MEMORY);

const ok = <T extends { ok: boolean }>(r: T) => [r as unknown as { ok: boolean; noop?: boolean; code?: string; message?: string }];

export const WRITE_KINDS: WriteKind[] = [
  {
    name: 'demote',
    files: { 'memories/feedback_deploy_order.md': DEPLOY, 'memories/user_role.md': ROLE },
    saves: ['memories/feedback_deploy_order.md'],
    run: (ctx) => ok(transition(ctx, { ref: 'feedback_deploy_order.md', action: 'demote', reason: 'wrong cluster', actor: 'user:cli', opId: 'f-demote' })),
  },
  {
    name: 'restore',
    files: { 'quarantine/reference_old_proxy.md': QUARANTINED, 'memories/user_role.md': ROLE },
    saves: ['quarantine/reference_old_proxy.md'],
    run: (ctx) => ok(transition(ctx, { ref: 'reference_old_proxy.md', action: 'restore', reason: 'checked it', actor: 'user:cli', opId: 'f-restore' })),
  },
  {
    name: 'archive',
    files: { 'quarantine/reference_old_vpn.md': QUARANTINED_LONG, 'memories/user_role.md': ROLE },
    saves: ['quarantine/reference_old_vpn.md'],
    run: (ctx) => ok(transition(ctx, { ref: 'reference_old_vpn.md', action: 'archive', actor: 'user:cli', opId: 'f-archive' })),
  },
  {
    name: 'promote (in place)',
    files: { 'memories/feedback_deploy_order.md': DEPLOY, 'memories/user_role.md': ROLE },
    saves: ['memories/feedback_deploy_order.md'],
    run: (ctx) => ok(transition(ctx, { ref: 'feedback_deploy_order.md', action: 'promote', actor: 'user:cli', opId: 'f-promote' })),
  },
  {
    name: 'backfill --apply (two memories)',
    files: { 'memories/project_build_cache.md': NO_TIER_A, 'memories/project_backups.md': NO_TIER_B, 'memories/user_role.md': ROLE },
    saves: ['memories/project_backups.md'],
    run: (ctx) => planBackfill(ctx).filter((e) => e.plan.kind !== 'skip').map((e) => applyBackfill(ctx, e, 'user:cli')),
  },
  {
    name: 'audit --apply',
    files: { 'memories/project_short.md': TOO_SHORT, 'memories/user_role.md': ROLE },
    saves: ['memories/project_short.md'],
    run: (ctx) => runAudit(ctx, true).applied.map((a) => a.result),
  },
  {
    name: 'edit (dashboard save)',
    files: { 'memories/feedback_deploy_order.md': DEPLOY, 'memories/user_role.md': ROLE },
    saves: ['memories/feedback_deploy_order.md'],
    run: (ctx) => ok(editMemory(ctx, { source: ctx.sources[0]!.id, filename: 'feedback_deploy_order.md' }, { name: 'Deploy order', description: 'staging first', body: 'Deploys go through the staging cluster first, then production after an hour.\n' }, sha(DEPLOY), 'user:cli')),
  },
  {
    name: 'create (Claude Code folder, MEMORY.md line added)',
    files: { 'MEMORY.md': INDEX, 'feedback_deploy_order.md': DEPLOY, 'user_role.md': ROLE },
    saves: [NEW_FILE, 'MEMORY.md'],
    run: (ctx) => ok(createMemory(ctx, ctx.sources[0]!.id, NEW_MEMORY, 'user:cli')),
  },
  {
    name: 'demote (Claude Code folder, MEMORY.md line removed)',
    files: { 'MEMORY.md': INDEX, 'feedback_deploy_order.md': DEPLOY, 'user_role.md': ROLE },
    saves: ['feedback_deploy_order.md', 'MEMORY.md'],
    run: (ctx) => ok(transition(ctx, { ref: 'feedback_deploy_order.md', action: 'demote', reason: 'wrong cluster', actor: 'user:cli', opId: 'f-cc-demote' })),
  },
  {
    name: 'restore (Claude Code folder, MEMORY.md line put back)',
    files: { 'MEMORY.md': '# Memory index\n\n- [Role](user_role.md) — role notes\n', 'quarantine/reference_old_proxy.md': QUARANTINED, 'user_role.md': ROLE },
    saves: ['quarantine/reference_old_proxy.md', 'MEMORY.md'],
    run: (ctx) => ok(transition(ctx, { ref: 'reference_old_proxy.md', action: 'restore', reason: 'checked it', actor: 'user:cli', opId: 'f-cc-restore' })),
  },
];

const MODES: Mode[] = ['kill', 'save', 'save+kill'];
let work: string;
const results: CaseResult[] = [];
const pointsPerKind = new Map<string, number>();

beforeAll(() => {
  work = workDir();
  for (const kind of WRITE_KINDS) {
    const p = prepare(kind, work);
    pointsPerKind.set(kind.name, p.points.length);
    for (let n = 1; n <= p.points.length; n++) {
      results.push(runCase(p, 'kill', n));
      for (const rel of kind.saves) {
        results.push(runCase(p, 'save', n, rel));
        results.push(runCase(p, 'save+kill', n, rel));
      }
    }
  }
}, 240_000);

afterAll(() => {
  const points = [...pointsPerKind.values()].reduce((a, b) => a + b, 0);
  const by = (m: Mode) => results.filter((r) => r.mode === m).length;
  const notes = new Map<string, number>();
  for (const r of results) for (const n of r.notes) notes.set(n, (notes.get(n) ?? 0) + 1);
  console.log(
    `fault injection: ${WRITE_KINDS.length} write kinds, ${points} fault points (${[...pointsPerKind].map(([k, n]) => `${k} ${n}`).join(', ')}); ` +
      `${results.length} cases (${MODES.map((m) => `${m} ${by(m)}`).join(', ')}); outcomes: ${[...notes].map(([k, n]) => `${k} ${n}`).join(', ')}`,
  );
  if (process.env.FAULTS_PROFILE) console.log([...PROFILE].map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', '));
  if (process.env.FAULTS_DUMP) fs.writeFileSync(process.env.FAULTS_DUMP, JSON.stringify(results.filter((r) => r.problems.length), null, 1));
  fs.rmSync(work, { recursive: true, force: true });
});

describe('fault injection: every file-system call of every write kind', () => {
  it('covers every point of every kind in every mode', () => {
    for (const kind of WRITE_KINDS) {
      const n = pointsPerKind.get(kind.name)!;
      expect(n, kind.name).toBeGreaterThan(15);
      expect(results.filter((r) => r.kind === kind.name).length).toBe(n * (1 + 2 * kind.saves.length));
    }
  });

  it.each(WRITE_KINDS.map((k) => [k.name]))('%s: nothing lost, nothing duplicated, nothing left over', (name) => {
    const bad = results.filter((r) => r.kind === name && r.problems.length > 0);
    expect(bad.slice(0, 8).map((r) => `${r.mode} @${r.point} (${r.label})${r.saved ? ` saving ${r.saved}` : ''}: ${r.problems.join(' | ')}`)).toEqual([]);
  });

  it('saves really race the writes: some are refused, some land after the commit and are kept', () => {
    const notes = results.flatMap((r) => r.notes);
    expect(notes.filter((n) => n === 'refused').length).toBeGreaterThan(20);
    expect(notes.filter((n) => n === 'rolled-forward').length).toBeGreaterThan(20);
    expect(notes.filter((n) => n === 'rolled-back').length).toBeGreaterThan(20);
  });
});
