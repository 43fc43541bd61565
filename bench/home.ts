/**
 * bench/home: a Claude Code home at scale, read with no root configured (CONTRACT §8 "The Claude
 * Code home is one source"; docs/roots.md "The Claude Code home"):
 *
 *   npx tsx bench/home.ts [--projects 200] [--files 40000] [--reps 7] [--keep]
 *                         [--baseline DIR] [--rounds 3] [--hooks no]
 *
 * Generates, in a temp folder, a home of --projects projects (their auto-memory folders under
 * `<home>/.claude/projects/`, a transcript each, agent memory for one project in ten, one in
 * twenty gone from the disk) holding --files memory files in all, from lib/demo's generators.
 * Then measures, each beside a floor measured in the same run, with CPU time (user + sys)
 * beside wall time (on a shared machine the wall clock is mostly the wait for a core):
 *   - the first index of the whole home (`scan`, in-process; no target) and an unchanged
 *     rescan (target: 2× the floor, issue 16); floor: a plain readdir + lstat walk of the
 *     same folders;
 *   - the dashboard's first page: `/` on the real production server started with only HOME
 *     pointing at the home, the first request after the first index (with the server's CPU
 *     time meanwhile, from /proc), then warm (p50); target: the first under 2 s; floor: a
 *     static file of the same server. While the server's first scan runs after that page
 *     (docs/freshness.md, "The dashboard's first scan"), the same static file every 50 ms for
 *     3 s: the slowest answer is how long the scan held the server at once;
 *     with `--baseline DIR` (a checkout of an earlier commit with its own `next build`, e.g.
 *     `git archive C | tar -x -C DIR`), the same page measures from its server too, over the
 *     same home and index, `--rounds` times each, alternating which goes first; and each hook
 *     row is measured with the baseline's launcher and dist/hooks too, rep by rep in alternating
 *     order (its rows follow, marked `baseline`; without a build it needs only its node_modules);
 *   - the SessionStart hook as a cold process: `memtrust context --format hook` fed one
 *     project's hook JSON on stdin (median wall), and the plugin's dist/hooks/session-start.cjs
 *     (no index: its own kept checks, docs/session-context.md; the first run of each project
 *     reads every file, the reps after it are the median); the plugin's guard (dist/hooks/pre-write.cjs)
 *     fed a Write into the project's memory folder; target 150 ms; floor: `node -e 0`;
 *   - the same after one project changed (a memory of the session's project edited before
 *     each run): the CLI hook in that project and in another one of about the median size (the
 *     next by size: its row reads against the median project's), the plugin's in that
 *     project, and `/` once the server saw it;
 *   - the largest project's hooks with the kept session text off (MEMTRUST_SESSION_CACHE=off:
 *     every run plans, as before the kept text; docs/session-context.md, "The kept text") and
 *     after one of its own memories changed before each run (the kept text cannot be used),
 *     and after Claude Code wrote one of them (the file changed, then that side's stamp, whose
 *     refresher makes the kept text again before the session start: docs/session-context.md,
 *     "Made again after a write").
 *     Each hook row gives its CPU time and minor page faults (GNU time, when /usr/bin/time is
 *     there), and the report what touching fresh memory costs on this machine, per page
 *     (docs/performance.md, "Fresh memory").
 *     `--hooks no` leaves the hooks out (the page alone).
 * Needs a build (`npx next build`) for the page; exits 0 always; the report on stdout.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeClaudeHome, type HomeProject } from '../lib/demo/claude-home';
import { loadConfig } from '../lib/core/config';
import { createContext } from '../lib/service/context';
import { scan } from '../lib/service/index/scan-service';
import { closeDb } from '../db/client';
import { startServer } from '../e2e/server';
import {
  BENCH_NOW,
  CLI,
  PROJECT_DIR,
  flags,
  fmtMs,
  intFlag,
  machineLine,
  median,
  note,
  table,
  verdict,
} from './common';

const f = flags(process.argv.slice(2), {
  projects: '200',
  files: '40000',
  reps: '7',
  keep: 'false',
  baseline: '',
  rounds: '1',
  hooks: 'yes',
});
const PROJECTS = intFlag(f, 'projects');
const FILES = intFlag(f, 'files');
const REPS = intFlag(f, 'reps');
const KEEP = f.keep !== 'false';
const BASELINE = f.baseline ? path.resolve(f.baseline) : null;
const ROUNDS = intFlag(f, 'rounds');
const HOOKS_ON = f.hooks !== 'no';
/** While the first scan runs: a static file this often, this long. */
const PROBE_EVERY_MS = 50;
const PROBE_FOR_MS = 3000;
const PAGE_TARGET = 2000;
const HOOK_TARGET = 150;
/** A request arriving while the first scan runs waits at most this long for it (every page's target, docs/performance-pages.md). */
const HELD_TARGET = 500;

