/**
 * The npm package (docs/install.md): `npm pack` (its prepack builds the dashboard when the
 * build is missing or stale), `npm i -g` of the tarball into a temp prefix, then from that
 * install only: `memtrust --version`, `roots`, `hook install` (naming the installed bin, not
 * this checkout), and `memtrust serve` answering HTTP 200 on a free port, then stopped.
 *
 * `npm test` builds the dashboard before Vitest runs, so prepack finds a current build and packs
 * it (a stale one it rebuilds first). better-sqlite3's installer (prebuild-install) is given a
 * local prebuilt binary, made from this checkout's own compiled better-sqlite3 of the same
 * version for the same Node: the path a user's machine takes when the prebuilt download works,
 * without the 2-minute compile (the compile path is what the checkout's own `npm ci` takes).
 * Runs in CI; MEMTRUST_SKIP_INSTALL_TESTS=1 skips it. Its times are printed.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, envFor, PROJECT } from '../service/test-support';
import { installTempDir } from './test-install-dir';
import { PASSWORD_MEMORY } from './test-drive-hooks';

const skip = process.env.MEMTRUST_SKIP_INSTALL_TESTS === '1';
const version = JSON.parse(fs.readFileSync(path.join(PROJECT, 'package.json'), 'utf8')).version as string;
const sqliteDir = path.join(PROJECT, 'node_modules', 'better-sqlite3');
const sqliteVersion = JSON.parse(fs.readFileSync(path.join(sqliteDir, 'package.json'), 'utf8')).version as string;

/**
 * A prebuilt better-sqlite3 as its installer looks for it in a local folder (prebuild-install's
 * `npm_config_<package>_local_prebuilds`, name `{name}-v{version}-{runtime}-v{abi}-{platform}-{arch}.tar.gz`
 * with glibc), packed from this checkout's compiled module. Returns the folder.
 */
function localPrebuild(tmp: string): string {
  const dir = path.join(tmp, 'prebuilds');
  fs.mkdirSync(dir, { recursive: true });
  const name = `better-sqlite3-v${sqliteVersion}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const r = spawnSync('tar', ['-czf', path.join(dir, name), 'build/Release/better_sqlite3.node'], {
    cwd: sqliteDir,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return dir;
}

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
    tmp = installTempDir('memtrust-package-');
    prefix = path.join(tmp, 'prefix');
    root = path.join(tmp, 'root');
    fs.mkdirSync(path.join(root, 'memories'), { recursive: true });
    let t0 = performance.now();
    const npmEnv = {
      ...process.env,
      npm_config_update_notifier: 'false',
      npm_config_better_sqlite3_local_prebuilds: localPrebuild(tmp),
      // Should the prebuilt binary not fit, better-sqlite3 compiles from source (README).
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

  it('better-sqlite3 was installed from the prebuilt binary, not compiled', () => {
    const installed = path.join(prefix, 'lib', 'node_modules', 'memtrust', 'node_modules', 'better-sqlite3');
    expect(JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).version).toBe(sqliteVersion);
    expect(fs.existsSync(path.join(installed, 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
    // A compile leaves its object files beside the module; the prebuilt tarball holds the module only.
    expect(fs.existsSync(path.join(installed, 'build', 'Release', 'obj.target'))).toBe(false);
  });

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

  it("the installed guard denies a password write and lets a write outside the roots pass, from the package's built bundle", () => {
    const input = (file: string, content: string) =>
      JSON.stringify({
        session_id: 's',
        cwd: tmp,
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_use_id: 't',
        tool_input: { file_path: file, content },
      });
    const guard = (json: string) =>
      spawnSync(path.join(prefix, 'bin', 'memtrust'), ['hook', 'pre-write'], {
        env,
        cwd: tmp,
        input: json,
        encoding: 'utf8',
      });
    const deny = guard(input(path.join(root, 'memories', 'project_db.md'), PASSWORD_MEMORY));
    expect(deny.status, deny.stderr).toBe(0);
    expect(JSON.parse(deny.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(deny.stdout).not.toContain('Xq9v!Lr2#pTz8wKm');
    const pass = guard(input(path.join(tmp, 'src', 'index.ts'), 'export {};\n'));
    expect(pass.status, pass.stderr).toBe(0);
    expect(pass.stdout).toBe('');
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
