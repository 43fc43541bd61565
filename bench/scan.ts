/**
 * Index and transition performance at scale, each beside a floor measured in the
 * same run.
 *
 *   npx tsx bench/scan.ts [--n 100000 | --n 10000,100000] [--reps-full 3] [--reps 5] [--transitions 200] [--only abcd]
 *
 * --n takes one size or several (comma-separated): each size runs in turn and prints its
 * own table; with two or more, a last table gives the growth of every figure and of its
 * floor from the first size to the last (docs/performance.md).
 *
 * A trust-model root of N memories (generateCorpus, seed 1, now 2026-11-22T12:00Z) is
 * written once and cached in bench/.out/scan-n<N>/root (regenerated when lib/demo
 * changes). Then, in one process:
 *   (a) full scan into a fresh database — loadConfig (MEMTRUST_ROOT/DB/NOW) +
 *       createContext + scan with the CLI's worker threads (defaultWorkers(): MEMTRUST_WORKERS
 *       or the cores − 1; docs/performance.md, "Both cores") — vs the floor: readdir +
 *       readFileSync + sha256 of every file;
 *   (b) no-change rescan vs the floor: readdir + lstat of every file;
 *   (d) `node lib/cli/memtrust.cjs list --queue review --json` wall (the index exists),
 *       vs `memtrust --help` (the CLI's start-up); its diagnostics give the list stage
 *       alone in this process (runList: everything after the rescan), the SELECT of the
 *       columns it prints, and a no-change rescan — the parts of the wall. Before/after
 *       per flag combination, side by side with an earlier commit: bench/list.ts;
 *   (c) transitions via transition() in-process: demote (with a reason) of a clean
 *       verified memory, then restore of it, alternating; p50/p99 per transition
 *       including every fsync, vs the same durable file steps done bare.
 * (c) runs last because it changes the cached root: each demoted file is restored,
 * so the root stays reusable (its audit log grows by one line per transition).
 * Exit 0 always; PASS/MISS per target.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateCorpus, writeCorpus, DEFAULT_MACHINE, DEFAULT_OWNER_EMAIL } from '../lib/demo';
import { loadConfig } from '../lib/core/config';
import { createContext, type ServiceContext } from '../lib/service/context';
import { scan } from '../lib/service/index/scan-service';
import { defaultWorkers } from '../lib/service/index/inspect-pool';
import { transition, type TransitionResult } from '../lib/service/write/transition';
import { markConflicts } from '../lib/service/index/index-rows';
import { mirrorAudit } from '../lib/service/audit/audit-mirror';
import { resolveMemory } from '../lib/service/index/resolve';
import { inspect } from '../lib/service/index/inspect';
import { closeDb } from '../db/client';
import { clockCutoffs } from '../db/queries/cutoffs';
import { listMemories, listRows } from '../db/queries/memories';
import { runList } from '../lib/cli/commands/list-cmd';
import type { Io } from '../lib/cli/io';
import {
  BENCH_NOW,
  BENCH_SEED,
  PROJECT_DIR,
  cliEnv,
  flags,
  fmtMs,
  fmtRate,
  intFlag,
  machineLine,
  median,
  note,
  percentile,
  readHashPass,
  runCli,
  scanRoot,
  table,
  timeMs,
  trustRootFiles,
  verdict,
} from './common';

const f = flags(process.argv.slice(2), { n: '100000', 'reps-full': '3', reps: '5', transitions: '200', only: 'abcd' });
const SIZES = f.n!.split(',').map((x) => Number(x.replace(/_/g, '')));
if (SIZES.some((x) => !Number.isInteger(x) || x < 1)) {
  process.stderr.write(`--n must be one or more positive integers, comma-separated: ${f.n}\n`);
  process.exit(64);
}
let N = SIZES[0]!;
const REPS_FULL = intFlag(f, 'reps-full');
const REPS = intFlag(f, 'reps');
const TRANSITIONS = intFlag(f, 'transitions');
const ONLY = new Set(f.only!.split(''));

const TARGET = { fullRatio: 3, rescanRatio: 2, rescanMs: 1500, transitionP99: 50, listMs: 500 };

let cacheDir = '';
let root = '';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-scan-'));
let baseEnv: Record<string, string> = {};

/** The cached root of size `n`, and the environment every measurement of it runs with. */
function selectSize(n: number): void {
  N = n;
  ({ cacheDir, root, env: baseEnv } = scanRoot(N, tmp));
  Object.assign(process.env, baseEnv);
}

