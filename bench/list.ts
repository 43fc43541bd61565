/**
 * `memtrust list` before and after, side by side in one run, per flag combination, each
 * beside its floors (docs/performance.md, "memtrust list").
 *
 *   npx tsx bench/list.ts [--n 100000] [--baseline be98cdf] [--reps 5] [--combos all|short]
 *   npx tsx bench/list.ts --root DIR --db FILE [--baseline-db FILE] …     (an existing root and its indexes)
 *
 * The root is bench/scan.ts's cached one (bench/.out/scan-n<N>/root; run
 * `npx tsx bench/scan.ts --n <N> --only b` once to make it) with its own index in
 * bench/.out/list-n<N>/index.sqlite, built on the first run; the baseline CLI keeps its own
 * beside it (index-<commit>.sqlite, built by its `scan` first). The baseline is the CLI of an
 * earlier commit: its lib/ and db/ extracted with `git archive` into
 * bench/.out/baseline-list-<commit>/ and bundled there with esbuild, as the launcher does.
 *
 * Per combination, alternating baseline and today's CLI (`node … list FLAGS`, then
 * `history` and `history --json`; stdout to a file): the median wall and CPU time of each, whether their stdout bytes are the same, and in this
 * process today's list stage alone (`runList`: everything after the rescan) beside the
 * SELECT of the rows it prints (`listRows`). Floors of the whole command: `memtrust --help`
 * (start-up) and a no-change rescan in this process. Exit 0 always.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../lib/core/config';
import { createContext, type ServiceContext } from '../lib/service/context';
import { scan } from '../lib/service/index/scan-service';
import { runList, type ListOptions } from '../lib/cli/commands/list-cmd';
import type { Io } from '../lib/cli/io';
import { listMemories, listRows, type Queue } from '../db/queries/memories';
import { closeDb } from '../db/client';
import { DEFAULT_MACHINE, DEFAULT_OWNER_EMAIL } from '../lib/demo';
import { BENCH_NOW, CLI, PROJECT_DIR, cliEnv, flags, fmtMs, intFlag, machineLine, median, table } from './common';
import { checkCommit } from './baseline';

const f = flags(process.argv.slice(2), {
  n: '100000',
  baseline: 'be98cdf',
  reps: '5',
  combos: 'all',
  root: '',
  db: '',
  'baseline-db': '',
});
const N = intFlag(f, 'n');
const REPS = intFlag(f, 'reps');
const COMMIT = checkCommit(f.baseline!);
const OUT = path.join(PROJECT_DIR, 'bench', '.out');
const root = f.root || path.join(OUT, `scan-n${N}`, 'root');
const db = f.db || path.join(OUT, `list-n${N}`, 'index.sqlite');
// The baseline's own index: a commit before a schema change (migration 0016) cannot read today's.
const baselineDb = f['baseline-db'] || path.join(path.dirname(db), `index-${COMMIT}.sqlite`);
const scratch = fs.mkdtempSync(path.join(OUT, 'list-tmp-'));

const COMBOS: string[][] = [
  ['--queue', 'review', '--json'],
  ['--json'],
  [],
  ['--queue', 'review'],
  ['--tier', 'verified', '--json'],
  ['--queue', 'passive'],
  ['--queue', 'archive-candidates', '--json'],
  ['--q', 'pipeline', '--json'],
  ['--layout', 'trust-root', '--limit', '3'],
  ['--all'],
];
const combos = f.combos === 'short' ? COMBOS.slice(0, 3) : COMBOS;
/** The other listing of the CLI: audit events, newest first (every event of the root at 100,000 memories). */
const HISTORY: string[][] = f.combos === 'short' ? [] : [['history'], ['history', '--json']];

