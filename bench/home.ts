/**
 * bench/home: a Claude Code home at scale, read with no root configured (CONTRACT §8 "The Claude
 * Code home is one source"; docs/roots.md "The Claude Code home"):
 *
 *   npx tsx bench/home.ts [--projects 200] [--files 40000] [--reps 7] [--keep]
 *
 * Generates, in a temp folder, a home of --projects projects (their auto-memory folders under
 * `<home>/.claude/projects/`, a transcript each, agent memory for one project in ten, one in
 * twenty gone from the disk) holding --files memory files in all, from lib/demo's generators.
 * Then measures, beside a floor:
 *   - the first index of the whole home (`scan`, in-process; printed, no target);
 *   - the dashboard's first page: `/` on the real production server started with only HOME
 *     pointing at the home, the first request after the first index, then warm (p50);
 *     target: the first under 2 s; floor: a static file of the same server;
 *   - the SessionStart hook as a cold process: `memtrust context --format hook` fed one
 *     project's hook JSON on stdin (median wall); target 150 ms; floor: `node -e 0`;
 *   - the same two after one project changed (a memory of the session's project edited):
 *     the hook in that project and in another one, and `/` once the server saw it.
 * Needs a build (`npx next build`) for the page; exits 0 always; the report on stdout.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeClaudeHome, type HomeProject } from '../lib/demo/claude-home';
import { loadConfig } from '../lib/config';
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

const f = flags(process.argv.slice(2), { projects: '200', files: '40000', reps: '7', keep: 'false' });
const PROJECTS = intFlag(f, 'projects');
const FILES = intFlag(f, 'files');
const REPS = intFlag(f, 'reps');
const KEEP = f.keep !== 'false';
const PAGE_TARGET = 2000;
const HOOK_TARGET = 150;

/** Project sizes: a few large ones, most small, summing to FILES (one MEMORY.md each is added by the generator). */
function sizes(): number[] {
  const weights = Array.from({ length: PROJECTS }, (_, i) => 1 / (1 + (i % 20)));
  const total = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => Math.max(1, Math.floor((w / total) * FILES)));
  out[0]! += FILES - out.reduce((a, b) => a + b, 0);
  return out;
}

// CPU time (user + sys) of the child, when GNU time is there: on a loaded machine the wall
// clock mostly measures the wait for a core (docs/session-context.md, "Measured").
const GNU_TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const cpu: number[] = [];

function wall(args: string[], env: NodeJS.ProcessEnv, input: string): number {
  const t = performance.now();
  const r = GNU_TIME
    ? spawnSync(GNU_TIME, ['-f', '%U %S', process.execPath, ...args], {
        env,
        input,
        cwd: PROJECT_DIR,
        encoding: 'utf8',
      })
    : spawnSync(process.execPath, args, { env, input, cwd: PROJECT_DIR, encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  const m = GNU_TIME ? /([\d.]+) ([\d.]+)\s*$/.exec(r.stderr) : null;
  cpu.push(m ? (Number(m[1]) + Number(m[2])) * 1000 : Number.NaN);
  return ms;
}

/** Runs `fn` REPS times: wall times, and the median CPU time of those runs. */
function timed(fn: () => number): { wall: number[]; cpu: number } {
  cpu.length = 0;
  const w = Array.from({ length: REPS }, fn);
  return { wall: w, cpu: median(cpu) };
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
  t = performance.now();
  const ctx = createContext(config0, env);
  const stats = scan(ctx);
  const indexMs = performance.now() - t;
  closeDb(config0.dbPath);
  note(`discovered ${config0.roots.length} folders in ${fmtMs(discoverMs)}; first index in ${fmtMs(indexMs)}`);

  // A project of the median size, and the largest.
  const median_ = [...projects].filter((p) => p.exists !== false).sort((a, b) => a.memories - b.memories)[
    Math.floor(PROJECTS / 2)
  ]!;
  const mid = median_.path;
  const big = projects[0]!.path;
  const hookIn = (cwd: string) => JSON.stringify({ session_id: 'bench', cwd, source: 'startup' });
  const hook = (cwd: string) => wall([CLI, 'context', '--format', 'hook'], childEnv, hookIn(cwd));
  const floorRuns = () => wall(['-e', '0'], childEnv, '');
  hook(mid); // the launcher's bundle and code cache, once
  const floor = timed(floorRuns);
  const hookMid = timed(() => hook(mid));
  const hookBig = timed(() => hook(big));
  // One project changed: a memory of the session's project edited before each run.
  const edited = firstMemory(config, mid);
  const original = fs.readFileSync(edited);
  let k = 0;
  const hookChanged = timed(() => {
    fs.appendFileSync(edited, `\nedited ${k++}\n`);
    return hook(mid);
  });
  const hookOther = timed(() => {
    fs.appendFileSync(edited, `\nedited ${k++}\n`);
    return hook(big);
  });
  fs.writeFileSync(edited, original);

  const rows: string[][] = [['measure', 'median', 'min', 'max', 'CPU', 'floor', 'target', '']];
  const row = (name: string, xs: number[], cpuMs: number | null, fl: string, target: number) =>
    rows.push([
      name,
      fmtMs(median(xs)),
      fmtMs(Math.min(...xs)),
      fmtMs(Math.max(...xs)),
      cpuMs === null || Number.isNaN(cpuMs) ? '—' : fmtMs(cpuMs),
      fl,
      fmtMs(target),
      verdict(median(xs) < target),
    ]);
  const hookFloor = `${fmtMs(median(floor.wall))} (CPU ${Number.isNaN(floor.cpu) ? '—' : fmtMs(floor.cpu)})`;
  const hookRow = (name: string, t: { wall: number[]; cpu: number }) =>
    row(name, t.wall, t.cpu, hookFloor, HOOK_TARGET);
  hookRow(`hook, cold process, median project (${median_.memories} memories)`, hookMid);
  hookRow(`hook, cold process, largest project (${projects[0]!.memories} memories)`, hookBig);
  hookRow('hook after its project changed', hookChanged);
  hookRow('hook in another project after one changed', hookOther);

  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  if (!fs.existsSync(path.join(PROJECT_DIR, '.next', 'BUILD_ID'))) note('no build (.next): the page is not measured');
  else {
    server = await startServer({ root: '', dir: tmp, now: BENCH_NOW, env });
    try {
      const base = server.baseURL;
      const first = await get(`${base}/`);
      const pageFloor = median(await Promise.all([get(`${base}/icon.svg`)]));
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
      row('dashboard /, first request after the first index', [first], null, fmtMs(pageFloor), PAGE_TARGET);
      row('dashboard /, warm', warm, null, fmtMs(pageFloor), PAGE_TARGET);
      row('dashboard /, 500 ms after one project changed', changed, null, fmtMs(pageFloor), PAGE_TARGET);
      row('dashboard /?project=…, first', [filtered], null, fmtMs(pageFloor), PAGE_TARGET);
    } finally {
      await server.stop();
    }
  }
  console.log(
    `home: ${config0.roots.length} folders, ${stats.files.toLocaleString('en-US')} files indexed; discovery ${fmtMs(discoverMs)}, first index ${fmtMs(indexMs)}`,
  );
  console.log(table(rows));
  console.log(`floors: hook — \`node -e 0\` (median of ${REPS}); page — /icon.svg from the same server`);
  if (KEEP) console.log(`home kept in ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(0);
});