/** The generator's own sources: a change to them invalidates the cached root. */
function generatorStamp(): string {
  const dir = path.join(PROJECT_DIR, 'lib', 'demo');
  const h = crypto.createHash('sha256');
  for (const name of fs
    .readdirSync(dir)
    .filter((x) => x.endsWith('.ts') && !x.endsWith('.test.ts'))
    .sort()) {
    h.update(name).update(fs.readFileSync(path.join(dir, name)));
  }
  return JSON.stringify({
    n: N,
    seed: BENCH_SEED,
    now: BENCH_NOW,
    machine: DEFAULT_MACHINE,
    demo: h.digest('hex').slice(0, 16),
  });
}

function ensureRoot(): void {
  const stampFile = path.join(cacheDir, 'stamp.json');
  const stamp = generatorStamp();
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) {
    note(`using cached root ${root}`);
    return;
  }
  note(`generating ${N} memories into ${root} (cached for later runs)…`);
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const t = performance.now();
  const corpus = generateCorpus({
    n: N,
    seed: BENCH_SEED,
    now: new Date(BENCH_NOW),
    machine: DEFAULT_MACHINE,
    ownerEmail: DEFAULT_OWNER_EMAIL,
  });
  const stats = writeCorpus(root, corpus);
  fs.writeFileSync(stampFile, stamp);
  note(
    `  ${stats.files} files, ${(stats.bytes / 2 ** 20).toFixed(1)} MiB, ${stats.auditEvents} audit events, in ${fmtMs(performance.now() - t)}`,
  );
}

function floorReadHash(): number {
  return readHashPass(root);
}

function floorStat(): number {
  return timeMs(() => {
    for (const file of trustRootFiles(root)) fs.lstatSync(file);
  }).ms;
}

function contextFor(db: string): ServiceContext {
  const env = { ...process.env, MEMTRUST_DB: db };
  return createContext(loadConfig({ env }), env);
}

interface Row {
  /** a, b, c50, c99, d: the same figure at every size (the growth table pairs them). */
  id: string;
  ms: number;
  floorMs: number;
  measurement: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  result: string;
}
let rows: Row[] = [];
let diag: string[] = [];

let indexDb = '';
let ctx: ServiceContext | null = null;

function fullScan(): void {
  floorReadHash(); // warm the page cache: both sides read from memory
  const floors = [floorReadHash(), floorReadHash(), floorReadHash()];
  const floor = Math.min(...floors);
  note(`read+sha256 floor: ${floors.map(fmtMs).join(', ')}`);
  const walls: number[] = [];
  let files = 0;
  for (let rep = 0; rep < REPS_FULL; rep++) {
    const db = path.join(tmp, `full-${rep}.sqlite`);
    const t = performance.now();
    const c = contextFor(db);
    const stats = scan(c, { workers: defaultWorkers() });
    const ms = performance.now() - t;
    walls.push(ms);
    files = stats.files;
    const mem = process.memoryUsage();
    note(
      `full scan rep ${rep + 1}: ${fmtMs(ms)} (${stats.files} files, ${stats.read} read (${stats.workers ?? 0} worker thread(s) beside the main thread), ${stats.events} audit events, ${stats.errors.length} errors; heap ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB, rss ${(mem.rss / 2 ** 20).toFixed(0)} MiB, load ${os.loadavg()[0]!.toFixed(1)})`,
    );
    if (rep < REPS_FULL - 1) {
      closeDb(db);
      for (const ext of ['', '-wal', '-shm']) fs.rmSync(db + ext, { force: true });
    } else {
      indexDb = db;
      ctx = c;
    }
  }
  const full = median(walls);
  rows.push({
    id: 'a',
    ms: full,
    floorMs: floor,
    measurement: `(a) full scan, fresh db (${files} files)`,
    value: fmtMs(full),
    baseline: `${fmtMs(floor)} read+sha256`,
    ratio: `${(full / floor).toFixed(1)}×`,
    target: `≤ ${TARGET.fullRatio}×`,
    result: verdict(full / floor <= TARGET.fullRatio),
  });
  diag.push(
    `(a) full scan walls: ${walls.map(fmtMs).join(', ')} → ${fmtRate(files, full)}; floor ${fmtRate(files, floor)} (best of ${floors.map(fmtMs).join(', ')})`,
  );
  diag.push(
    `    index size: ${(fs.statSync(indexDb).size / 2 ** 20).toFixed(0)} MiB (+ WAL ${(fs.existsSync(`${indexDb}-wal`) ? fs.statSync(`${indexDb}-wal`).size / 2 ** 20 : 0).toFixed(0)} MiB)`,
  );
}

