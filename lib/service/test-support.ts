/**
 * Shared helpers for the service integration tests (issue #3 item 7): real temp
 * roots, a real SQLite file per test, the real CLI as a child process, and
 * independent (not the project's) readers for frontmatter, trees and audit logs.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../core/config';
import { closeDb } from '../../db/client';
import { createContext, type ServiceContext } from './context';
import { scan } from './index/scan-service';
import type { AuditEvent } from '../audit/event';

export const NOW = '2026-11-22T12:00:00Z';
export const TODAY = '2026-11-22';
export const MACHINE = 'test-machine';
export const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = path.join(PROJECT, 'lib', 'cli', 'memtrust.cjs');

export interface Sandbox {
  tmp: string;
  root: string;
  db: string;
  env: Record<string, string>;
}

export function sandbox(prefix = 'memtrust-it-'): Sandbox {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const root = path.join(tmp, 'root');
  fs.mkdirSync(root);
  return { tmp, root, db: path.join(tmp, 'index.sqlite'), env: envFor(root, path.join(tmp, 'index.sqlite'), tmp) };
}

export function envFor(root: string, db: string, tmp: string): Record<string, string> {
  return {
    MEMTRUST_ROOT: root,
    MEMTRUST_DB: db,
    MEMTRUST_NOW: NOW,
    MEMTRUST_MACHINE: MACHINE,
    XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
    XDG_DATA_HOME: path.join(tmp, 'data'),
    OWNER_EMAILS: 'owner@example.com',
    OWNER_HOME_USER: 'owner',
  };
}

type Hook = (fn: () => void) => void;

/**
 * A fresh sandbox for every test of the file, removed after it: `const sb =
 * sandboxPerTest({ beforeEach, afterEach })`, then `sb.root` inside a test. The hooks are
 * passed in because this module is also loaded by fixture child processes
 * (lib/service/fixtures), which must not load the test runner.
 */
export function sandboxPerTest(hooks: { beforeEach: Hook; afterEach: Hook }, prefix?: string): Sandbox {
  let current: Sandbox | null = null;
  hooks.beforeEach(() => {
    current = sandbox(prefix);
  });
  hooks.afterEach(() => {
    if (current) removeSandbox(current);
    current = null;
  });
  const now = (): Sandbox => {
    if (!current) throw new Error('sandboxPerTest: the sandbox exists only while a test runs');
    return current;
  };
  return {
    get tmp() {
      return now().tmp;
    },
    get root() {
      return now().root;
    },
    get db() {
      return now().db;
    },
    get env() {
      return now().env;
    },
  };
}

/** The body of a valid feedback memory (the shape the tests' memories share). */
export const TEST_BODY =
  '\nRun the integration tests before merging because flaky merges cost a day.\n\n**Why:** main broke.\n\n**How to apply:** npm test.\n';

/** A made-up GitHub token (`ghp_` and 36 characters), split so no scanner mistakes the source for a leak. */
export const FAKE_TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';

/** The frontmatter of the "Integration tests" feedback memory, then `extra`. */
export const testFields = (extra: [string, string][]): [string, string][] => [
  ['name', 'Integration tests'],
  ['description', 'run them first'],
  ['type', 'feedback'],
  ['source-machine', 'box'],
  ...extra,
];

/** A context over the sandbox, scanned; close it with `closeCtx`. */
export function openCtx(sb: Sandbox): ServiceContext {
  const config = loadConfig({ env: sb.env });
  const ctx = createContext(config, sb.env);
  scan(ctx);
  return ctx;
}

export function closeCtx(sb: Sandbox): void {
  closeDb(sb.db);
}

export function removeSandbox(sb: Sandbox): void {
  closeDb(sb.db);
  fs.rmSync(sb.tmp, { recursive: true, force: true });
}

/** The environment of a child process: ours minus any memtrust setting, plus the sandbox's. */
export function childEnv(env: Record<string, string>, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MEMTRUST_')) base[k] = v;
  return { ...base, ...env, ...extra } as NodeJS.ProcessEnv;
}

export interface CliRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>, extra: Record<string, string> = {}): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: childEnv(env, extra), encoding: 'utf8', cwd: PROJECT });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

export function runCliAsync(
  args: string[],
  env: Record<string, string>,
  extra: Record<string, string> = {},
): Promise<CliRun> {
  return runNodeAsync([CLI, ...args], env, extra);
}