/** The baseline commit's CLI, bundled once: a .cjs that runs `main(argv)` like the launcher. */
function baselineCli(): string {
  const dir = baselineDir;
  const runner = path.join(dir, 'run.cjs');
  if (fs.existsSync(runner)) return runner;
  fs.mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['archive', COMMIT, 'lib', 'db'], { cwd: PROJECT_DIR, maxBuffer: 256 * 2 ** 20 });
  // Sources only: test files under bench/.out would be picked up by vitest's bench/** pattern.
  execFileSync('tar', ['-x', '-C', dir, '--exclude=*.test.ts', '--exclude=*.spec.ts', '--exclude=*.test.tsx'], {
    input: tar,
  });
  buildSync({
    entryPoints: [path.join(dir, 'lib', 'cli', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: path.join(dir, 'cli.cjs'),
    external: ['better-sqlite3', 'next', 'server-only'],
    nodePaths: [path.join(PROJECT_DIR, 'node_modules')],
    logLevel: 'error',
  });
  fs.writeFileSync(
    runner,
    `process.stdout.on('error', (e) => { if (e && e.code === 'EPIPE') process.exit(0); throw e; });
require('./cli.cjs').main(process.argv.slice(2)).then((c) => { process.exitCode = c; });
`,
  );
  return runner;
}

// The generator's machine and owner (bench/scan.ts), unless set: an index built for another
// owner would be re-checked in full by the first scan (docs/validators.md, rules signature).
const env = cliEnv({
  MEMTRUST_ROOT: root,
  MEMTRUST_DB: db,
  MEMTRUST_NOW: BENCH_NOW,
  MEMTRUST_MACHINE: process.env.MEMTRUST_MACHINE || DEFAULT_MACHINE,
  OWNER_EMAILS: process.env.OWNER_EMAILS || DEFAULT_OWNER_EMAIL,
  XDG_CONFIG_HOME: path.join(scratch, 'config'),
  XDG_DATA_HOME: path.join(scratch, 'data'),
  GIT_CEILING_DIRECTORIES: path.dirname(root),
});
/** The baseline's CLI and sources (git archive of its lib/ and db/). */
const baselineDir = path.join(OUT, `baseline-list-${COMMIT}`);
// Its own project dir too: the migrations it opens its index with are its own (db/migrations).
const baselineEnv = { ...env, MEMTRUST_DB: baselineDb, MEMTRUST_PROJECT_DIR: baselineDir };

/** GNU time, when present: the CPU time of each CLI run (wall time moves with the machine's load). */
const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** One CLI run: wall time, CPU time (user + sys) and the sha256 of its stdout (written to a file, not piped here). */
function run(
  entry: string,
  args: string[],
  runEnv: NodeJS.ProcessEnv = env,
): { ms: number; cpuMs: number | null; sha: string; bytes: number; status: number | null } {
  const file = path.join(scratch, 'stdout.txt');
  const cpuFile = path.join(scratch, 'cpu.txt');
  const fd = fs.openSync(file, 'w');
  const cmd = [process.execPath, entry, ...args];
  const t = performance.now();
  let status: number | null;
  try {
    status = spawnSync(TIME ?? cmd[0]!, TIME ? ['-f', '%U %S', '-o', cpuFile, ...cmd] : cmd.slice(1), {
      cwd: PROJECT_DIR,
      env: runEnv,
      stdio: ['ignore', fd, 'ignore'],
    }).status;
  } finally {
    fs.closeSync(fd);
  }
  const ms = performance.now() - t;
  const bytes = fs.readFileSync(file);
  const cpu = TIME ? fs.readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number) : null;
  return {
    ms,
    cpuMs: cpu ? (cpu[0]! + cpu[1]!) * 1000 : null,
    sha: crypto.createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    status,
  };
}

