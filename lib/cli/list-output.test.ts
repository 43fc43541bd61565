/**
 * `memtrust list` prints the same bytes as before it was made fast (docs/performance.md,
 * "memtrust list"): the real CLI (`node lib/cli/memtrust.cjs`) against the command as it
 * was (lib/cli/fixtures/list-legacy.ts) run in this process, over the same real roots
 * and SQLite index, for every flag combination: stdout, stderr and the exit code.
 *
 * The roots: two trust-model roots from the demo generator and a Claude Code folder with
 * the shapes real folders have (lib/service/fixtures/scan-corpus.ts), hand-written edge
 * cases (quotes, backslashes, non-ASCII and astral names, a credential, broken YAML, a
 * conflict, a stale verified memory), and two record roots (one with an unreadable line).
 * The big root holds more than one part of items (list-cmd.ts writes 2,000 at a time).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
  CLI,
  PROJECT,
  childEnv,
  envFor,
  memoryFile,
  put,
  removeSandbox,
  runCli,
  sandbox,
  type Sandbox,
} from '../service/test-support';
import { writeScanCorpus } from '../service/fixtures/scan-corpus';
import { registerForTests } from '../sources/registry';
import { TEST_LAYOUT_ADAPTERS } from '../sources/test-layout';
import { QUEUES } from '../../db/queries/memories';
import { RECORD_QUEUES } from '../../db/queries/record-rows';
import { legacyHistoryCmd, legacyListCmd } from './fixtures/list-legacy';
import { JsonItems, writeLines, writeParts } from './commands/list-output';
import type { Io } from './io';

let sb: Sandbox;
const on = { MEMTRUST_TEST_LAYOUT: '1' };
const unregister: Array<() => void> = [];

/** The old command in this process, with the sandbox's environment: what it printed and returned. */
async function legacy(
  args: string[],
  command = legacyListCmd,
): Promise<{ status: number; stdout: string; stderr: string }> {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) if (k.startsWith('MEMTRUST_')) delete process.env[k];
  Object.assign(process.env, sb.env);
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => void out.push(`${l}\n`), err: (l) => void err.push(`${l}\n`), isTTY: false };
  try {
    const status = await command.run(args, io);
    return { status, stdout: out.join(''), stderr: err.join('') };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

const line = (o: Record<string, unknown>) => JSON.stringify(o);

/** The real CLI, with room for listings of a few MiB (runCli keeps spawnSync's 1 MiB cap). */
function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: childEnv(sb.env, on),
    encoding: 'utf8',
    cwd: PROJECT,
    maxBuffer: 256 * 2 ** 20,
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  sb = sandbox('memtrust-list-output-');
  const { roots } = writeScanCorpus(sb.tmp, 2100, 100);
  const [trustA] = roots;
  const fields = (name: string, extra: Array<[string, string]> = []): Array<[string, string]> => [
    ['name', name],
    ['description', 'an edge case of the list output'],
    ['type', 'project'],
    ['created-at', '2026-10-01T09:00:00Z'],
    ...extra,
  ];
  put(trustA!, 'memories/project_quotes.md', memoryFile(fields('"Quoted" \\ back\\slash\ttab'), '\nBody text.\n'));
  put(trustA!, 'memories/project_ünïcode_名前.md', memoryFile(fields('Ünïcode 名前 ✓'), '\nBody text.\n'));
  put(trustA!, 'memories/project_astral_😀.md', memoryFile(fields('Astral 😀 name'), '\nBody text.\n'));
  put(trustA!, 'memories/project_\uE000private.md', memoryFile(fields('Private use'), '\nBody text.\n'));
  put(
    trustA!,
    'memories/project_creds.md',
    memoryFile(
      fields('Creds', [['trust-level', 'inferred']]),
      `\nThe deploy key is ghp_${'Fake0Token1Value2For3Tests4Only5abcd'} (fake).\n`,
    ),
  );
  put(
    trustA!,
    'memories/project_stale_verified.md',
    memoryFile(
      fields('Stale', [
        ['trust-level', 'verified'],
        ['last-verified', '2026-05-01'],
      ]),
      '\nLong ago.\n',
    ),
  );
  put(trustA!, 'memories/project_broken.md', '---\nname: Broken: yaml: here\ntype: [project\n---\nBody.\n');
  put(trustA!, 'memories/project_twice.md', memoryFile(fields('Twice', [['trust-level', 'inferred']]), '\nOne.\n'));
  put(trustA!, 'quarantine/project_twice.md', memoryFile(fields('Twice', [['trust-level', 'quarantined']]), '\n2\n'));
  // Record roots (the test layouts, switched on in the child by MEMTRUST_TEST_LAYOUT=1).
  const team = path.join(sb.tmp, 'team');
  const tool = path.join(sb.tmp, 'tool');
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
        text: 'Bastion.',
      }),
      line({ key: 'nas-login', title: 'NAS login', text: 'The NAS admin password: Tr1cky-Pa55x (fake).' }),
      'not json at all',
    ].join('\n')}\n`,
  );
  fs.writeFileSync(
    path.join(tool, 'owned.testrecords-ro.jsonl'),
    `${line({ key: 'owned', native: 'needs-review', title: 'Owned by the tool', text: 'Only the tool.' })}\n`,
  );
  for (const a of TEST_LAYOUT_ADAPTERS) unregister.push(registerForTests(a));
  sb.env = envFor([...roots, team, tool].join(path.delimiter), sb.db, sb.tmp);
  const r = runCli(['scan'], sb.env, on);
  expect(r.status, r.stderr).toBe(0);
}, 120_000);

afterAll(() => {
  for (const u of unregister) u();
  removeSandbox(sb);
});

const COMBOS: string[][] = [
  [],
  ['--json'],
  ['--all'],
  ['--all', '--json'],
  ['--limit', '7'],
  ['--limit', '7', '--json'],
  ['--limit', '1'],
  ['--limit=3', '--limit', '5', '--json'],
  ...QUEUES.flatMap((q) => [
    ['--queue', q],
    ['--queue', q, '--json'],
  ]),
  ...RECORD_QUEUES.map((q) => ['--queue', q, '--json']),
  ['--queue', 'contradictions'],
  ['--queue', 'review', '--all'],
  ['--queue', 'due', '--limit', '10', '--json'],
  ...['verified', 'inferred', 'quarantined', 'archived'].flatMap((t) => [
    ['--tier', t],
    ['--tier', t, '--json'],
  ]),
  ['--tier', 'archived', '--limit', '2'],
  ['--queue', 'review', '--tier', 'verified', '--json'],
  ['--q', 'release'],
  ['--q', 'release', '--json'],
  ['--q', 'Quoted', '--json'],
  ['--q', 'nothing-matches-this-zzz'],
  ['--q', 'nothing-matches-this-zzz', '--json'],
  ['--tier', 'verified', '--q', 'deploy', '--json'],
  ['--layout', 'trust-root'],
  ['--layout', 'trust-root', '--json'],
  ['--layout', 'trust-root', '--limit', '3'],
  ['--layout', 'trust-root', '--limit', '3', '--json'],
  ['--layout', 'claude-code'],
  ['--layout', 'claude-code', '--json'],
  ['--layout', 'claude-code', '--queue', 'backfill', '--json'],
  ['--layout', 'test-layout'],
  ['--layout', 'test-layout', '--json'],
  ['--layout', 'test-layout-ro', '--json'],
  ['--tier', 'verified', '--limit', '3'],
];

describe('list prints what it printed before', () => {
  it.each(COMBOS.map((c) => [c.join(' ') || '(no flags)', c]))(
    'list %s',
    async (_name, args) => {
      const now = cli(['list', ...(args as string[])]);
      const before = await legacy(args as string[]);
      expect(now.status).toBe(before.status);
      expect(now.stderr).toBe(before.stderr);
      // Byte for byte (a failure shows where the texts part).
      expect(now.stdout.length).toBe(before.stdout.length);
      expect(now.stdout).toBe(before.stdout);
    },
    60_000,
  );

  it('the fixtures reach every branch the comparisons are meant to cover', async () => {
    const all = JSON.parse((await legacy(['--json'])).stdout);
    const items = all.items as Array<Record<string, unknown>>;
    expect(items.filter((i) => i.layout === 'trust-root').length).toBeGreaterThan(2000);
    expect(all.problems.length).toBeGreaterThan(0);
    expect(items.some((i) => i.layout === 'claude-code')).toBe(true);
    expect(items.some((i) => i.layout === 'test-layout')).toBe(true);
    expect(items.some((i) => (i.flags as string[]).includes('stale'))).toBe(true);
    expect(items.some((i) => (i.flags as string[]).includes('conflict'))).toBe(true);
    expect(items.some((i) => i.secret === 1 && i.tier === 'inferred')).toBe(true);
    expect(items.some((i) => i.validate === 1 || i.validate === 2)).toBe(true);
    expect(items.some((i) => (i.actions as string[]).length === 0)).toBe(true);
    expect(new Set(items.map((i) => JSON.stringify(i.actions))).size).toBeGreaterThan(3);
  }, 60_000);
});

describe('history prints what it printed before', () => {
  const combos: string[][] = [
    [],
    ['--json'],
    ['--limit', '5'],
    ['--limit', '5', '--json'],
    ['project_twice.md'],
    ['project_twice.md', '--json'],
    ['deploy-host'],
    ['deploy-host', '--json'],
    ['no-such-memory.md'],
    ['no-such-memory.md', '--json'],
  ];
  it.each(combos.map((c) => [c.join(' ') || '(no flags)', c]))('history %s', async (_name, args) => {
    const now = cli(['history', ...(args as string[])]);
    const before = await legacy(args as string[], legacyHistoryCmd);
    expect(now.status).toBe(before.status);
    expect(now.stderr).toBe(before.stderr);
    expect(now.stdout.length).toBe(before.stdout.length);
    expect(now.stdout).toBe(before.stdout);
  });

  it('the history fixtures have events in more than one part', async () => {
    const all = JSON.parse((await legacy(['--json'], legacyHistoryCmd)).stdout);
    expect(all.events.length).toBeGreaterThan(2000);
  });
});

describe('list usage errors', () => {
  it.each([
    [['--limit', '0'], 'memtrust list: --limit must be a positive integer'],
    [['--tier', 'bogus'], 'memtrust list: --tier must be one of'],
    [['--queue', 'nope'], 'memtrust list: --queue must be one of'],
    [['--layout', 'nope'], 'memtrust list: --layout must be one of'],
  ])('%s', (args, message) => {
    const r = cli(['list', ...args]);
    expect(r.status).toBe(64);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith(message)).toBe(true);
  });
});

describe('the parts writer', () => {
  const capture = (withWrite: boolean) => {
    const text: string[] = [];
    const io: Io = { out: (l) => void text.push(`${l}\n`), err: () => undefined, isTTY: false };
    if (withWrite) io.write = (t) => void text.push(t);
    return { io, text: () => text.join('') };
  };

  it('gives JSON.stringify(value, null, 2) for any split of the items', () => {
    const items = Array.from({ length: 23 }, (_, i) => ({
      id: `x${i}`,
      nested: { a: [i, 'two', null], empty: {}, none: [] },
      s: 'quote " backslash \\ newline \n tab \t nul \u0000 lone \ud800 astral 😀',
      undef: undefined,
    }));
    const head = { total: 23, demo: true };
    const tail = { problems: [{ file: 'x', problem: '\u0000memtrust-items\u0000' }], warnings: [] };
    const want = `${JSON.stringify({ ...head, items, ...tail }, null, 2)}\n`;
    for (const sizes of [[23], [1, 22], [5, 0, 5, 13], [0, 23], Array(23).fill(1)]) {
      for (const withWrite of [true, false]) {
        const parts = new JsonItems();
        let at = 0;
        for (const n of sizes) {
          parts.add(items.slice(at, at + n));
          at += n;
        }
        const c = capture(withWrite);
        writeParts(c.io, parts.finish(head, tail));
        expect(c.text()).toBe(want);
      }
    }
    // A head that holds the mark string itself.
    const tricky = { record: { title: '\u0000memtrust-items\u0000' } };
    const parts = new JsonItems('events');
    parts.add(items.slice(0, 4));
    parts.add(items.slice(4));
    const c = capture(true);
    writeParts(c.io, parts.finish(tricky, {}));
    expect(c.text()).toBe(`${JSON.stringify({ ...tricky, events: items }, null, 2)}\n`);
    const none = capture(true);
    writeParts(none.io, new JsonItems().finish({ total: 0 }, {}));
    expect(none.text()).toBe(`${JSON.stringify({ total: 0, items: [] }, null, 2)}\n`);
  });

  it('gives the lines joined, for any part size', () => {
    const lines = Array.from({ length: 11 }, (_, i) => `line ${i} ü`);
    for (const per of [1, 3, 11, 100]) {
      const c = capture(true);
      writeLines(c.io, lines, per);
      expect(c.text()).toBe(`${lines.join('\n')}\n`);
    }
  });
});
