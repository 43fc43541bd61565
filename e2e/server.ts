/**
 * Starts the real production server (the request guard of docs/security.md in front of `next start`) on a
 * free port with its own memory root, database and settings, for one test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const PROJECT = path.resolve(__dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  port: number;
  /** The server process (bench/home.ts reads its CPU time). */
  pid: number | undefined;
  baseURL: string;
  root: string;
  dir: string;
  env: NodeJS.ProcessEnv;
  /** Everything the server printed (attached to failing tests). */
  log(): string;
  stop(): Promise<void>;
}

export function tempDir(prefix = 'memtrust-e2e-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function startServer(opts: {
  root: string;
  dir: string;
  now?: string;
  env?: Record<string, string | undefined>;
  /** How long the start may take (default 30 s; bench/home.ts allows more on a loaded machine). */
  startMs?: number;
  /** The checkout to serve, with its own build (default this one; bench/home.ts `--baseline`). */
  project?: string;
}): Promise<RunningServer> {
  const project = opts.project ?? PROJECT;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    MEMTRUST_ROOT: opts.root,
    MEMTRUST_DB: path.join(opts.dir, 'index.sqlite'),
    MEMTRUST_NOW: opts.now ?? '2026-11-22T12:00:00Z',
    MEMTRUST_NO_BUILD: '1',
    MEMTRUST_MACHINE: 'e2e-machine',
    XDG_CONFIG_HOME: path.join(opts.dir, 'config'),
    XDG_DATA_HOME: path.join(opts.dir, 'data'),
    OWNER_EMAILS: 'owner@example.com',
    OWNER_HOME_USER: 'owner',
    NEXT_TELEMETRY_DISABLED: '1',
    ...opts.env,
  };
  const child: ChildProcess = spawn(process.execPath, [path.join(project, 'lib/server/start.mjs')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const baseURL = `http://127.0.0.1:${port}`;
  const startMs = opts.startMs ?? 30_000;
  const deadline = Date.now() + startMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log}`);
    if (log.includes('memtrust dashboard:')) break;
    if (Date.now() > deadline) throw new Error(`server did not start in ${startMs / 1000} s:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    pid: child.pid,
    baseURL,
    root: opts.root,
    dir: opts.dir,
    env,
    log: () => log,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
