/**
 * The record pipeline through the real CLI in its own process (test-cli.ts registers the
 * test adapters, then runs lib/cli/main.ts): exit codes, the read-only command on stderr,
 * undo byte for byte, and a real SIGKILL at points spread over a two-file record step,
 * recovered by the next run (docs/records-write.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  copyRoot,
  pool,
  readAudit,
  runNodeAsync,
  sandbox,
  tmpFiles,
  journalFiles,
  treeFiles,
  type Sandbox,
} from '../test-support';
import { EXPIRED_FILE, READ_ONLY_FILE } from './test-adapter';

const CLI = ['--import', 'tsx', path.join('lib', 'service', 'records', 'test-cli.ts')];
const STORE = 'team.memory.jsonl';
const TEAM = `${[
  '# decisions the team agreed on (made-up data)',
  '{"id":"deploy","status":"active","text":"Deploys go through staging at 10.0.0.5 first."}',
  '{"id":"owner","status":"active","text":"The on-call owner is the platform team."}',
].join('\r\n')}\r\n{"id":"backups","status":"verified","text":"Backups run nightly."}`;

const boxes: Sandbox[] = [];
afterAll(() => {
  for (const b of boxes) fs.rmSync(b.tmp, { recursive: true, force: true });
});

function store(files: Record<string, string>): Sandbox {
  const sb = sandbox('memtrust-records-cli-');
  boxes.push(sb);
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(sb.root, rel), text);
  return sb;
}
const run = (sb: Sandbox, args: string[], extra: Record<string, string> = {}) =>
  runNodeAsync([...CLI, ...args], sb.env, extra);

describe('record commands through the real CLI', () => {
  it('demote a record, undo it byte for byte; a read-only layout exits 2 with the owner’s command', async () => {
    const sb = store({ [STORE]: TEAM });
    const d = await run(sb, ['demote', 'owner', '--reason', 'the team changed']);
    expect(d.status, d.stderr).toBe(0);
    const after = fs.readFileSync(path.join(sb.root, STORE), 'utf8');
    expect(after).toBe(TEAM.replace('"id":"owner","status":"active"', '"id":"owner","status":"quarantined"'));
    const batch = /memtrust undo (\S+)/.exec(d.stdout)![1]!;
    const u = await run(sb, ['undo', batch]);
    expect(u.status, u.stderr).toBe(0);
    expect(fs.readFileSync(path.join(sb.root, STORE), 'utf8')).toBe(TEAM);

    const ro = store({ [READ_ONLY_FILE]: 'k1 active\n' });
    const r = await run(ro, ['promote', 'k1']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/memtrust promote: .*read-only/);
    expect(r.stderr).toMatch(/^ {2}testtool promote k1$/m);
    expect(fs.existsSync(path.join(ro.root, '.memtrust'))).toBe(false);
  }, 60_000);

  it('SIGKILL anywhere in a two-file step: the next run finishes or puts back the whole batch', async () => {
    const base = store({ [STORE]: TEAM, [EXPIRED_FILE]: '{"id":"old","status":"archived","text":"older"}\n' });
    const ref = sandbox('memtrust-records-cli-ref-');
    boxes.push(ref);
    copyRoot(base.root, ref.root);
    const trace = path.join(ref.tmp, 'trace');
    const done = await run(ref, ['record-action', 'deploy', 'expire'], { MEMTRUST_FAULT_TRACE: trace });
    expect(done.status, done.stderr).toBe(0);
    const before = treeFiles(base.root);
    const after = treeFiles(ref.root);
    const points = fs.readFileSync(trace, 'utf8').trim().split('\n').length;
    expect(points).toBeGreaterThan(60);
    // Ten points spread over the whole write, the first and the last included.
    const at = [...new Set(Array.from({ length: 10 }, (_, i) => 1 + Math.round((i * (points - 1)) / 9)))];
    const outcomes = await pool(at, 2, async (n) => {
      const sb = sandbox('memtrust-records-cli-kill-');
      boxes.push(sb);
      copyRoot(base.root, sb.root);
      const killed = await run(sb, ['record-action', 'deploy', 'expire'], { MEMTRUST_CRASH_AT: `#${n}` });
      // The next command recovers first (any command opens the context).
      const next = await run(sb, ['record-action', 'nobody', 'expire']);
      const tree = treeFiles(sb.root);
      const events = readAudit(sb.root);
      return {
        n,
        signal: killed.signal,
        next: next.stderr,
        tree,
        events: events.length,
        left: [...tmpFiles(sb.root), ...journalFiles(sb.root)],
      };
    });
    for (const o of outcomes) {
      expect(o.signal, `point ${o.n}`).toBe('SIGKILL');
      expect(o.left, `point ${o.n}`).toEqual([]);
      if (o.events === 0) expect(o.tree, `point ${o.n}: not applied, so as before`).toEqual(before);
      else {
        expect(o.events, `point ${o.n}`).toBe(1);
        expect(o.tree, `point ${o.n}: applied, so as after`).toEqual(after);
      }
    }
    // The spread reaches both sides of the commit.
    expect(outcomes.some((o) => o.events === 0)).toBe(true);
    expect(outcomes.some((o) => o.events === 1)).toBe(true);
  }, 180_000);
});
