/**
 * Issue #3 item 7.2 (CLI part) and 7.7: exit codes of the real `memtrust`
 * process — 0 done, 0 already in that state, 2 refused, 64 usage — and an
 * operation id applied once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryFile, put, readAudit, removeSandbox, runCli, sandbox, treeHash, type Sandbox } from './test-support';

const BODY =
  '\nDeploys go through the pipeline because manual deploys skipped migrations.\n\n**Why:** outage.\n\n**How to apply:** never ssh in.\n';

let sb: Sandbox;
beforeAll(() => {
  sb = sandbox();
  const fm = (name: string, extra: [string, string][]) =>
    memoryFile([['name', name], ['description', 'deploy rule'], ['type', 'feedback'], ...extra], BODY);
  put(
    sb.root,
    'memories/feedback_deploys.md',
    fm('Deploys', [
      ['trust-level', 'verified'],
      ['created-at', '2026-01-01T00:00:00Z'],
      ['last-verified', '2026-11-01'],
    ]),
  );
  put(
    sb.root,
    'memories/feedback_young.md',
    fm('Young', [
      ['trust-level', 'inferred'],
      ['created-at', '2026-11-21T00:00:00Z'],
    ]),
  );
  put(
    sb.root,
    'memories/feedback_retry.md',
    fm('Retry', [
      ['trust-level', 'verified'],
      ['created-at', '2026-01-01T00:00:00Z'],
      ['last-verified', '2026-11-01'],
    ]),
  );
});
afterAll(() => removeSandbox(sb));

describe('memtrust CLI exit codes', () => {
  it('0 when done, 0 when already in that state', () => {
    const done = runCli(['demote', 'feedback_deploys.md', '--reason', 'superseded by the new pipeline'], sb.env);
    expect(done.status).toBe(0);
    expect(done.stdout).toContain(
      'feedback_deploys.md: demote done, verified → quarantined (moved to quarantine/feedback_deploys.md)',
    );
    expect(fs.existsSync(path.join(sb.root, 'quarantine/feedback_deploys.md'))).toBe(true);
    const before = treeHash(sb.root);
    const again = runCli(['demote', 'feedback_deploys.md', '--reason', 'again', '--json'], sb.env);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, noop: true, from: 'quarantined', to: 'quarantined' });
    expect(treeHash(sb.root)).toEqual(before);
    expect(readAudit(sb.root)).toHaveLength(1);
  });

  it('2 when refused (promote during observation), with the rule on stderr and nothing changed', () => {
    const before = treeHash(sb.root);
    const r = runCli(['promote', 'feedback_young.md'], sb.env);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^memtrust promote: promotion refused: the observation period ends 2026-11-28/);
    expect(treeHash(sb.root)).toEqual(before);
  });

  it('64 on an unknown flag, a missing FILE, a malformed --op', () => {
    const before = treeHash(sb.root);
    const unknown = runCli(['demote', 'feedback_young.md', '--reason', 'x', '--force'], sb.env);
    expect(unknown.status).toBe(64);
    expect(unknown.stderr).toContain('unknown option: --force');
    const missing = runCli(['restore'], sb.env);
    expect(missing.status).toBe(64);
    expect(missing.stderr).toContain('usage: memtrust restore FILE');
    const badOp = runCli(['demote', 'feedback_young.md', '--reason', 'x', '--op', 'a/b'], sb.env);
    expect(badOp.status).toBe(64);
    expect(treeHash(sb.root)).toEqual(before);
  });

  it('the same --op twice: the second run is "already applied" and there is one audit event', () => {
    const first = runCli(
      ['demote', 'feedback_retry.md', '--reason', 'retry me', '--op', 'retry-op-1', '--json'],
      sb.env,
    );
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ ok: true, noop: false, op: 'retry-op-1', to: 'quarantined' });
    const after = treeHash(sb.root);
    // A retry of the same operation, even phrased as another action, is the same operation.
    const second = runCli(['restore', 'feedback_retry.md', '--op', 'retry-op-1'], sb.env);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('operation retry-op-1 was already applied');
    expect(treeHash(sb.root)).toEqual(after);
    expect(readAudit(sb.root).filter((e) => e.id === 'retry-op-1')).toHaveLength(1);
    const hist = JSON.parse(runCli(['history', 'feedback_retry.md', '--json'], sb.env).stdout) as {
      events: { id: string }[];
    };
    expect(hist.events.map((e) => e.id)).toEqual(['retry-op-1']);
  });
});
