/**
 * The session context, before and after, side by side in one run (docs/session-context.md,
 * docs/performance-pages.md):
 *
 *   npx tsx bench/context.ts [--sizes 1000,10000,100000] [--reps 7] [--reps-big 3]
 *                            [--baseline be98cdf] [--cold-max 10000] [--layouts trust,claude]
 *
 * For each size N: a trust-model root of N memories in memories/ (`generateCorpus`, plus
 * about 0.2 N in quarantine/ and archive/) and a Claude Code folder of N memories
 * (`generateClaudeCodeFolder`), written once to bench/.out/context/ with their index
 * (`memtrust scan`), reused by later runs. Measured, for today's code and for the code
 * of --baseline (extracted with `git archive` into bench/.out/context-baseline-<commit>,
 * its own launcher and bundle):
 *   - the SessionStart hook, `node lib/cli/memtrust.cjs context --format hook`, process start
 *     included: wall (median) and CPU (user + sys, GNU time) — cold (no index database:
 *     every file read and checked; sizes up to --cold-max) and warm (the scanned index);
 *     floor: bare `node -e 0` measured right after each row;
 *   - the dashboard's plan after a change (/context once the index moved: the plan is built
 *     again), in-process on the index handle, as app/context/page.tsx builds it; floor: the
 *     rows' keys (`rel_path, size, mtime_ms` of every memory, what any rebuild from the
 *     index must read).
 * Each row says whether the two versions printed the same bytes (hook) / the same plan.
 * Targets: hook wall < 300 ms at 1,000 memories (issue 16). Exit 0 always; progress on
 * stderr, the report on stdout.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateClaudeCodeFolder, generateCorpus, writeCorpus, DEFAULT_OWNER_EMAIL } from '../lib/demo';
import { describeSource } from '../lib/sources';
import type { buildSessionContext as Build } from '../lib/service/session/session-context';
import { buildSessionContext } from '../lib/service/session/session-context';
import {
  BENCH_NOW,
  BENCH_SEED,
  CLI,
  flags,
  fmtMs,
  intFlag,
  machineLine,
  median,
  note,
  PROJECT_DIR,
  table,
  verdict,
} from './common';
import { checkCommit } from './baseline';

const f = flags(process.argv.slice(2), {
  sizes: '1000,10000,100000',
  reps: '7',
  'reps-big': '3',
  baseline: 'be98cdf',
  'cold-max': '10000',
  layouts: 'trust,claude',
});
const SIZES = f.sizes!.split(',').map((s) => Number(s));
const REPS = intFlag(f, 'reps');
const REPS_BIG = intFlag(f, 'reps-big');
const COLD_MAX = intFlag(f, 'cold-max');
const BASELINE = checkCommit(f.baseline!);
const LAYOUTS = f.layouts!.split(',');
const TARGET_MS = 300;
const OUT = path.join(PROJECT_DIR, 'bench', '.out', 'context');
const CONFIG = path.join(OUT, 'config');
const OWNER = { emails: [DEFAULT_OWNER_EMAIL] };

// CPU time (user + sys) of the child, when GNU time is there: on a loaded machine the wall
// clock mostly measures waiting for a core; the CPU time is what the hook itself costs.
const GNU_TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

interface Timed {
  ms: number;
  cpuMs: number | null;
}

/** The baseline's sources, with its own launcher (it bundles into its own node_modules/.cache). */
function baselineTree(commit: string): string {
  const dir = path.join(PROJECT_DIR, 'bench', '.out', `context-baseline-${commit}`);
  if (!fs.existsSync(path.join(dir, 'lib', 'cli', 'memtrust.cjs'))) {
    fs.mkdirSync(dir, { recursive: true });
    const tar = execFileSync(
      'git',
      ['archive', commit, 'lib', 'db', 'package.json', 'package-lock.json', 'tsconfig.json'],
      {
        cwd: PROJECT_DIR,
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    // Sources only: test files under bench/.out would be picked up by vitest's bench/** pattern.
    execFileSync('tar', ['-x', '-C', dir, '--exclude=*.test.ts', '--exclude=*.spec.ts', '--exclude=*.test.tsx'], {
      input: tar,
    });
  }
  return dir;
}

function timed(args: string[], env: NodeJS.ProcessEnv): Timed & { stdout: string } {
  const cmd = GNU_TIME ?? process.execPath;
  const argv = GNU_TIME ? ['-f', 'cpu %U %S', process.execPath, ...args] : args;
  const t = performance.now();
  const r = spawnSync(cmd, argv, { cwd: PROJECT_DIR, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const m = /cpu (\d+\.\d+) (\d+\.\d+)\s*$/.exec(r.stderr ?? '');
  return { ms, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : null, stdout: r.stdout };
}

function medians(xs: Timed[]): Timed {
  const cpu = xs.map((x) => x.cpuMs).filter((x): x is number => x !== null);
  return { ms: median(xs.map((x) => x.ms)), cpuMs: cpu.length ? median(cpu) : null };
}

function bareNode(reps: number): Timed {
  return medians(Array.from({ length: reps }, () => timed(['-e', '0'], process.env)));
}

function envFor(root: string, db: string, project: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MEMTRUST_PROJECT_DIR: project,
    MEMTRUST_ROOT: root,
    MEMTRUST_DB: db,
    MEMTRUST_NOW: BENCH_NOW,
    OWNER_EMAILS: DEFAULT_OWNER_EMAIL,
    XDG_CONFIG_HOME: CONFIG,
  };
  delete env.MEMTRUST_DEBUG;
  return env;
}

/** Old and new, interleaved rep by rep so that a change of load hits both alike. */
function hookPair(
  cli: { old: string; now: string },
  root: string,
  db: string,
  project: { old: string; now: string },
  reps: number,
): { old: Timed; now: Timed; same: boolean; chars: number } {
  const args = (c: string) => [c, 'context', '--format', 'hook'];
  // One run each first: builds the bundles (and the code cache) outside the measurement.
  const first = {
    old: timed(args(cli.old), envFor(root, db, project.old)),
    now: timed(args(cli.now), envFor(root, db, project.now)),
  };
  const old: Timed[] = [];
  const now: Timed[] = [];
  let same = first.old.stdout === first.now.stdout;
  for (let i = 0; i < reps; i++) {
    const o = timed(args(cli.old), envFor(root, db, project.old));
    const n = timed(args(cli.now), envFor(root, db, project.now));
    same &&= o.stdout === first.old.stdout && n.stdout === first.now.stdout;
    old.push(o);
    now.push(n);
  }
  const chars = (JSON.parse(first.now.stdout) as { hookSpecificOutput: { additionalContext: string } })
    .hookSpecificOutput.additionalContext.length;
  return { old: medians(old), now: medians(now), same, chars };
}

/** A root and its scanned index, written once under bench/.out/context/ and reused. */
function fixture(layout: string, n: number): { root: string; db: string } {
  const dir = path.join(OUT, `${layout}-${n}`);
  const root = layout === 'trust' ? path.join(dir, 'root') : path.join(dir, 'claude', 'memory');
  const db = path.join(dir, 'index.sqlite');
  if (fs.existsSync(path.join(dir, '.complete'))) return { root, db };
  fs.rmSync(dir, { recursive: true, force: true });
  note(`generating the ${layout} root with ${n} memories…`);
  if (layout === 'trust') {
    // memories/ is about 82 % of a generated root: generate enough that memories/ holds n.
    const corpus = generateCorpus({ n: Math.ceil(n / 0.8) + 50, seed: BENCH_SEED, now: new Date(BENCH_NOW) });
    const mem = corpus.files.filter((x) => x.relPath.startsWith('memories/')).slice(0, n);
    const rest = corpus.files.filter((x) => !x.relPath.startsWith('memories/')).slice(0, Math.round(n * 0.2));
    writeCorpus(root, { files: [...mem, ...rest], auditLines: [] });
  } else writeCorpus(root, generateClaudeCodeFolder({ n, seed: BENCH_SEED, now: new Date(BENCH_NOW) }));
  note('scanning it…');
  const r = spawnSync(process.execPath, [CLI, 'scan'], {
    cwd: PROJECT_DIR,
    env: envFor(root, db, PROJECT_DIR),
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`scan exited ${r.status}: ${r.stderr}`);
  fs.writeFileSync(path.join(dir, '.complete'), '');
  return { root, db };
}

/** The dashboard's rebuild (app/context/page.tsx) on one handle: old code vs today's, and the rows' keys. */
function pageRebuild(
  oldBuild: typeof Build,
  root: string,
  db: string,
  reps: number,
): { old: number; now: number; floor: number; same: boolean } {
  const sqlite = new Database(db, { readonly: true });
  try {
    const req = { roots: [root], now: new Date(BENCH_NOW), owner: OWNER, budget: 8000, cache: sqlite };
    const keys = sqlite.prepare('SELECT rel_path, size, mtime_ms FROM entries WHERE source = ?').raw();
    const id = describeSource(root).id;
    const old: number[] = [];
    const now: number[] = [];
    const floor: number[] = [];
    let same = true;
    for (let i = 0; i < reps + 1; i++) {
      let t = performance.now();
      const a = oldBuild(req);
      const ta = performance.now() - t;
      t = performance.now();
      const b = buildSessionContext({ ...req, listing: 'index' });
      const tb = performance.now() - t;
      t = performance.now();
      keys.all(id);
      const tf = performance.now() - t;
      if (i === 0) {
        same = JSON.stringify(a) === JSON.stringify(b);
        continue; // warm-up: JIT and page cache
      }
      old.push(ta);
      now.push(tb);
      floor.push(tf);
    }
    return { old: median(old), now: median(now), floor: median(floor), same };
  } finally {
    sqlite.close();
  }
}

async function main(): Promise<void> {
  note(`bench/context: ${machineLine()}`);
  const base = baselineTree(BASELINE);
  const oldBuild = (
    (await import(path.join(base, 'lib', 'service', 'session', 'session-context.ts'))) as {
      buildSessionContext: typeof Build;
    }
  ).buildSessionContext;
  const cli = { old: path.join(base, 'lib', 'cli', 'memtrust.cjs'), now: CLI };
  const project = { old: base, now: PROJECT_DIR };
  const cpu = (t: Timed) => (t.cpuMs === null ? 'n/a' : fmtMs(t.cpuMs));
  const x = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
  const hookRows: string[][] = [
    [
      'layout',
      'memories',
      'index db',
      `wall ${BASELINE}`,
      'wall now',
      `cpu ${BASELINE}`,
      'cpu now',
      'bare node wall / cpu',
      'same bytes',
      'chars',
      `now < ${TARGET_MS} ms`,
    ],
  ];
  const pageRows: string[][] = [
    ['layout', 'memories', `plan ${BASELINE}`, 'plan now', 'speed-up', 'floor: rows’ keys', 'now ÷ floor', 'same plan'],
  ];
  const label = { trust: 'trust-model root', claude: 'Claude Code folder' } as Record<string, string>;
  const before = bareNode(REPS);
  for (const n of SIZES) {
    const reps = n > 10_000 ? REPS_BIG : REPS;
    for (const layout of LAYOUTS) {
      const { root, db } = fixture(layout, n);
      const runs: [string, string][] =
        n <= COLD_MAX
          ? [
              ['none (cold)', path.join(OUT, 'no-index.sqlite')],
              ['scanned (warm)', db],
            ]
          : [['scanned (warm)', db]];
      for (const [what, dbPath] of runs) {
        note(`${label[layout]} ${n}: the hook, ${what}, ${reps} reps each…`);
        const r = hookPair(cli, root, dbPath, project, reps);
        const floor = bareNode(Math.min(reps, 5));
        hookRows.push([
          label[layout]!,
          n.toLocaleString('en-US'),
          what,
          fmtMs(r.old.ms),
          fmtMs(r.now.ms),
          cpu(r.old),
          cpu(r.now),
          `${fmtMs(floor.ms)} / ${cpu(floor)}`,
          r.same ? 'yes' : 'NO',
          r.chars.toLocaleString('en-US'),
          n === 1000 ? verdict(r.now.ms < TARGET_MS) : '—',
        ]);
      }
      note(`${label[layout]} ${n}: the dashboard's plan after a change…`);
      const p = pageRebuild(oldBuild, root, db, reps);
      pageRows.push([
        label[layout]!,
        n.toLocaleString('en-US'),
        fmtMs(p.old),
        fmtMs(p.now),
        x(p.old, p.now),
        fmtMs(p.floor),
        x(p.now, p.floor),
        p.same ? 'yes' : 'NO',
      ]);
    }
  }
  const after = bareNode(REPS);
  console.log(`# bench/context — the session context, ${BASELINE} beside today's code, one run`);
  console.log(machineLine());
  console.log(
    `hook: medians of ${REPS} runs (${REPS_BIG} above 10,000), old and new interleaved; bare \`node -e 0\`: ${fmtMs(before.ms)} wall / ${cpu(before)} cpu before, ${fmtMs(after.ms)} / ${cpu(after)} after`,
  );
  console.log(
    'cpu = user + sys of the child process (GNU time); under load the wall clock mostly measures the wait for a core',
  );
  console.log('');
  console.log(table(hookRows));
  console.log('');
  console.log("the dashboard's plan after a change (in-process, index handle, budget 8,000; medians):");
  console.log(table(pageRows));
}

main().catch((e) => {
  console.error(`bench/context failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(0);
});
