/**
 * The real CLI over record roots (docs/records.md, "CLI"): `roots`, `list` and `show`
 * in text and JSON, with the test layout switched on in the child process by
 * MEMTRUST_TEST_LAYOUT=1. A trust-model root beside them keeps its own output.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envFor, memoryFile, put, removeSandbox, runCli, sandbox, type Sandbox } from '../service/test-support';

const line = (o: Record<string, unknown>) => JSON.stringify(o);
let sb: Sandbox;
let team: string;
let tool: string;
const on = { MEMTRUST_TEST_LAYOUT: '1' };
const cli = (args: string[]) => runCli(args, sb.env, on);
const json = (args: string[]) => {
  const r = cli([...args, '--json']);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

beforeAll(() => {
  sb = sandbox('memtrust-records-cli-');
  put(
    sb.root,
    'memories/feedback_ci_merge.md',
    memoryFile(
      [
        ['name', 'CI merge policy'],
        ['description', 'never merge on red'],
        ['type', 'feedback'],
        ['created-at', '2026-10-01T09:00:00Z'],
      ],
      '\nWait for green.\n',
    ),
  );
  team = path.join(sb.tmp, 'team');
  tool = path.join(sb.tmp, 'tool');
  fs.mkdirSync(team);
  fs.mkdirSync(tool);
  fs.writeFileSync(
    path.join(team, 'main.testrecords.jsonl'),
    `${[
      line({
        key: 'deploy-host',
        native: 'active/supported',
        tier: 'verified',
        title: 'Deploy host',
        text: 'Deploys go through the bastion host.',
        origin: 'user-instruction',
        created: '2026-10-01',
      }),
      line({
        key: 'nas-login',
        title: 'NAS login',
        text: 'The NAS admin password: Tr1cky-Pa55x (fake).',
        flags: ['stale'],
        reasons: { stale: 'not verified for 90 days' },
      }),
      'not json at all',
    ].join('\r\n')}\r\n`,
  );
  fs.writeFileSync(
    path.join(tool, 'owned.testrecords-ro.jsonl'),
    `${line({ key: 'owned', native: 'needs-review', title: 'Owned by the tool', text: 'Only the tool writes this.' })}\n`,
  );
  sb.env = envFor([sb.root, team, tool].join(path.delimiter), sb.db, sb.tmp);
});
afterAll(() => removeSandbox(sb));

describe('memtrust over record roots', () => {
  it('roots names each root with its layout, shape and record count', () => {
    const r = cli(['roots']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`  ${sb.root}  [trust-model root]\n`);
    expect(r.stdout).toContain(
      `  ${team}  [test records: layout test-layout, jsonl]  — 2 records, 1 unreadable entry\n`,
    );
    expect(r.stdout).toContain(`  ${tool}  [read-only test records: layout test-layout-ro, jsonl]  — 1 record\n`);
    const j = json(['roots']);
    expect(
      j.configured.map((c: { layout: string; shape: string; records?: unknown }) => [
        c.layout,
        c.shape,
        c.records ?? null,
      ]),
    ).toEqual([
      ['trust-root', 'folders', null],
      ['test-layout', 'jsonl', { count: 2, problems: 1 }],
      ['test-layout-ro', 'jsonl', { count: 1, problems: 0 }],
    ]);
    expect(j.configured[0]).not.toHaveProperty('label');
  });

  it('list shows memories and records; the bad line is named on stderr', () => {
    const r = cli(['list']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      `inferred     ${'memories/feedback_ci_merge.md'.padEnd(48)} CI merge policy`,
      `verified     ${'main.testrecords.jsonl:1'.padEnd(48)} Deploy host  [test-layout · active/supported]`,
      `inferred     ${'main.testrecords.jsonl:2'.padEnd(48)} NAS login  [test-layout · stale]`,
      `inferred     ${'owned.testrecords-ro.jsonl:1'.padEnd(48)} Owned by the tool  [test-layout-ro · needs-review]`,
    ]);
    expect(r.stderr).toContain(`memtrust: ${team}/main.testrecords.jsonl line 3: not a JSON object`);
    expect(r.stdout).not.toContain('Tr1cky-Pa55x');
  });

  it('list --json carries layout, key, native, flags, actions and location for every item', () => {
    const j = json(['list']);
    expect(j.total).toBe(4);
    const byKey = new Map(j.items.map((i: { key: string }) => [i.key, i]));
    expect(byKey.get('feedback_ci_merge.md')).toMatchObject({
      layout: 'trust-root',
      native: 'memories/none',
      flags: [],
      location: { file: 'memories/feedback_ci_merge.md' },
    });
    expect(byKey.get('nas-login')).toMatchObject({
      layout: 'test-layout',
      native: 'inferred',
      tier: 'inferred',
      flags: ['stale'],
      flagReasons: { stale: 'not verified for 90 days' },
      actions: ['archive'],
      location: { file: 'main.testrecords.jsonl', line: 2, endLine: 2 },
      root: team,
      secret: 1,
      injection: 0,
    });
    expect(byKey.get('owned')).toMatchObject({ layout: 'test-layout-ro', native: 'needs-review', actions: [] });
    expect(j.problems).toEqual([
      expect.objectContaining({ file: 'main.testrecords.jsonl', line: 3, problem: 'not a JSON object' }),
    ]);
    expect(JSON.stringify(j)).not.toContain('Tr1cky-Pa55x');
  });

  it('list --layout keeps one layout; a layout memtrust does not know is a usage error', () => {
    expect(json(['list', '--layout', 'test-layout-ro']).items.map((i: { key: string }) => i.key)).toEqual(['owned']);
    expect(json(['list', '--layout', 'trust-root']).items.map((i: { key: string }) => i.key)).toEqual([
      'feedback_ci_merge.md',
    ]);
    expect(
      json(['list', '--layout', 'test-layout', '--tier', 'verified']).items.map((i: { key: string }) => i.key),
    ).toEqual(['deploy-host']);
    const bad = cli(['list', '--layout', 'bogus']);
    expect(bad.status).toBe(64);
    expect(bad.stderr).toContain('--layout must be one of trust-root, claude-code, test-layout, test-layout-ro');
  });

  it("list --queue keeps the records in that queue by the inbox's rule; a record-only queue holds no memory", () => {
    const keys = (args: string[]) =>
      json(['list', ...args])
        .items.map((i: { key: string }) => i.key)
        .sort();
    // The stale record is in `stale` and in `review` (stale, or inferred and due) beside the memories there.
    expect(keys(['--queue', 'stale'])).toContain('nas-login');
    expect(keys(['--queue', 'review'])).toContain('nas-login');
    expect(keys(['--queue', 'review'])).not.toContain('deploy-host');
    // Clocks only memory files have: no record is in `passive` or `backfill`.
    expect(keys(['--queue', 'backfill'])).toEqual(['feedback_ci_merge.md']);
    expect(keys(['--queue', 'contradictions'])).toEqual([]);
    const bad = cli(['list', '--queue', 'nope']);
    expect(bad.status).toBe(64);
    expect(bad.stderr).toContain('contradictions, suspect, candidate');
  });

  it('show KEY prints the record: fields, flags with reasons, findings, place and actions', () => {
    const r = cli(['show', 'nas-login']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`nas-login  [inferred]  ${team}/main.testrecords.jsonl:2\n`);
    expect(r.stdout).toContain('  layout: test-layout (test records, jsonl)\n');
    expect(r.stdout).toContain('flags:\n  stale — not verified for 90 days\n');
    expect(r.stdout).toMatch(/verdicts: secret-check 1 · injection-check 0\n {2}SECRET-DETECTED: .*\(line 2\)\n/);
    expect(r.stdout).toContain('actions:\n  ✓ archive\n  ✗ restore — not archived\n');
    expect(r.stdout).not.toContain('Tr1cky-Pa55x');
  });

  it("show ID of a read-only layout names the owner's command for every refused action", () => {
    const id = json(['list', '--layout', 'test-layout-ro']).items[0].id as string;
    const r = cli(['show', id]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "  ✗ archive — the test tool owns this store; memtrust only reads it; the owner's command: testtool archive owned\n",
    );
    const j = json(['show', 'owned']);
    expect(j).toMatchObject({
      id,
      layout: 'test-layout-ro',
      key: 'owned',
      native: 'needs-review',
      root: tool,
      location: { file: 'owned.testrecords-ro.jsonl', line: 1 },
    });
    expect(j.actionStates).toContainEqual({
      action: 'restore',
      allowed: false,
      reason: 'the test tool owns this store; memtrust only reads it',
      command: 'testtool restore owned',
    });
  });

  it('show of a memory file is unchanged; an unknown key is exit 2 with one line', () => {
    const m = cli(['show', 'feedback_ci_merge.md']);
    expect(m.status, m.stderr).toBe(0);
    expect(m.stdout.split('\n')[0]).toBe(`feedback_ci_merge.md  [inferred]  ${sb.root}/memories/feedback_ci_merge.md`);
    const r = cli(['show', 'no-such-key']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('memtrust show: no record no-such-key in the configured record roots');
  });
});