/** Project sizes: a few large ones, most small, summing to FILES (one MEMORY.md each is added by the generator). */
function sizes(): number[] {
  const weights = Array.from({ length: PROJECTS }, (_, i) => 1 / (1 + (i % 20)));
  const total = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => Math.max(1, Math.floor((w / total) * FILES)));
  out[0]! += FILES - out.reduce((a, b) => a + b, 0);
  return out;
}

// CPU time (user + sys) of the child, when GNU time is there: on a loaded machine the wall
// clock mostly measures the wait for a core (docs/session-context.md, "Measured"). And its
// minor page faults: each is a page of memory the process touched first, which costs far more
// on some machines than on others (docs/performance.md, "Fresh memory").
const GNU_TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const cpu: number[] = [];
const faults: number[] = [];

function wall(args: string[], env: NodeJS.ProcessEnv, input: string): number {
  const t = performance.now();
  const r = GNU_TIME
    ? spawnSync(GNU_TIME, ['-f', '%U %S %R', process.execPath, ...args], {
        env,
        input,
        cwd: PROJECT_DIR,
        encoding: 'utf8',
      })
    : spawnSync(process.execPath, args, { env, input, cwd: PROJECT_DIR, encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  const m = GNU_TIME ? /([\d.]+) ([\d.]+) (\d+)\s*$/.exec(r.stderr) : null;
  cpu.push(m ? (Number(m[1]) + Number(m[2])) * 1000 : Number.NaN);
  faults.push(m ? Number(m[3]) : Number.NaN);
  return ms;
}

interface Timed {
  wall: number[];
  cpu: number;
  /** Median minor page faults. */
  faults: number;
}

/** Runs `fn` REPS times: wall times, and the median CPU time and page faults of those runs. */
function timed(fn: () => number): Timed {
  cpu.length = 0;
  faults.length = 0;
  const w = Array.from({ length: REPS }, fn);
  return { wall: w, cpu: median(cpu), faults: median(faults) };
}

/**
 * What touching fresh memory costs here: a child fills a 64 MiB buffer (every page new to the
 * process), then fills it again (the same pages): microseconds per 4 KiB page, first and again.
 */
function freshMemory(): { first: number; again: number } | null {
  const code = `const b=Buffer.allocUnsafeSlow(64*2**20);let t=process.hrtime.bigint();b.fill(1);const a=process.hrtime.bigint()-t;t=process.hrtime.bigint();b.fill(2);const c=process.hrtime.bigint()-t;console.log(Number(a),Number(c))`;
  const runs = Array.from({ length: 5 }, () => spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' }).stdout);
  const pairs = runs
    .map((o) => o.trim().split(' ').map(Number))
    .filter((p) => p.length === 2 && p.every(Number.isFinite));
  if (!pairs.length) return null;
  const pages = (64 * 2 ** 20) / 4096;
  return {
    first: median(pairs.map((p) => p[0]!)) / 1000 / pages,
    again: median(pairs.map((p) => p[1]!)) / 1000 / pages,
  };
}

/** Wall and CPU time of an in-process call. */
function inProcess<T>(fn: () => T): { value: T; wall: number; cpu: number } {
  const c = process.cpuUsage();
  const t = performance.now();
  const value = fn();
  const wall = performance.now() - t;
  const u = process.cpuUsage(c);
  return { value, wall, cpu: (u.user + u.system) / 1000 };
}

/** The floor of a rescan: every file of the roots listed and lstat'ed, nothing else. */
function statWalk(roots: string[]): number {
  let n = 0;
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      fs.lstatSync(p);
      n++;
      if (e.isDirectory()) walk(p);
    }
  };
  for (const r of roots) walk(r);
  return n;
}

/** One server's page measures (bench/home.ts `pageRun`). */
interface PageRun {
  first: number;
  /** The server's CPU time (user + sys) during the first request. */
  firstCpu: number;
  /** The slowest static file while the first scan ran. */
  held: number;
  floor: number;
  warm: number[];
  changed: number[];
  filtered: number;
}

/** A process's CPU time so far (user + sys, ms), from /proc; NaN where there is none. */
function cpuOf(pid: number | undefined): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // clock ticks: 100 a second on Linux
  } catch {
    return Number.NaN;
  }
}

