/**
 * Shared helpers for the benchmark scripts (bench/validators.ts, bench/scan.ts).
 * They print numbers; they are not tests and never fail a build (exit 0).
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MACHINE, DEFAULT_OWNER_EMAIL } from '../lib/demo/corpus';

export const PROJECT_DIR = path.resolve(__dirname, '..');
export const CLI = path.join(PROJECT_DIR, 'lib', 'cli', 'memtrust.cjs');
/** The demo corpus' clock and owner: generated files are judged as of this instant. */
export const BENCH_NOW = '2026-11-22T12:00:00Z';
export const BENCH_SEED = 1;

/** `--name value` / `--name=value` flags of a bench script; unknown flags are an error. */
export function flags(argv: string[], known: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...known };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(a);
    if (!m || !(m[1]! in known)) {
      process.stderr.write(
        `unknown argument: ${a} (known: ${Object.keys(known)
          .map((k) => `--${k}`)
          .join(' ')})\n`,
      );
      process.exit(64);
    }
    const v = m[2] ?? argv[++i];
    if (v === undefined) {
      process.stderr.write(`--${m[1]} needs a value\n`);
      process.exit(64);
    }
    out[m[1]!] = v;
  }
  return out;
}

export function intFlag(f: Record<string, string>, name: string): number {
  const n = Number(f[name]);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`--${name} must be a positive integer: ${f[name]}\n`);
    process.exit(64);
  }
  return n;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Nearest-rank percentile (p in 0–100). */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[Math.min(rank, s.length) - 1]!;
}

export function timeMs<T>(fn: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = fn();
  return { ms: performance.now() - t, value };
}

export interface CliRun {
  ms: number;
  status: number | null;
  /** Last non-empty stdout line (the `Summary:` line of `--all`). */
  lastLine: string;
  stdoutBytes: number;
  stderr: string;
}

/**
 * Runs `node lib/cli/memtrust.cjs ARGS` and times the wall clock around the spawn.
 * stdout goes to a file (not a pipe into this process, which would add our own
 * reading to the measured time); the file is read afterwards for a sanity check.
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv, scratch: string): CliRun {
  const outFile = path.join(scratch, `cli-stdout-${process.pid}.txt`);
  const fd = fs.openSync(outFile, 'w');
  let r: ReturnType<typeof spawnSync>;
  const t = performance.now();
  try {
    r = spawnSync(process.execPath, [CLI, ...args], {
      cwd: PROJECT_DIR,
      env,
      stdio: ['ignore', fd, 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    fs.closeSync(fd);
  }
  const ms = performance.now() - t;
  const out = fs.readFileSync(outFile, 'utf8');
  fs.rmSync(outFile, { force: true });
  const lines = out.split('\n').filter((l) => l.trim() !== '');
  return {
    ms,
    status: r.status,
    lastLine: lines.at(-1) ?? '',
    stdoutBytes: Buffer.byteLength(out),
    stderr: String(r.stderr ?? ''),
  };
}

/** The environment the CLI runs with: ours, with memtrust's inputs pinned. */
export function cliEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, MEMTRUST_PROJECT_DIR: PROJECT_DIR, ...extra };
  delete env.MEMTRUST_DEBUG;
  return env;
}

export function fmtMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(0)} ms`;
  return `${ms.toFixed(2)} ms`;
}

export function fmtRate(files: number, ms: number): string {
  const r = files / (ms / 1000);
  return `${r >= 100 ? Math.round(r).toLocaleString('en-US') : r.toFixed(1)} files/s`;
}

export function verdict(ok: boolean): string {
  return ok ? 'PASS' : 'MISS';
}

/** A plain-text table: first row is the header. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

export function machineLine(): string {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load average ${load}`;
}

/** Progress and notes go to stderr so stdout stays the report. */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** A cached bench root under bench/.out/<dir> and the environment every script over it uses. */
export interface BenchRoot {
  out: string;
  root: string;
  db: string;
  env: Record<string, string>;
}