function ensureIndex(): void {
  if (ctx) return;
  indexDb = path.join(tmp, 'index.sqlite');
  const t = performance.now();
  ctx = contextFor(indexDb);
  scan(ctx);
  note(`built the index for (b)–(d) in ${fmtMs(performance.now() - t)}`);
}

function rescan(): void {
  ensureIndex();
  const c = ctx!;
  floorStat();
  const floors = [floorStat(), floorStat(), floorStat()];
  const floor = Math.min(...floors);
  const walls: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    const { ms, value } = timeMs(() => scan(c));
    if (value.read !== 0 || value.removed !== 0)
      note(`!! rescan read ${value.read}, removed ${value.removed}: not a no-change rescan`);
    walls.push(ms);
  }
  const ms = median(walls);
  rows.push({
    id: 'b',
    ms,
    floorMs: floor,
    measurement: '(b) no-change rescan',
    value: fmtMs(ms),
    baseline: `${fmtMs(floor)} readdir+lstat`,
    ratio: `${(ms / floor).toFixed(1)}×`,
    target: `≤ ${TARGET.rescanRatio}× and < ${fmtMs(TARGET.rescanMs)}`,
    result: verdict(ms / floor <= TARGET.rescanRatio && ms < TARGET.rescanMs),
  });
  diag.push(`(b) rescan walls: ${walls.map(fmtMs).join(', ')}; stat floor best of ${floors.map(fmtMs).join(', ')}`);
  // Where a no-change rescan spends its time: the parts it is made of, each alone.
  const sqlite = c.handle.sqlite;
  const src = c.sources[0]!;
  const parts = {
    'adapter.list (readdir + lstat)': median([0, 1, 2].map(() => timeMs(() => src.adapter.files.list(src.root)).ms)),
    'SELECT existing rows into a Map': median(
      [0, 1, 2].map(
        () =>
          timeMs(() => {
            const m = new Map<string, unknown>();
            for (const r of sqlite
              .prepare('SELECT rel_path AS p, size, mtime_ms AS m FROM entries WHERE source = ?')
              .iterate(src.id) as Iterable<{ p: string }>)
              m.set(r.p, r);
          }).ms,
      ),
    ),
    'DELETE … WHERE source NOT IN (configured)': median(
      [0, 1, 2].map(
        () =>
          timeMs(() => {
            sqlite.transaction(() => {
              sqlite
                .prepare('DELETE FROM findings WHERE key IN (SELECT key FROM entries WHERE source NOT IN (?))')
                .run(src.id);
              sqlite.prepare('DELETE FROM entries WHERE source NOT IN (?)').run(src.id);
            })();
          }).ms,
      ),
    ),
    'mirrorAudit (nothing new)': median([0, 1, 2].map(() => timeMs(() => mirrorAudit(sqlite, src.id, src.root)).ms)),
  };
  diag.push(
    `    rescan parts: ${Object.entries(parts)
      .map(([k, v]) => `${k} ${fmtMs(v)}`)
      .join('; ')}`,
  );
}

