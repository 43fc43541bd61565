/**
 * Issue 19 item 3, against the real CLI: the numbered fault points (crash.ts) in a
 * real process. `MEMTRUST_FAULT_TRACE` counts a demote's file-system calls, then
 * the CLI is killed with SIGKILL (`MEMTRUST_CRASH_AT=#N`) right after call N for
 * a spread of N across the whole write — lock, journal, temp copy, aside, link,
 * commit, audit — and the next CLI run recovers. This checks that the in-process
 * kill of faults-*.test.ts leaves the disk as a real kill does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  journalFiles,
  memoryFile,
  placements,
  pool,
  put,
  readAudit,
  runCliAsync,
  sandbox,
  sha,
  tmpFiles,
  type CliRun,
  type Sandbox,
} from './test-support';

const FILE = memoryFile(
  [
    ['name', 'Deploy order'],
    ['description', 'staging first'],
    ['type', 'feedback'],
    ['trust-level', 'inferred'],
    ['created-at', '2026-10-01T00:00:00Z'],
  ],
  '\nDeploys go through the staging cluster first.\n\n**Why:** a bad migration once.\n',
);
const OTHER = memoryFile(
  [
    ['name', 'Role'],
    ['description', 'what I do'],
    ['type', 'user'],
    ['trust-level', 'verified'],
    ['created-at', '2026-09-01T00:00:00Z'],
  ],
  '\nPlatform engineer, owns the CI runners.\n',
);
const NAME = 'feedback_deploy_order.md';
const SAMPLES = 10;

interface Run {
  n: number;
  label: string;
  sb: Sandbox;
  crash?: CliRun;
  rec?: CliRun;
}

let points: string[] = [];
let after: Buffer;
const runs: Run[] = [];

function root(): Sandbox {
  const sb = sandbox('memtrust-clifault-');
  put(sb.root, `memories/${NAME}`, FILE);
  put(sb.root, 'memories/user_role.md', OTHER);
  return sb;
}

beforeAll(async () => {
  // Count the points of one uninterrupted demote (after a first command has built the index).
  const ref = root();
  const trace = path.join(ref.tmp, 'trace');
  await runCliAsync(['list', '--json'], ref.env);
  const done = await runCliAsync(['demote', NAME, '--reason', 'wrong', '--op', 'op-cli'], ref.env, {
    MEMTRUST_FAULT_TRACE: trace,
  });
  expect(done.status, done.stderr).toBe(0);
  points = fs.readFileSync(trace, 'utf8').split('\n').filter(Boolean);
  after = fs.readFileSync(path.join(ref.root, 'quarantine', NAME));
  fs.rmSync(ref.tmp, { recursive: true, force: true });
  const picks = [
    ...new Set(Array.from({ length: SAMPLES }, (_, i) => 1 + Math.round((i * (points.length - 1)) / (SAMPLES - 1)))),
  ];
  for (const n of picks) runs.push({ n, label: points[n - 1]!, sb: root() });
  await pool(runs, 2, async (r) => {
    await runCliAsync(['list', '--json'], r.sb.env);
    r.crash = await runCliAsync(['demote', NAME, '--reason', 'wrong', '--op', 'op-cli'], r.sb.env, {
      MEMTRUST_CRASH_AT: `#${r.n}`,
    });
    r.rec = await runCliAsync(['list', '--json'], r.sb.env);
  });
}, 240_000);

afterAll(() => {
  console.log(
    `fault injection (real CLI): demote has ${points.length} fault points; SIGKILL at ${runs.map((r) => r.n).join(', ')}`,
  );
  for (const r of runs) fs.rmSync(r.sb.tmp, { recursive: true, force: true });
}, 60_000);

describe('the real CLI killed after its N-th file-system call, then recovered by the next run', () => {
  it('counts the points of a demote and samples them across the whole write', () => {
    expect(points.length).toBeGreaterThan(30);
    expect(points.some((p) => p.startsWith('rename memories/'))).toBe(true);
    expect(runs.length).toBe(SAMPLES);
  });

  it.each(Array.from({ length: SAMPLES }, (_, i) => [i]))(
    'sample %i: the memory once, before or after, with its event iff after; nothing left',
    (i) => {
      const r = runs[i]!;
      const ctx = `kill after #${r.n} (${r.label})\n${r.rec?.stderr}`;
      expect(r.crash!.signal, ctx).toBe('SIGKILL');
      expect(r.rec!.status, ctx).toBe(0);
      const where = placements(r.sb.root);
      expect(where.get('user_role.md'), ctx).toEqual(['memories/user_role.md']);
      const at = where.get(NAME)!;
      expect(at, ctx).toHaveLength(1);
      const bytes = fs.readFileSync(path.join(r.sb.root, at[0]!));
      const events = readAudit(r.sb.root).filter((e) => e.id === 'op-cli');
      if (at[0] === `quarantine/${NAME}`) {
        expect(bytes.equals(after), ctx).toBe(true);
        expect(events, ctx).toHaveLength(1);
      } else {
        expect(at[0], ctx).toBe(`memories/${NAME}`);
        expect(bytes.equals(FILE), ctx).toBe(true);
        expect(events, ctx).toHaveLength(0);
      }
      expect(tmpFiles(r.sb.root), ctx).toEqual([]);
      expect(journalFiles(r.sb.root), ctx).toEqual([]);
      // A run killed before its first mkdir leaves no .memtrust folder at all.
      const meta = path.join(r.sb.root, '.memtrust');
      expect(fs.existsSync(meta) ? fs.readdirSync(meta).filter((n) => n.startsWith('lock')) : [], ctx).toEqual([]);
      const listed = (JSON.parse(r.rec!.stdout) as { items: { file: string; sha256: string }[] }).items
        .map((x) => [x.file, x.sha256])
        .sort();
      expect(listed, ctx).toEqual(
        [
          [at[0], sha(bytes)],
          ['memories/user_role.md', sha(OTHER)],
        ].sort(),
      );
    },
  );
});

describe('the real CLI with an editor saving the memory at the switch', () => {
  it.each([
    ['just before the source is moved aside', -1],
    ['just after it', 0],
  ])(
    'a save %s: demote refused with exit 2 naming the file, the save kept',
    async (_when, offset) => {
      const n = points.findIndex((p) => p.startsWith('rename memories/')) + 1 + (offset as number);
      const sb = root();
      try {
        const saved = Buffer.concat([FILE, Buffer.from('\nSaved by an editor during the demote.\n')]);
        const from = path.join(sb.tmp, 'saved.md');
        fs.writeFileSync(from, saved);
        await runCliAsync(['list', '--json'], sb.env);
        const src = path.join(sb.root, 'memories', NAME);
        const r = await runCliAsync(['demote', NAME, '--reason', 'wrong', '--op', 'op-cli'], sb.env, {
          MEMTRUST_FAULT_SAVE: `#${n}:${from}:${src}`,
        });
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr).toMatch(new RegExp(`${NAME}.*changed on disk`));
        expect(fs.readFileSync(src).equals(saved)).toBe(true);
        expect(placements(sb.root).get(NAME)).toEqual([`memories/${NAME}`]);
        expect(readAudit(sb.root)).toEqual([]);
        expect(tmpFiles(sb.root)).toEqual([]);
        expect(journalFiles(sb.root)).toEqual([]);
      } finally {
        fs.rmSync(sb.tmp, { recursive: true, force: true });
      }
    },
    30_000,
  );
});
