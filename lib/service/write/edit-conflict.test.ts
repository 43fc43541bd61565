/**
 * Issue #3 item 7.5: a file edited on disk between read and write is never
 * overwritten. (a) the caller's expectSha no longer matches; (b) the file is
 * edited after the read — from inside the planner, which runs after it — so the
 * last look before the switch must catch it: conflict, edit intact, nothing left.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyToMemory, transition, type Plan } from './transition';
import type { ServiceContext } from '../context';
import {
  journalFiles,
  memoryFile,
  openCtx,
  put,
  readAudit,
  sha,
  tmpFiles,
  treeFiles,
  treeHash,
  sandboxPerTest,
} from '../test-support';

const BODY =
  '\nUse the staging database for load tests because prod has real customers.\n\n**Why:** incident.\n\n**How to apply:** point at staging.\n';
const FILE = memoryFile(
  [
    ['name', 'Load tests'],
    ['description', 'staging only'],
    ['type', 'feedback'],
    ['trust-level', 'inferred'],
    ['created-at', '2026-10-01T00:00:00Z'],
  ],
  BODY,
);
const EDITED = Buffer.from(FILE.toString('utf8').replace('staging database', 'staging cluster'));

const sb = sandboxPerTest({ beforeEach, afterEach });
let ctx: ServiceContext;

/** Every file as `expected` (an empty destination directory may have been made), nothing recorded or left over. */
function unchangedBut(expected: Record<string, string>) {
  expect(treeFiles(sb.root)).toEqual(expected);
  expect(readAudit(sb.root)).toEqual([]);
  expect(journalFiles(sb.root)).toEqual([]);
  expect(tmpFiles(sb.root)).toEqual([]);
  expect(ctx.handle.sqlite.prepare('SELECT count(*) AS n FROM audit_events').get()).toEqual({ n: 0 });
}

/** A planner that edits the file on disk (as an editor would) and then plans `plan`. */
function editingPlanner(plan: Plan, bytes: Buffer) {
  return (_ins: unknown, found: { abs: string }) => {
    fs.writeFileSync(found.abs, bytes);
    return plan;
  };
}

const demotePlan: Plan = {
  ok: true,
  noop: false,
  action: 'demote',
  from: 'inferred',
  to: 'quarantined',
  set: { 'trust-level': 'quarantined', 'quarantine-reason': 'x' },
  remove: [],
  move: { dir: 'quarantine' },
  reason: 'x',
};
const promotePlan: Plan = {
  ok: true,
  noop: false,
  action: 'promote',
  from: 'inferred',
  to: 'verified',
  set: { 'trust-level': 'verified' },
  remove: [],
  move: null,
  reason: null,
};

describe('a file changed on disk is never overwritten', () => {
  it('(a) expectSha of what the user saw no longer matches: conflict, file untouched', () => {
    const abs = put(sb.root, 'memories/feedback_load_tests.md', FILE);
    ctx = openCtx(sb);
    const seen = sha(FILE);
    fs.writeFileSync(abs, EDITED); // edited after the user looked at it
    const before = treeFiles(sb.root);
    const dirs = treeHash(sb.root);
    const r = transition(ctx, {
      ref: 'feedback_load_tests.md',
      action: 'demote',
      reason: 'wrong',
      actor: 'user:web',
      expectSha: seen,
    });
    expect(treeHash(sb.root)).toEqual(dirs); // refused before anything, even a directory, is made
    expect(r).toMatchObject({ ok: false, code: 'conflict', paths: [abs] });
    expect(r.ok ? '' : r.message).toMatch(/changed on disk since it was shown/);
    unchangedBut(before);
    expect(fs.readFileSync(abs).equals(EDITED)).toBe(true);
    // With the current hash it goes through.
    expect(
      transition(ctx, {
        ref: 'feedback_load_tests.md',
        action: 'demote',
        reason: 'wrong',
        actor: 'user:web',
        expectSha: sha(EDITED),
      }),
    ).toMatchObject({ ok: true });
  });

  it('(b) edited after the read, before a move: conflict, edit intact, no copy in quarantine/', () => {
    const abs = put(sb.root, 'memories/feedback_load_tests.md', FILE);
    ctx = openCtx(sb);
    const expected = { ...treeFiles(sb.root), 'memories/feedback_load_tests.md': sha(EDITED) };
    const r = applyToMemory(
      ctx,
      { ref: 'feedback_load_tests.md', actor: 'user:web' },
      editingPlanner(demotePlan, EDITED) as never,
    );
    expect(r).toMatchObject({ ok: false, code: 'conflict', paths: [abs] });
    expect(r.ok ? '' : r.message).toMatch(/changed on disk while the transition ran: nothing was written/);
    expect(fs.readFileSync(abs).equals(EDITED)).toBe(true);
    expect(fs.readdirSync(path.join(sb.root, 'quarantine'))).toEqual([]);
    unchangedBut(expected);
  });

  it('(b) edited after the read, before an in-place rewrite: conflict, edit intact', () => {
    const abs = put(sb.root, 'memories/feedback_load_tests.md', FILE);
    ctx = openCtx(sb);
    const before = { ...treeFiles(sb.root), 'memories/feedback_load_tests.md': sha(EDITED) };
    const r = applyToMemory(
      ctx,
      { ref: 'feedback_load_tests.md', actor: 'user:web' },
      editingPlanner(promotePlan, EDITED) as never,
    );
    expect(r).toMatchObject({ ok: false, code: 'conflict', paths: [abs] });
    expect(fs.readFileSync(abs).equals(EDITED)).toBe(true);
    unchangedBut(before);
  });

  it('(b) Claude Code folder: the edited memory keeps its MEMORY.md line', () => {
    const abs = put(sb.root, 'feedback_load_tests.md', FILE);
    put(sb.root, 'MEMORY.md', '- [Load tests](feedback_load_tests.md) — staging only\n');
    ctx = openCtx(sb);
    const expected = { ...treeFiles(sb.root), 'feedback_load_tests.md': sha(EDITED) };
    const r = applyToMemory(
      ctx,
      { ref: 'feedback_load_tests.md', actor: 'user:web' },
      editingPlanner(demotePlan, EDITED) as never,
    );
    expect(r).toMatchObject({ ok: false, code: 'conflict' });
    expect(fs.readFileSync(abs).equals(EDITED)).toBe(true);
    expect(fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8')).toBe(
      '- [Load tests](feedback_load_tests.md) — staging only\n',
    );
    unchangedBut(expected);
  });

  it('the destination appearing after the read is a conflict too, and nothing is replaced', () => {
    const abs = put(sb.root, 'memories/feedback_load_tests.md', FILE);
    ctx = openCtx(sb);
    const other = Buffer.from('someone else synced this copy in\n');
    const dst = path.join(sb.root, 'quarantine', 'feedback_load_tests.md');
    const expected = { ...treeFiles(sb.root), 'quarantine/feedback_load_tests.md': sha(other) };
    const r = applyToMemory(ctx, { ref: 'feedback_load_tests.md', actor: 'user:web' }, () => {
      put(sb.root, 'quarantine/feedback_load_tests.md', other);
      return demotePlan;
    });
    expect(r).toMatchObject({ ok: false, code: 'conflict', paths: [abs, dst] });
    expect(fs.readFileSync(dst).equals(other)).toBe(true);
    expect(fs.readFileSync(abs).equals(FILE)).toBe(true);
    unchangedBut(expected);
  });
});