/** The flags as runList takes them (the same defaults as the command). */
function options(args: string[]): ListOptions {
  const v = (name: string) => {
    const i = args.lastIndexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const json = args.includes('--json');
  const limit = args.includes('--all') ? 1_000_000 : v('limit') ? Number(v('limit')) : json ? 1_000_000 : 200;
  return { tier: v('tier'), queue: v('queue') as Queue | undefined, layout: v('layout'), q: v('q'), limit, json };
}

/** An Io that only counts what it is given. */
function countingIo(): Io & { bytes: number } {
  const io = {
    bytes: 0,
    out: (l: string) => {
      io.bytes += l.length + 1;
    },
    write: (t: string) => {
      io.bytes += t.length;
    },
    err: () => undefined,
    isTTY: false,
  };
  return io;
}

function inProcess(ctx: ServiceContext, args: string[]): { stage: number; rows: number; dashboard: number } {
  const o = options(args);
  const now = ctx.now();
  const stage: number[] = [];
  const rows: number[] = [];
  for (let i = 0; i < REPS; i++) {
    let t = performance.now();
    runList(ctx, o, countingIo());
    stage.push(performance.now() - t);
    t = performance.now();
    listRows(
      ctx.handle.sqlite,
      { tier: o.tier as never, queue: o.queue as never, q: o.q, sort: 'file', limit: o.limit },
      now,
      o.json
        ? ['key', 'id', 'source', 'relPath', 'filename', 'location', 'tier', 'sha256']
        : ['tier', 'relPath', 'name'],
    );
    rows.push(performance.now() - t);
  }
  // The dashboard's query of the same page (29 columns as objects), for scale: a new limit each
  // time, because listMemories memoises per query.
  const dashboard = median(
    [0, 1, 2].map((i) => {
      const t = performance.now();
      listMemories(
        ctx.handle.sqlite,
        { tier: o.tier as never, queue: o.queue as never, q: o.q, sort: 'file', limit: Math.min(o.limit, 100_000) - i },
        now,
      );
      return performance.now() - t;
    }),
  );
  return { stage: median(stage), rows: median(rows), dashboard };
}

function main(): void {
  if (!fs.existsSync(root)) {
    process.stderr.write(`no root at ${root}: run \`npx tsx bench/scan.ts --n ${N} --only b\` first, or pass --root\n`);
    process.exit(64);
  }
  console.log(`bench/list — ${root} · baseline ${COMMIT} · ${machineLine()}`);
  fs.mkdirSync(path.dirname(db), { recursive: true });
  Object.assign(process.env, env);
  const ctx = createContext(loadConfig({}));
  let t = performance.now();
  scan(ctx);
  console.log(`index ready (${path.relative(PROJECT_DIR, db)}) in ${fmtMs(performance.now() - t)}`);
  const rescans: number[] = [];
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    scan(ctx);
    rescans.push(performance.now() - t);
  }
  const old = baselineCli();
  run(CLI, ['--help']); // the launcher's bundle cache warm
  run(old, ['--help'], baselineEnv);
  t = performance.now();
  run(old, ['scan'], baselineEnv);
  console.log(`baseline index ready (${path.relative(PROJECT_DIR, baselineDb)}) in ${fmtMs(performance.now() - t)}`);
  const helps = [0, 1, 2].map(() => run(CLI, ['--help']).ms);
  console.log(
    `floors: CLI start-up (memtrust --help) ${fmtMs(median(helps))}; no-change rescan in-process ${fmtMs(median(rescans))} (both in every list run)\n`,
  );
  const rows: string[][] = [
    ['command', 'bytes', 'baseline CLI', 'today CLI', 'same bytes', 'list stage', 'its SELECT', 'dashboard query'],
  ];
  for (const full of [...combos.map((c) => ['list', ...c]), ...HISTORY]) {
    const [command, ...args] = full as [string, ...string[]];
    const before: number[] = [];
    const after: number[] = [];
    const cpuBefore: number[] = [];
    const cpuAfter: number[] = [];
    let same = true;
    let bytes = 0;
    for (let i = 0; i < REPS; i++) {
      const a = run(old, full, baselineEnv);
      const b = run(CLI, full);
      before.push(a.ms);
      after.push(b.ms);
      if (a.cpuMs !== null && b.cpuMs !== null) {
        cpuBefore.push(a.cpuMs);
        cpuAfter.push(b.cpuMs);
      }
      same &&= a.sha === b.sha && a.status === b.status;
      bytes = b.bytes;
    }
    const p = command === 'list' ? inProcess(ctx, args) : null;
    const dash = (ms: number | undefined) => (ms === undefined ? '—' : fmtMs(ms));
    rows.push([
      `${command} ${args.join(' ')}`.trim(),
      bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`,
      `${fmtMs(median(before))}${cpuBefore.length ? ` (CPU ${fmtMs(median(cpuBefore))})` : ''}`,
      `${fmtMs(median(after))}${cpuAfter.length ? ` (CPU ${fmtMs(median(cpuAfter))})` : ''}`,
      same ? 'yes' : 'NO',
      dash(p?.stage),
      dash(p?.rows),
      dash(p?.dashboard),
    ]);
    console.log(`  ${full.join(' ')}: before ${before.map(fmtMs).join(', ')}; after ${after.map(fmtMs).join(', ')}`);
  }
  console.log(`\n${table(rows)}`);
  console.log(
    `\nmedians of ${REPS} runs, baseline and today alternating; CLI walls with their CPU time (user + sys); "list stage" = runList in this process (no start-up, no rescan); "its SELECT" = listRows of the printed columns; "dashboard query" = listMemories of the same page`,
  );
  closeDb(db);
  fs.rmSync(scratch, { recursive: true, force: true });
}

main();
