/**
 * A plugin install, as Claude Code makes it (docs/install.md): the repository's files
 * (git ls-files, the committed hook bundles among them) copied to a temp folder,
 * `npm ci --ignore-scripts` there (so better-sqlite3 is not compiled and esbuild's
 * postinstall does not run), then each hook command of hooks/hooks.json run with
 * CLAUDE_PLUGIN_ROOT set: deny a password, stamp a new memory inferred, the session text.
 *
 * npm ci of the whole lockfile from the local npm cache (filled by the checkout's own
 * `npm ci`, so no network), into a RAM-backed folder where there is one (test-install-dir.ts).
 * Runs in CI; MEMTRUST_SKIP_INSTALL_TESTS=1 skips it. Its time is printed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT } from '../service/test-support';
import { driveHooks } from './test-drive-hooks';
import { expectPluginAnswers } from './test-answers';
import { installTempDir } from './test-install-dir';

const skip = process.env.MEMTRUST_SKIP_INSTALL_TESTS === '1';

/** The repository as a plugin install sees it: its tracked files, nothing built, no node_modules. */
function copyRepository(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: PROJECT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of files) {
    const src = path.join(PROJECT, f);
    if (!fs.existsSync(src)) continue; // deleted in the work tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    fs.copyFileSync(src, path.join(to, f));
  }
}

describe.skipIf(skip)('a plugin install (npm ci --ignore-scripts in a copy)', () => {
  let tmp: string;
  let plugin: string;
  const started = performance.now();

  beforeAll(() => {
    tmp = installTempDir('memtrust-plugin-install-');
    plugin = path.join(tmp, 'plugin');
    copyRepository(plugin);
    const npm = (args: string[]) =>
      spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', ...args], {
        cwd: plugin,
        encoding: 'utf8',
        env: { ...process.env, npm_config_update_notifier: 'false' },
      });
    let r = npm(['--offline']);
    // A cache missing a package: allow the network for that one only.
    if (r.status !== 0) r = npm(['--prefer-offline']);
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    console.log(`plugin install: copy + npm ci took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 600_000);
  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    console.log(`plugin install test: ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  }, 300_000);

  it('no native module was built, esbuild was not set up, and nothing was built into the copy', () => {
    expect(fs.existsSync(path.join(plugin, 'node_modules', 'better-sqlite3', 'build'))).toBe(false);
    expect(fs.existsSync(path.join(plugin, '.next'))).toBe(false);
    expect(fs.existsSync(path.join(plugin, 'dist', 'hooks', 'pre-write.cjs'))).toBe(true);
  });

  it('each hook command gives the same answers as the CLI: deny, stamp, session text', () => {
    const d = driveHooks(plugin, path.join(tmp, 'run'));
    fs.mkdirSync(d.tmp, { recursive: true });
    const { preWriteMs, nodeMs } = expectPluginAnswers(d);
    console.log(
      `plugin install: pre-write (outside the roots), ms: ${preWriteMs.map((m) => m.toFixed(0)).join(', ')}; node -e 0: ${nodeMs.map((m) => m.toFixed(0)).join(', ')}`,
    );
    // Still nothing native, nothing cached by a build: the hooks ran from the committed bundles.
    expect(fs.existsSync(path.join(plugin, 'node_modules', '.cache', 'memtrust'))).toBe(false);
  }, 120_000);
});