async function get(url: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return performance.now() - t;
}

/** The path of a project's first memory (not MEMORY.md), to edit. */
function firstMemory(config: string, project: string): string {
  const dir = path.join(config, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
  const name = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.md') && n !== 'MEMORY.md')
    .sort()[0]!;
  return path.join(dir, name);
}

async function main(): Promise<void> {
  console.log(`bench/home — ${PROJECTS} projects, ${FILES.toLocaleString('en-US')} memory files · ${machineLine()}`);
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-home-')));
  const home = path.join(tmp, 'home');
  const config = path.join(home, '.claude');
  const x = path.join(tmp, 'src');
  const projects: HomeProject[] = sizes().map((n, i) => ({
    path: path.join(x, i % 7 === 3 ? `app.${i}` : i % 11 === 5 ? `my project ${i}` : `project-${i}`),
    memories: n,
    exists: i % 20 !== 19,
    agents: i % 10 === 4 ? ['reviewer'] : undefined,
  }));
  let t = performance.now();
  const written = writeClaudeHome({ configDir: config, projects, seed: 1, now: new Date(BENCH_NOW) });
  note(`generated ${written.toLocaleString('en-US')} files in ${fmtMs(performance.now() - t)}`);
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
    XDG_DATA_HOME: path.join(tmp, 'data'),
    MEMTRUST_DB: path.join(tmp, 'index.sqlite'),
    MEMTRUST_NOW: BENCH_NOW,
    MEMTRUST_ROOT: '',
    CLAUDE_CONFIG_DIR: '',
    // The owner the server of e2e/server.ts runs with: the index built here stays valid there.
    OWNER_EMAILS: 'owner@example.com',
    OWNER_HOME_USER: 'owner',
    MEMTRUST_MACHINE: 'e2e-machine',
  };
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, MEMTRUST_PROJECT_DIR: PROJECT_DIR };
  for (const k of Object.keys(childEnv))
    if (k.startsWith('MEMTRUST_') && !(k in env) && k !== 'MEMTRUST_PROJECT_DIR') delete childEnv[k];

  t = performance.now();
  const config0 = loadConfig({ env });
  const discoverMs = performance.now() - t;
  const ctx = createContext(config0, env);
  const first = inProcess(() => scan(ctx));
  const stats = first.value;
  const indexMs = first.wall;
  note(`discovered ${config0.roots.length} folders in ${fmtMs(discoverMs)}; first index in ${fmtMs(indexMs)}`);
  // Unchanged rescans (the dashboard's and every CLI command's), beside the plain walk of the same folders.
  const rescans = Array.from({ length: 3 }, () => inProcess(() => scan(ctx)));
  const walks = Array.from({ length: 3 }, () => inProcess(() => statWalk(config0.roots)));
  closeDb(config0.dbPath);

  // A project of the median size, the next one by size (another project, for the rows after a
  // change: compared with the median row, not with the largest), and the largest.
  const bySize = [...projects].filter((p) => p.exists !== false).sort((a, b) => a.memories - b.memories);
  const median_ = bySize[Math.floor(PROJECTS / 2)]!;
  const other_ = bySize[Math.floor(PROJECTS / 2) + 1]!;
  const mid = median_.path;
  const big = projects[0]!.path;
  const hookIn = (cwd: string) => JSON.stringify({ session_id: 'bench', cwd, source: 'startup' });
  // Each hook as today's tree runs it, or a baseline's (--baseline: its launcher, its dist/hooks).
  // The baseline keeps its own index copy and data folder: its kept checks and known values are
  // made by its own rules, so the two sides' hooks do not invalidate each other's at every rep.
  const baseData = path.join(tmp, 'baseline-data');
  if (BASELINE) {
    fs.mkdirSync(baseData, { recursive: true });
    for (const suffix of ['', '-wal', '-shm'])
      if (fs.existsSync(env.MEMTRUST_DB + suffix))
        fs.copyFileSync(env.MEMTRUST_DB + suffix, path.join(baseData, `index.sqlite${suffix}`));
    // And the version store the first index filled (beside the index): without it the baseline's
    // hooks would keep versions into packs and tips of a few entries, not the projects' whole ones.
    const versions = path.join(tmp, 'versions');
    if (fs.existsSync(versions)) fs.cpSync(versions, path.join(baseData, 'versions'), { recursive: true });
  }
  const envOf = (tree: string): NodeJS.ProcessEnv =>
    tree === PROJECT_DIR
      ? { ...childEnv, MEMTRUST_PROJECT_DIR: tree }
      : {
          ...childEnv,
          MEMTRUST_PROJECT_DIR: tree,
          MEMTRUST_DB: path.join(baseData, 'index.sqlite'),
          XDG_DATA_HOME: path.join(baseData, 'xdg'),
        };
  const hook = (cwd: string, tree = PROJECT_DIR, extra: Record<string, string> = {}) =>
    wall(
      [tree === PROJECT_DIR ? CLI : path.join(tree, 'lib', 'cli', 'memtrust.cjs'), 'context', '--format', 'hook'],
      { ...envOf(tree), ...extra },
      hookIn(cwd),
    );
  // Without the kept session text (docs/session-context.md, "The kept text"): every run plans.
  const noKept = { MEMTRUST_SESSION_CACHE: 'off' };
  const hooksDir = (tree: string) => path.join(tree, 'dist', 'hooks');
  const plugin = (cwd: string, tree = PROJECT_DIR, extra: Record<string, string> = {}) =>
    wall([path.join(hooksDir(tree), 'session-start.cjs')], { ...envOf(tree), ...extra }, hookIn(cwd));
  const guardIn = JSON.stringify({
    session_id: 'bench',
    cwd: mid,
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_use_id: 'bench-1',
    tool_input: {
      file_path: path.join(path.dirname(firstMemory(config, mid)), 'feedback_bench_new.md'),
      content:
        '---\nname: Bench note\ndescription: a note the bench writes\ntype: feedback\n---\nKeep the bench output on stdout and progress on stderr.\n',
    },
  });
  const guard = (tree = PROJECT_DIR) => wall([path.join(hooksDir(tree), 'pre-write.cjs')], envOf(tree), guardIn);
  const floorRuns = () => wall(['-e', '0'], childEnv, '');
  /**
   * Claude Code writes one of the project's memories: the file changed, then the stamp
   * (PostToolUse) of that side's installation, CLI or plugin, which starts the refresher that
   * makes the kept text again (docs/session-context.md, "Made again after a write"). Untimed; it
   * waits the refresher's delay and until its marker is gone, as a session start after the
   * assistant wrote a memory comes at least that long after.
   */
  const claudeWrote = (file: string, cwd: string, tree: string, via: 'cli' | 'plugin') => {
    fs.appendFileSync(file, `\nedited ${k++}\n`);
    const input = JSON.stringify({
      session_id: 'bench',
      cwd,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: file },
      tool_response: {},
    });
    const args =
      via === 'cli'
        ? [tree === PROJECT_DIR ? CLI : path.join(tree, 'lib', 'cli', 'memtrust.cjs'), 'hook', 'post-write']
        : [path.join(hooksDir(tree), 'post-write.cjs')];
    const e = envOf(tree);
    // As Claude Code sets it for its hooks: the folder the session started in.
    spawnSync(process.execPath, args, { env: { ...e, CLAUDE_PROJECT_DIR: cwd }, input, cwd, encoding: 'utf8' });
    const texts = path.join(path.dirname(e.MEMTRUST_DB!), 'session-text');
    const until = Date.now() + 15_000;
    spawnSync('sleep', ['2.6']);
    while (Date.now() < until && fs.existsSync(texts) && fs.readdirSync(texts).some((n) => n.endsWith('.pending')))
      spawnSync('sleep', ['0.1']);
  };
  /** With --baseline, each rep runs the baseline's hook too, the two in alternating order: its timings apart. */
  const baseRuns: Record<string, { wall: number[]; cpu: number[]; faults: number[] }> = {};
  const both = (key: string, fn: (tree: string) => number) => (): number => {
    if (!BASELINE) return fn(PROJECT_DIR);
    baseRuns[key] ??= { wall: [], cpu: [], faults: [] };
    const b = baseRuns[key];
    const n = b.wall.length;
    const runBase = () => {
      const saved = cpu.length;
      b.wall.push(fn(BASELINE));
      b.cpu.push(cpu.splice(saved, 1)[0]!);
      b.faults.push(faults.splice(saved, 1)[0]!);
    };
    if (n % 2 === 1) runBase();
    const ms = fn(PROJECT_DIR);
    if (n % 2 === 0) runBase();
    return ms;
  };
  // One project changed: a memory of the session's project edited before each run.
  const edited = firstMemory(config, mid);
  const original = fs.readFileSync(edited);
  const editedBig = firstMemory(config, big);
  const originalBig = fs.readFileSync(editedBig);
  let k = 0;
  const hooks = HOOKS_ON
    ? (() => {
        // The launcher's bundle and code cache, and each side's kept checks of the projects
        // measured, made once by its own rules (a session start keeps them for the next).
        for (const t of BASELINE ? [PROJECT_DIR, BASELINE] : [PROJECT_DIR])
          for (const p of [mid, big, other_.path]) {
            hook(p, t);
            plugin(p, t);
          }
        const out = {
          floor: timed(floorRuns),
          hookMid: timed(both('hookMid', (t) => hook(mid, t))),
          hookBig: timed(both('hookBig', (t) => hook(big, t))),
          pluginMid: timed(both('pluginMid', (t) => plugin(mid, t))),
          pluginBig: timed(both('pluginBig', (t) => plugin(big, t))),
          guardMid: timed(both('guardMid', (t) => guard(t))),
          hookChanged: timed(
            both('hookChanged', (t) => {
              fs.appendFileSync(edited, `\nedited ${k++}\n`);
              return hook(mid, t);
            }),
          ),
          hookOther: timed(
            both('hookOther', (t) => {
              fs.appendFileSync(edited, `\nedited ${k++}\n`);
              return hook(other_.path, t);
            }),
          ),
          pluginChanged: timed(
            both('pluginChanged', (t) => {
              fs.appendFileSync(edited, `\nedited ${k++}\n`);
              return plugin(mid, t);
            }),
          ),
          hookBigOff: timed(both('hookBigOff', (t) => hook(big, t, noKept))),
          pluginBigOff: timed(both('pluginBigOff', (t) => plugin(big, t, noKept))),
          hookBigChanged: timed(
            both('hookBigChanged', (t) => {
              fs.appendFileSync(editedBig, `\nedited ${k++}\n`);
              return hook(big, t);
            }),
          ),
          pluginBigChanged: timed(
            both('pluginBigChanged', (t) => {
              fs.appendFileSync(editedBig, `\nedited ${k++}\n`);
              return plugin(big, t);
            }),
          ),
          hookBigWrote: timed(
            both('hookBigWrote', (t) => {
              claudeWrote(editedBig, big, t, 'cli');
              return hook(big, t);
            }),
          ),
          pluginBigWrote: timed(
            both('pluginBigWrote', (t) => {
              claudeWrote(editedBig, big, t, 'plugin');
              return plugin(big, t);
            }),
          ),
        };
        fs.writeFileSync(edited, original);
        fs.writeFileSync(editedBig, originalBig);
        return out;
      })()
    : null;

  const rows: string[][] = [['measure', 'median', 'min', 'max', 'CPU', 'faults', 'floor', 'target', '']];
  const count = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '—' : n.toLocaleString('en-US'));
  const row = (name: string, xs: number[], cpuMs: number | null, fl: string, target: number, pageFaults?: number) =>
    rows.push([
      name,
      fmtMs(median(xs)),
      fmtMs(Math.min(...xs)),
      fmtMs(Math.max(...xs)),
      cpuMs === null || Number.isNaN(cpuMs) ? '—' : fmtMs(cpuMs),
      pageFaults === undefined ? '' : count(pageFaults),
      fl,
      fmtMs(target),
      verdict(median(xs) < target),
    ]);
  const hookFloor = hooks
    ? `${fmtMs(median(hooks.floor.wall))} (CPU ${Number.isNaN(hooks.floor.cpu) ? '—' : fmtMs(hooks.floor.cpu)}, faults ${count(hooks.floor.faults)})`
    : '';
  const hookRow = (name: string, t: Timed, key?: string) => {
    row(name, t.wall, t.cpu, hookFloor, HOOK_TARGET, t.faults);
    const b = key ? baseRuns[key] : undefined;
    if (b)
      row(`  baseline ${path.basename(BASELINE!)}`, b.wall, median(b.cpu), hookFloor, HOOK_TARGET, median(b.faults));
  };
  const walkFloor = median(walks.map((w) => w.wall));
  const walkCpu = median(walks.map((w) => w.cpu));
  rows.push([
    'first index, in-process (no target)',
    fmtMs(first.wall),
    '',
    '',
    fmtMs(first.cpu),
    '',
    `${fmtMs(walkFloor)} (CPU ${fmtMs(walkCpu)})`,
    '—',
    '',
  ]);
  row(
    'unchanged rescan, in-process',
    rescans.map((r) => r.wall),
    median(rescans.map((r) => r.cpu)),
    `${fmtMs(walkFloor)} (CPU ${fmtMs(walkCpu)})`,
    2 * walkFloor,
  );
  if (hooks) {
    hookRow(`hook (CLI), cold process, median project (${median_.memories} memories)`, hooks.hookMid, 'hookMid');
    hookRow(`hook (CLI), cold process, largest project (${projects[0]!.memories} memories)`, hooks.hookBig, 'hookBig');
    hookRow('hook (CLI) after its project changed', hooks.hookChanged, 'hookChanged');
    hookRow(
      `hook (CLI) in another project (${other_.memories} memories) after one changed`,
      hooks.hookOther,
      'hookOther',
    );
    hookRow(`plugin session-start.cjs, median project`, hooks.pluginMid, 'pluginMid');
    hookRow(`plugin session-start.cjs, largest project`, hooks.pluginBig, 'pluginBig');
    hookRow('plugin session-start.cjs after its project changed', hooks.pluginChanged, 'pluginChanged');
    hookRow('plugin pre-write.cjs, a Write into the median project', hooks.guardMid, 'guardMid');
    hookRow('hook (CLI), largest project, kept text off', hooks.hookBigOff, 'hookBigOff');
    hookRow('plugin session-start.cjs, largest project, kept text off', hooks.pluginBigOff, 'pluginBigOff');
    hookRow('hook (CLI) after the largest project changed', hooks.hookBigChanged, 'hookBigChanged');
    hookRow('plugin session-start.cjs after the largest project changed', hooks.pluginBigChanged, 'pluginBigChanged');
    hookRow('hook (CLI) after Claude Code wrote a memory of the largest project', hooks.hookBigWrote, 'hookBigWrote');
    hookRow(
      'plugin session-start.cjs after Claude Code wrote a memory of the largest project',
      hooks.pluginBigWrote,
      'pluginBigWrote',
    );
  }

  /** One server of `tree` over the home: its first page, the scan after it, warm, after a change. */
  const pageRun = async (tree: string): Promise<PageRun> => {
    const server = await startServer({
      root: '',
      dir: tmp,
      now: BENCH_NOW,
      env: { ...env, MEMTRUST_PROJECT_DIR: tree },
      startMs: 300_000,
      project: tree,
    });
    try {
      const base = server.baseURL;
      const cpu0 = cpuOf(server.pid);
      const first = await get(`${base}/`);
      const firstCpu = cpuOf(server.pid) - cpu0;
      // The first scan runs now, off the requests: how long did it hold the server at once?
      const probes: number[] = [];
      for (const end = performance.now() + PROBE_FOR_MS; performance.now() < end; ) {
        probes.push(await get(`${base}/icon.svg`));
        await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
      }
      const floor = await get(`${base}/icon.svg`);
      const warm: number[] = [];
      for (let i = 0; i < REPS; i++) warm.push(await get(`${base}/`));
      const changed: number[] = [];
      for (let i = 0; i < REPS; i++) {
        fs.appendFileSync(edited, `\nedited ${k++}\n`);
        await new Promise((r) => setTimeout(r, 500));
        changed.push(await get(`${base}/`));
      }
      fs.writeFileSync(edited, original);
      const filtered = await get(`${base}/?project=${encodeURIComponent(mid)}`);
      return { first, firstCpu, held: Math.max(...probes), floor, warm, changed, filtered };
    } finally {
      fs.writeFileSync(edited, original);
      await server.stop();
    }
  };
  const trees: [string, string][] = [['', PROJECT_DIR]];
  if (BASELINE) trees.push([`baseline ${path.basename(BASELINE)}: `, BASELINE]);
  const missing = trees.filter(([, t]) => !fs.existsSync(path.join(t, '.next', 'BUILD_ID')));
  if (missing.length) note(`no build (.next) in ${missing.map(([, t]) => t).join(', ')}: the page is not measured`);
  else {
    try {
      const runs = new Map<string, PageRun[]>(trees.map(([label]) => [label, []]));
      for (let r = 0; r < ROUNDS; r++)
        for (const [label, tree] of r % 2 === 0 ? trees : [...trees].reverse()) {
          note(`page: ${label || 'today: '}round ${r + 1} of ${ROUNDS}`);
          runs.get(label)!.push(await pageRun(tree));
        }
      for (const [label] of trees) {
        const rs = runs.get(label)!;
        const pageFloor = fmtMs(median(rs.map((x) => x.floor)));
        const firstCpu = median(rs.map((x) => x.firstCpu));
        row(
          `${label}dashboard /, first request after the first index`,
          rs.map((x) => x.first),
          firstCpu,
          pageFloor,
          PAGE_TARGET,
        );
        row(
          `${label}static file while the first scan runs, slowest`,
          rs.map((x) => x.held),
          null,
          pageFloor,
          HELD_TARGET,
        );
        row(
          `${label}dashboard /, warm`,
          rs.flatMap((x) => x.warm),
          null,
          pageFloor,
          PAGE_TARGET,
        );
        row(
          `${label}dashboard /, 500 ms after one project changed`,
          rs.flatMap((x) => x.changed),
          null,
          pageFloor,
          PAGE_TARGET,
        );
        row(
          `${label}dashboard /?project=…, first`,
          rs.map((x) => x.filtered),
          null,
          pageFloor,
          PAGE_TARGET,
        );
      }
    } catch (e) {
      note(`the page is not measured: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
    }
  }
  console.log(
    `home: ${config0.roots.length} folders, ${stats.files.toLocaleString('en-US')} files indexed; discovery ${fmtMs(discoverMs)}, first index ${fmtMs(indexMs)}`,
  );
  console.log(table(rows));
  console.log(
    `floors: rescan — readdir + lstat of every entry of the ${config0.roots.length} folders (median of 3); hooks — \`node -e 0\` (median of ${REPS}); page — /icon.svg from the same server; page CPU: the server's user + sys time during the first request (median of ${ROUNDS}) · load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (hooks) {
    const fresh = freshMemory();
    console.log(
      `faults: minor page faults of the hook process (GNU time %R, median); fresh memory here: ${
        fresh ? `${fresh.first.toFixed(2)} µs per 4 KiB page touched first, ${fresh.again.toFixed(2)} µs again` : '—'
      } (a 64 MiB buffer filled twice, median of 5)`,
    );
  }
  if (KEEP) console.log(`home kept in ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(0);
});