/** `node ARGS…` in the project directory (e.g. `--import tsx fixture.ts`), output collected. */
export function runNodeAsync(
  args: string[],
  env: Record<string, string>,
  extra: Record<string, string> = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: childEnv(env, extra), cwd: PROJECT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/** Runs async jobs at most `n` at a time, results in input order. */
export async function pool<T, R>(items: T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

export function sha(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

/** A memory file from ordered fields and a body; `eol` and `bom` as asked. */
export function memoryFile(
  fields: [string, string][],
  body: string | Buffer,
  opts: { crlf?: boolean; bom?: boolean } = {},
): Buffer {
  const eol = opts.crlf ? '\r\n' : '\n';
  const head = ['---', ...fields.map(([k, v]) => `${k}: ${v}`), '---'].join(eol) + eol;
  return Buffer.concat([
    Buffer.from(opts.bom ? '\ufeff' : ''),
    Buffer.from(head),
    Buffer.isBuffer(body) ? body : Buffer.from(body),
  ]);
}

/** The body the service tests' feedback memories share: a rule with its reason, no finding. */
export const FEEDBACK_BODY = '\nRun the integration tests before merging because flaky merges cost a day.\n';

/** A seed-000 feedback memory of `tier`, created 2026-01-01, `extra` fields after the common ones. */
export function feedbackMemory(
  name: string,
  tier: string,
  opts: { extra?: [string, string][]; body?: string } = {},
): Buffer {
  return memoryFile(
    [
      ['name', name],
      ['description', `${name} notes`],
      ['type', 'feedback'],
      ['trust-level', tier],
      ['created-at', '2026-01-01T00:00:00Z'],
      ...(opts.extra ?? []),
    ],
    opts.body ?? FEEDBACK_BODY,
  );
}

export function put(root: string, rel: string, bytes: Buffer | string, mtime?: Date): string {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, bytes);
  if (mtime) fs.utimesSync(abs, mtime, mtime);
  return abs;
}

export interface Split {
  bom: boolean;
  eols: string[];
  /** Frontmatter lines between the delimiters, without line endings. */
  lines: string[];
  body: Buffer;
}

/** Independent splitter: byte-level, so the body is exactly what follows the closing `---` line. */
export function splitMemory(buf: Buffer): Split {
  let pos = 0;
  const bom = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  if (bom) pos = 3;
  const lines: string[] = [];
  const eols: string[] = [];
  let first = true;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl === -1) throw new Error('no closing delimiter');
    const crlf = nl > pos && buf[nl - 1] === 0x0d;
    const line = buf.subarray(pos, crlf ? nl - 1 : nl).toString('utf8');
    eols.push(crlf ? '\r\n' : '\n');
    pos = nl + 1;
    if (first) {
      if (line !== '---') throw new Error('no opening delimiter');
      first = false;
      continue;
    }
    if (/^---[ \t]*$/.test(line)) return { bom, eols, lines, body: buf.subarray(pos) };
    lines.push(line);
  }
  throw new Error('no closing delimiter');
}

/** `key: value` pairs of a simple frontmatter block (plain or double/single-quoted scalars). */
export function fieldsOf(buf: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of splitMemory(buf).lines) {
    const m = /^([A-Za-z][\w.-]*):[ \t]*(.*)$/.exec(l);
    if (!m) continue;
    let v = m[2]!.trim();
    if (v.startsWith('"')) v = JSON.parse(v) as string;
    else if (v.startsWith("'")) v = v.slice(1, -1).replace(/''/g, "'");
    out[m[1]!] = v;
  }
  return out;
}

const MEMORY_DIRS = (root: string, flat: boolean): string[] => {
  const dirs = [flat ? '' : 'memories', 'quarantine'];
  try {
    for (const m of fs.readdirSync(path.join(root, 'archive'))) dirs.push(`archive/${m}`);
  } catch {
    // no archive
  }
  return dirs;
};

/** filename → every relPath it has under memories/ (or the folder itself when flat), quarantine/, archive/YYYY-MM/. */
export function placements(root: string, flat = false): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const d of MEMORY_DIRS(root, flat)) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(path.join(root, d));
    } catch {
      continue;
    }
    for (const n of names.filter((x) => x.endsWith('.md') && x !== 'MEMORY.md'))
      out.set(n, [...(out.get(n) ?? []), d ? `${d}/${n}` : n]);
  }
  return out;
}

/** Every file and directory under `dir` (relative, sorted) with its sha256 ('dir' for directories). */
export function treeHash(dir: string, exclude: string[] = ['.memtrust']): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (exclude.includes(r)) continue;
      if (e.isDirectory()) {
        out[`${r}/`] = 'dir';
        walk(r);
      } else out[r] = sha(fs.readFileSync(path.join(dir, r)));
    }
  };
  walk('');
  return out;
}

/** `treeHash` without the directory entries. */
export function treeFiles(dir: string, exclude?: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(treeHash(dir, exclude)).filter(([k]) => !k.endsWith('/')));
}

/** Every path under `dir` whose name ends in `.tmp`. */
export function tmpFiles(dir: string): string[] {
  return Object.keys(treeHash(dir, [])).filter((p) => /\.tmp\/?$/.test(p) || p.includes('.tmp-'));
}

export function auditPath(root: string, machine = MACHINE): string {
  return path.join(root, '.memtrust', 'audit', `${machine}.jsonl`);
}

export function readAudit(root: string, machine = MACHINE): AuditEvent[] {
  let text = '';
  try {
    text = fs.readFileSync(auditPath(root, machine), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as AuditEvent);
}

export function journalFiles(root: string): string[] {
  try {
    return fs.readdirSync(path.join(root, '.memtrust', 'journal'));
  } catch {
    return [];
  }
}

export function copyRoot(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, preserveTimestamps: true });
}