/**
 * The same owner, settings and clock for every script over one cached root: a scan under
 * another owner would make the next script (or the dashboard) re-check every file (the
 * rules signature, docs/validators.md).
 */
function benchRoot(dir: string, ownerEmail: string): BenchRoot {
  const out = path.join(PROJECT_DIR, 'bench', '.out', dir);
  const root = path.join(out, 'root');
  const db = path.join(out, 'index.sqlite');
  const env: Record<string, string> = {
    MEMTRUST_ROOT: root,
    MEMTRUST_DB: db,
    MEMTRUST_NOW: BENCH_NOW,
    MEMTRUST_MACHINE: 'bench',
    XDG_CONFIG_HOME: path.join(out, 'config'),
    XDG_DATA_HOME: path.join(out, 'data'),
    OWNER_EMAILS: ownerEmail,
    OWNER_HOME_USER: 'owner',
    // The cache lives inside the project's work tree: keep the service's git calls out of it.
    GIT_CEILING_DIRECTORIES: out,
  };
  return { out, root, db, env };
}

/** bench/freshness.ts's root of N demo memories (bench/.out/fresh-n<N>), owned by the demo's owner. */
export function freshRoot(n: number): BenchRoot {
  return benchRoot(`fresh-n${n}`, 'demo.user@example.com');
}

/** bench/web.ts's root of N demo memories (bench/.out/web-<N>), owned as the dashboard under test is (e2e/server.ts). */
export function webRoot(n: number): BenchRoot {
  return benchRoot(`web-${n}`, 'owner@example.com');
}

/** The stat floor of a trust-model root: readdir + lstat of every memory file, best of 3 after a warm-up. */
export function statFloor(root: string): number {
  const dirs = [path.join(root, 'memories'), path.join(root, 'quarantine')];
  for (const m of fs.readdirSync(path.join(root, 'archive'))) dirs.push(path.join(root, 'archive', m));
  const once = () =>
    timeMs(() => {
      for (const d of dirs) for (const name of fs.readdirSync(d)) fs.lstatSync(path.join(d, name));
    }).ms;
  once();
  return Math.min(once(), once(), once());
}

/**
 * bench/scan.ts's cached root of N demo memories (bench/.out/scan-n<N>) and the environment
 * every index of it runs with, its scratch folders under `tmp`.
 */
export function scanRoot(n: number, tmp: string): { cacheDir: string; root: string; env: Record<string, string> } {
  const cacheDir = path.join(PROJECT_DIR, 'bench', '.out', `scan-n${n}`);
  const root = path.join(cacheDir, 'root');
  const env: Record<string, string> = {
    MEMTRUST_ROOT: root,
    MEMTRUST_NOW: BENCH_NOW,
    MEMTRUST_MACHINE: DEFAULT_MACHINE,
    OWNER_EMAILS: DEFAULT_OWNER_EMAIL,
    XDG_CONFIG_HOME: path.join(tmp, 'config'),
    XDG_DATA_HOME: path.join(tmp, 'data'),
    // The cache lives inside the project's work tree: stop the service's `git` calls
    // (recordGitRename) from finding the project's repository above the root, as for
    // a root outside any repository.
    GIT_CEILING_DIRECTORIES: cacheDir,
  };
  return { cacheDir, root, env };
}

/** Every memory file of a trust-model root, the way the trust-root adapter finds them. */
export function trustRootFiles(root: string): string[] {
  const out: string[] = [];
  const addDir = (dir: string) => {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names) if (n.endsWith('.md') && n !== 'MEMORY.md') out.push(path.join(dir, n));
  };
  addDir(path.join(root, 'memories'));
  addDir(path.join(root, 'quarantine'));
  for (const m of fs.readdirSync(path.join(root, 'archive'))) addDir(path.join(root, 'archive', m));
  return out;
}

/** One pass of the full index's floor over a trust-model root: readdir + readFileSync + sha256 of every memory file. */
export function readHashPass(root: string): number {
  return timeMs(() => {
    for (const file of trustRootFiles(root)) crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }).ms;
}