function listCli(): void {
  ensureIndex();
  const env = cliEnv({ ...baseEnv, MEMTRUST_DB: indexDb });
  runCli(['--help'], env, tmp); // the CLI's bundle cache warm
  const walls: number[] = [];
  const helps: number[] = [];
  let items = '';
  for (let rep = 0; rep < REPS; rep++) {
    const r = runCli(['list', '--queue', 'review', '--json'], env, tmp);
    if (r.status !== 0) note(`!! list exited ${r.status}: ${r.stderr.slice(0, 300)}`);
    walls.push(r.ms);
    items = `${(r.stdoutBytes / 2 ** 20).toFixed(1)} MiB of JSON`;
    helps.push(runCli(['--help'], env, tmp).ms);
  }
  const ms = median(walls);
  const help = median(helps);
  let total = 0;
  try {
    total = (
      ctx!.handle.sqlite
        .prepare(
          `SELECT count(*) AS n FROM entries WHERE (tier = 'inferred' AND created_ms <= ?) OR (tier = 'verified' AND (last_verified_ms IS NULL OR last_verified_ms < ?))`,
        )
        .get(...reviewCutoffs()) as { n: number }
    ).n;
  } catch {
    // count is decoration only
  }
  rows.push({
    id: 'd',
    ms,
    floorMs: help,
    measurement: `(d) CLI list --queue review --json (${total} items)`,
    value: fmtMs(ms),
    baseline: `${fmtMs(help)} CLI start-up`,
    ratio: `${(ms / help).toFixed(1)}×`,
    target: `< ${TARGET.listMs} ms`,
    result: verdict(ms < TARGET.listMs),
  });
  diag.push(
    `(d) list walls: ${walls.map(fmtMs).join(', ')} (${items}); memtrust --help walls: ${helps.map(fmtMs).join(', ')}`,
  );
  // The parts of a list run, in this process at this index size.
  const c = ctx!;
  const now = new Date(BENCH_NOW);
  // A different limit each time (all above the row count): listMemories memoises per query until the db changes.
  const q = median(
    [0, 1, 2].map(
      (i) =>
        timeMs(() => listMemories(c.handle.sqlite, { queue: 'review', sort: 'file', limit: 1_000_000 - i }, now)).ms,
    ),
  );
  // Everything `list` does after the rescan, alone (lib/cli/commands/list-cmd.ts), and the SELECT of what it prints.
  const sink: Io = { out: () => undefined, write: () => undefined, err: () => undefined, isTTY: false };
  const stage = median(
    [0, 1, 2].map(() => timeMs(() => runList(c, { queue: 'review', limit: 1_000_000, json: true }, sink)).ms),
  );
  const select = median(
    [0, 1, 2].map(
      () =>
        timeMs(() =>
          listRows(c.handle.sqlite, { queue: 'review', sort: 'file', limit: 1_000_000 }, now, [
            'key',
            'id',
            'relPath',
            'sha256',
          ]),
        ).ms,
    ),
  );
  const rescanAlone = median([0, 1, 2].map(() => timeMs(() => scan(c)).ms));
  diag.push(
    `    list parts in-process: the list stage alone (runList: query, actions, JSON, no rescan) ${fmtMs(stage)}, its SELECT of the printed columns (listRows) ${fmtMs(select)}; a no-change rescan ${fmtMs(rescanAlone)}; CLI start-up ${fmtMs(help)}; the dashboard's query of the same rows (listMemories, 29 columns as objects) ${fmtMs(q)}`,
  );
}

function reviewCutoffs(): [number, number] {
  const c = clockCutoffs(new Date(BENCH_NOW));
  return [c.observedBefore, c.staleBefore];
}

