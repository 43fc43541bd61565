/**
 * The npm package (docs/install.md): `npm pack` (its prepack builds the dashboard when the
 * build is missing or stale), `npm i -g` of the tarball into a temp prefix, then from that
 * install only: `memtrust --version`, `roots`, `hook install` (naming the installed bin, not
 * this checkout), and `memtrust serve` answering HTTP 200 on a free port, then stopped.
 *
 * Slow (a dashboard build when none is current, better-sqlite3 compiled for the install):
 * skip it with MEMTRUST_SKIP_INSTALL_TESTS=1. Its times are printed.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, envFor, PROJECT } from '../service/test-support';

const skip = process.env.MEMTRUST_SKIP_INSTALL_TESTS === '1';
const version = JSON.parse(fs.readFileSync(path.join(PROJECT, 'package.json'), 'utf8')).version as string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const secs = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

describe.skipIf(skip)('the npm package: pack, install into a temp prefix, run', () => {
  let tmp: string;
  let prefix: string;
  let root: string;
  let env: NodeJS.ProcessEnv;
  const started = performance.now();
  const memtrust = (args: string[], extra: Record<string, string> = {}) =>
    spawnSync(path.join(prefix, 'bin', 'memtrust'), args, { env: { ...env, ...extra }, cwd: tmp, encoding: 'utf8' });

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-package-'));
    prefix = path.join(tmp, 'prefix');
    root = path.join(tmp, 'root');
    fs.mkdirSync(path.join(root, 'memories'), { recursive: true });
    let t0 = performance.now();
    const npmEnv = {
      ...process.env,
      npm_config_update_notifier: 'false',
      // better-sqlite3 compiles from source where no prebuilt binary can be fetched (README).
      npm_config_nodedir: process.env.npm_config_nodedir ?? (fs.existsSync('/usr/include/node') ? '/usr' : ''),
    };
    const pack = spawnSync('npm', ['pack', '--pack-destination', tmp], { cwd: PROJECT, env: npmEnv, encoding: 'utf8' });
    expect(pack.status, pack.stderr.slice(-2000)).toBe(0);
    const tgz = path.join(tmp, `memtrust-${version}.tgz`);
    expect(fs.existsSync(tgz)).toBe(true);
    console.log(`package: npm pack (prepack builds when needed) took ${secs(t0)} s`);
    t0 = performance.now();
    const install = (extra: string[]) =>
      spawnSync('npm', ['i', '-g', tgz, '--prefix', prefix, '--no-audit', '--no-fund', ...extra], {
        cwd: tmp,
        env: npmEnv,
        encoding: 'utf8',
      });
    let r = install(['--offline']);
    if (r.status !== 0) r = install(['--prefer-offline']);
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    console.log(`package: npm i -g into a temp prefix took ${secs(t0)} s`);
    env = childEnv(envFor(root, path.join(tmp, 'data', 'memtrust', 'index.sqlite'), tmp), {
      HOME: path.join(tmp, 'home'),
      PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
    });
    delete env.MEMTRUST_DB; // the default place: the data directory
    delete env.MEMTRUST_PROJECT_DIR;
  }, 1_200_000);
  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    console.log(`package test: ${secs(started)} s in all`);
  }, 300_000);

  it('memtrust is on PATH and says its version', () => {
    const r = spawnSync('memtrust', ['--version'], { env, cwd: tmp, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });

  it('roots lists the configured root', () => {
    const r = memtrust(['roots']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(root);
  });

  it('hook install names the installed bin, never this checkout', () => {
    const r = memtrust(['hook', 'install']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${path.join(prefix, 'bin', 'memtrust')} hook pre-write`);
    expect(r.stdout).toContain(`${path.join(prefix, 'bin', 'memtrust')} context --format hook`);
    expect(r.stdout).not.toContain(PROJECT);
  });

  it('serve answers HTTP 200 on a free port from the installed package, with its data outside the install folder', async () => {
    const port = await freePort();
    const t0 = performance.now();
    const child = spawn(path.join(prefix, 'bin', 'memtrust'), ['serve', '--port', String(port)], {
      env,
      cwd: tmp,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b) => {
      out += b;
    });
    child.stderr.on('data', (b) => {
      out += b;
    });
    try {
      let status = 0;
      for (let i = 0; i < 240 && status !== 200 && child.exitCode === null; i++) {
        await new Promise((r) => setTimeout(r, 500));
        status = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(20_000) })
          .then((r) => r.status)
          .catch(() => 0);
      }
      expect(status, out).toBe(200);
      console.log(`package: memtrust serve answered after ${secs(t0)} s`);
      expect(out).toContain(`http://127.0.0.1:${port}`);
      expect(out).not.toContain('building the dashboard');
      // `memtrust open` finds it running and says the URL.
      const open = memtrust(['open', '--port', String(port)]);
      expect(open.status, open.stderr).toBe(0);
      expect(open.stdout).toContain(`http://127.0.0.1:${port}/`);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
    const installed = path.join(prefix, 'lib', 'node_modules', 'memtrust');
    expect(fs.existsSync(path.join(installed, 'data'))).toBe(false);
    expect(fs.existsSync(path.join(tmp, 'data', 'memtrust', 'index.sqlite'))).toBe(true);
  }, 180_000);
});