/** The durable steps of one moving transition, done bare in a scratch dir on the same disk. */
function fsyncFloorOnce(dir: string, i: number): number {
  const a = path.join(dir, 'a');
  const b = path.join(dir, 'b');
  const j = path.join(dir, 'journal');
  const body = Buffer.alloc(400, 0x61);
  const write = (file: string) => {
    const fd = fs.openSync(file, 'wx');
    fs.writeSync(fd, body);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  };
  const syncDir = (d: string) => {
    const fd = fs.openSync(d, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  };
  const t = performance.now();
  write(path.join(j, `intent-${i}.json`)); // journal intent + dir
  syncDir(j);
  write(path.join(b, `.m${i}.tmp`)); // temp beside the destination
  fs.linkSync(path.join(b, `.m${i}.tmp`), path.join(b, `m${i}.md`));
  syncDir(b);
  fs.unlinkSync(path.join(b, `.m${i}.tmp`));
  fs.unlinkSync(path.join(a, `m${i}.md`));
  syncDir(a);
  const fd = fs.openSync(path.join(dir, 'audit.jsonl'), 'a'); // audit append
  fs.writeSync(fd, `${body.subarray(0, 300).toString()}\n`);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.unlinkSync(path.join(j, `intent-${i}.json`)); // journal cleared
  syncDir(j);
  return performance.now() - t;
}

function fsyncFloor(count: number): number[] {
  const dir = fs.mkdtempSync(path.join(cacheDir, 'fsync-floor-'));
  try {
    for (const d of ['a', 'b', 'journal']) fs.mkdirSync(path.join(dir, d));
    for (let i = 0; i < count; i++) fs.writeFileSync(path.join(dir, 'a', `m${i}.md`), 'x');
    return Array.from({ length: count }, (_, i) => fsyncFloorOnce(dir, i));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function transitions(): void {
  ensureIndex();
  const c = ctx!;
  const pairs = Math.ceil(TRANSITIONS / 2);
  const src = c.sources[0]!;
  const picks = (
    c.handle.sqlite
      .prepare(
        `SELECT filename FROM entries WHERE source = ? AND location = 'memories' AND tier = 'verified' AND validate_exit = 0
       AND secret_exit = 0 AND injection_exit = 0 AND conflict = 0 AND error IS NULL ORDER BY key LIMIT ?`,
      )
      .all(src.id, pairs) as { filename: string }[]
  ).map((r) => r.filename);
  if (picks.length < pairs) note(`!! only ${picks.length} clean verified memories to demote`);
  const times: Record<'demote' | 'restore', number[]> = { demote: [], restore: [] };
  const failures: string[] = [];
  const check = (r: TransitionResult, what: string) => {
    if (!r.ok || r.noop) failures.push(`${what}: ${r.ok ? 'no-op' : r.message}`);
  };
  for (const file of picks) {
    const d = timeMs(() =>
      transition(c, { ref: file, action: 'demote', reason: 'benchmark: demote and restore', actor: 'user:cli' }),
    );
    check(d.value, `demote ${file}`);
    times.demote.push(d.ms);
    const r = timeMs(() => transition(c, { ref: file, action: 'restore', actor: 'user:cli' }));
    check(r.value, `restore ${file}`);
    times.restore.push(r.ms);
  }
  const all = [...times.demote, ...times.restore];
  const floor = fsyncFloor(all.length);
  const p50 = percentile(all, 50);
  const p99 = percentile(all, 99);
  rows.push({
    id: 'c50',
    ms: p50,
    floorMs: percentile(floor, 50),
    measurement: `(c) transition p50 (${all.length} demote/restore)`,
    value: fmtMs(p50),
    baseline: `${fmtMs(percentile(floor, 50))} bare fs steps`,
    ratio: `${(p50 / percentile(floor, 50)).toFixed(1)}×`,
    target: '—',
    result: '',
  });
  rows.push({
    id: 'c99',
    ms: p99,
    floorMs: percentile(floor, 99),
    measurement: '(c) transition p99',
    value: fmtMs(p99),
    baseline: `${fmtMs(percentile(floor, 99))} bare fs steps`,
    ratio: `${(p99 / percentile(floor, 99)).toFixed(1)}×`,
    target: `< ${TARGET.transitionP99} ms`,
    result: verdict(p99 < TARGET.transitionP99 && failures.length === 0),
  });
  diag.push(
    `(c) demote p50 ${fmtMs(percentile(times.demote, 50))} p99 ${fmtMs(percentile(times.demote, 99))}; restore p50 ${fmtMs(percentile(times.restore, 50))} p99 ${fmtMs(percentile(times.restore, 99))}; max ${fmtMs(Math.max(...all))}; failures ${failures.length}${failures.length ? `: ${failures.slice(0, 3).join(' | ')}` : ''}`,
  );
  diag.push(
    `    bare fs steps (journal+fsync, temp+fsync, link, 3 dir fsyncs, 2 unlinks, audit append+fsync): p50 ${fmtMs(percentile(floor, 50))} p99 ${fmtMs(percentile(floor, 99))}`,
  );
  // Parts of one transition measured alone at this index size.
  const sqlite = c.handle.sqlite;
  const sample = picks[0] ?? '';
  const bytes = sample ? fs.readFileSync(path.join(src.root, 'memories', sample)) : Buffer.from('');
  const parts = {
    'markConflicts (runs inside commitToIndex)': median(
      [0, 1, 2, 3, 4].map(() => timeMs(() => sqlite.transaction(() => markConflicts(sqlite, src.id))()).ms),
    ),
    'git ls-files spawn (recordGitRename, outside a repo)': median(
      [0, 1, 2, 3, 4].map(
        () =>
          timeMs(() =>
            spawnSync('git', ['-C', src.root, 'ls-files', '--error-unmatch', '--', 'memories/x.md'], {
              stdio: 'ignore',
              env: process.env,
            }),
          ).ms,
      ),
    ),
    'resolveMemory (readdir archive + lstats)': median(
      [0, 1, 2, 3, 4].map(() => timeMs(() => resolveMemory(c.sources, sample)).ms),
    ),
    'mirrorAudit (nothing new)': median(
      [0, 1, 2, 3, 4].map(() => timeMs(() => mirrorAudit(sqlite, src.id, src.root)).ms),
    ),
    'inspect (validators, one file)': median(
      [0, 1, 2, 3, 4].map(
        () => timeMs(() => inspect(bytes, { filename: sample, location: 'memories', mtimeMs: 0 }, c.owner())).ms,
      ),
    ),
  };
  diag.push(
    `    transition parts alone: ${Object.entries(parts)
      .map(([k, v]) => `${k} ${fmtMs(v)}`)
      .join('; ')}`,
  );
}

function runSize(n: number): { n: number; rows: Row[]; text: string } {
  selectSize(n);
  rows = [];
  diag = [];
  ctx = null;
  ensureRoot();
  if (ONLY.has('a')) fullScan();
  if (ONLY.has('b')) rescan();
  if (ONLY.has('d')) listCli();
  if (ONLY.has('c')) transitions();
  const out: string[] = [];
  out.push(`root: ${N} memories (generateCorpus seed ${BENCH_SEED}, trust-model layout) in ${root}`);
  out.push(
    `values are medians (full scan: ${REPS_FULL} runs, rescan and list: ${REPS} runs); floors are the best of 3; page cache warm`,
  );
  out.push('');
  out.push(
    table([
      ['measurement', 'value', 'baseline', 'ratio', 'target', 'result'],
      ...rows.map((r) => [r.measurement, r.value, r.baseline, r.ratio, r.target, r.result]),
    ]),
  );
  out.push('');
  out.push('diagnostics:');
  for (const d of diag) out.push(`  ${d}`);
  if (indexDb) closeDb(indexDb);
  indexDb = '';
  return { n, rows, text: out.join('\n') };
}

/** Each figure and its floor from the first size to the last: how they grow with N. */
function growth(first: { n: number; rows: Row[] }, last: { n: number; rows: Row[] }): string {
  const lines: string[][] = [
    [
      'measurement',
      `at ${first.n.toLocaleString('en-US')}`,
      `at ${last.n.toLocaleString('en-US')}`,
      'growth',
      'floor growth',
      `ratio at ${first.n.toLocaleString('en-US')}`,
      `ratio at ${last.n.toLocaleString('en-US')}`,
    ],
  ];
  for (const a of first.rows) {
    const b = last.rows.find((r) => r.id === a.id);
    if (!b) continue;
    lines.push([
      a.measurement.replace(/ \(.*\)$/, ''),
      fmtMs(a.ms),
      fmtMs(b.ms),
      `${(b.ms / a.ms).toFixed(1)}×`,
      `${(b.floorMs / a.floorMs).toFixed(1)}×`,
      a.ratio,
      b.ratio,
    ]);
  }
  return [
    `growth from ${first.n.toLocaleString('en-US')} to ${last.n.toLocaleString('en-US')} memories (${(last.n / first.n).toFixed(0)}× the files); a figure that grows like its floor scales linearly`,
    '',
    table(lines),
  ].join('\n');
}

function main(): void {
  const runs = SIZES.map(runSize);
  const out: string[] = [];
  out.push(`memtrust scan/index benchmark — ${new Date().toISOString()}`);
  out.push(`machine: ${machineLine()}`);
  for (const r of runs) out.push('', r.text);
  if (runs.length > 1) out.push('', growth(runs[0]!, runs.at(-1)!));
  process.stdout.write(`${out.join('\n')}\n`);
}

try {
  main();
} catch (e) {
  process.stdout.write(`benchmark failed: ${e instanceof Error ? e.stack : String(e)}\n`);
} finally {
  if (indexDb) closeDb(indexDb);
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exitCode = 0;
}
