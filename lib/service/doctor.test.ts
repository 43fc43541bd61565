/**
 * `memtrust doctor` through the real CLI with a temp HOME (docs/install.md, "Checking an
 * install"): nothing installed, settings hooks alone, the plugin and settings hooks together
 * (every hook would run twice) fixed by `memtrust hook uninstall`, and a hook left pointing
 * at a deleted install.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeSandbox, runCli, sandbox, type Sandbox } from './test-support';

let sb: Sandbox;
let home: string;
const settingsFile = () => path.join(home, '.claude', 'settings.json');
const doctor = (...args: string[]) => runCli(['doctor', ...args], sb.env, { HOME: home });
const json = (r: { stdout: string }) => JSON.parse(r.stdout);

/** The plugin as Claude Code records an install (installed_plugins.json version 2 and the cached copy). */
function installPlugin(version: string, marketplace = 'memtrust'): string {
  const installPath = path.join(home, '.claude', 'plugins', 'cache', marketplace, 'memtrust', version);
  fs.mkdirSync(path.join(installPath, '.claude-plugin'), { recursive: true });
  fs.writeFileSync(
    path.join(installPath, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name: 'memtrust', version }),
  );
  const file = path.join(home, '.claude', 'plugins', 'installed_plugins.json');
  const cur = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { version: 2, plugins: {} };
  cur.plugins[`memtrust@${marketplace}`] = [
    { scope: 'user', installPath, version, installedAt: '2026-11-20T10:00:00.000Z' },
  ];
  fs.writeFileSync(file, JSON.stringify(cur, null, 2));
  return installPath;
}

const version = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')).version;

beforeEach(() => {
  sb = sandbox('memtrust-doctor-');
  home = path.join(sb.tmp, 'home');
  fs.mkdirSync(path.join(sb.root, 'memories'), { recursive: true });
  fs.mkdirSync(home);
});
afterEach(() => removeSandbox(sb));

describe('memtrust doctor', () => {
  it('nothing installed: exit 1, the problem and both ways to install; roots, index and data directory named', () => {
    const r = doctor();
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('Claude Code plugin: not installed');
    expect(r.stdout).toContain('no memtrust hooks are installed');
    // This clone holds the marketplace file: Claude Code can add it as a local marketplace.
    expect(fs.existsSync(path.join(process.cwd(), '.claude-plugin', 'marketplace.json'))).toBe(true);
    expect(r.stdout).toContain(`fix: in Claude Code: /plugin marketplace add ${process.cwd()}, then /plugin install`);
    expect(r.stdout).toContain('memtrust hook install --apply');
    expect(r.stdout).toContain(sb.root);
    expect(r.stdout).toContain(`index: ${sb.db}`);
    expect(r.stdout).toContain(`data directory: ${path.join(sb.tmp, 'data', 'memtrust')}`);
    const j = json(doctor('--json'));
    expect(j).toMatchObject({ healthy: false, version, plugin: [], roots: [{ root: sb.root, error: null }] });
    // Reading only: no index, no settings file appeared.
    expect(fs.existsSync(sb.db)).toBe(false);
    expect(fs.existsSync(settingsFile())).toBe(false);
  });

  it('settings hooks alone: healthy, exit 0', () => {
    expect(runCli(['hook', 'install', '--apply'], sb.env, { HOME: home }).status).toBe(0);
    const r = doctor();
    expect(r.stdout).toContain('healthy: nothing to fix');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /settings hooks in .*: SessionStart installed, PreToolUse installed, PostToolUse installed/,
    );
  });

  it('the plugin alone: healthy, its version shown', () => {
    installPlugin(version);
    const r = doctor();
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toContain(`Claude Code plugin: memtrust@memtrust ${version}`);
    expect(json(doctor('--json')).plugin).toEqual([
      expect.objectContaining({ id: 'memtrust@memtrust', version, scope: 'user', enabled: true }),
    ]);
  });

  it('plugin and settings hooks: duplicates, exit 1, fixed by memtrust hook uninstall (other hooks kept)', () => {
    installPlugin(version);
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    fs.writeFileSync(
      settingsFile(),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/bin/guard' }] }] },
      }),
    );
    expect(runCli(['hook', 'install', '--apply'], sb.env, { HOME: home }).status).toBe(0);
    const r = doctor();
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("memtrust's hooks are registered twice");
    expect(r.stdout).toContain('fix: memtrust hook uninstall');
    const u = runCli(['hook', 'uninstall'], sb.env, { HOME: home });
    expect(u.status).toBe(0);
    expect(u.stdout).toContain('memtrust hooks removed; backup at');
    const after = JSON.parse(fs.readFileSync(settingsFile(), 'utf8'));
    expect(after.hooks).toEqual({
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/bin/guard' }] }],
    });
    expect(doctor().status).toBe(0);
    expect(runCli(['hook', 'uninstall'], sb.env, { HOME: home }).stdout).toContain('nothing changed');
  });

  it('two plugin installs, an older plugin version, a hook pointing at a deleted install: each named with its fix', () => {
    installPlugin('0.0.1', 'memtrust');
    installPlugin(version, 'other-market');
    const r = json(doctor('--json'));
    const problems = (r.problems as { problem: string; fix: string }[]).map((p) => `${p.problem} => ${p.fix}`);
    expect(problems.some((p) => p.includes('installed 2 times') && p.includes('/plugin uninstall'))).toBe(true);
    expect(problems.some((p) => p.includes('version 0.0.1') && p.includes('/plugin update memtrust@memtrust'))).toBe(
      true,
    );

    fs.rmSync(path.join(home, '.claude', 'plugins'), { recursive: true });
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    const gone = path.join(sb.tmp, 'old-clone', 'lib', 'cli', 'memtrust.cjs');
    const cmd = (what: string) => ({ type: 'command', command: `${process.execPath} ${gone} ${what}` });
    fs.writeFileSync(
      settingsFile(),
      JSON.stringify({
        hooks: {
          SessionStart: [{ hooks: [cmd('context --format hook')] }],
          PreToolUse: [{ matcher: 'Write|Edit|MultiEdit', hooks: [cmd('hook pre-write')] }],
          PostToolUse: [{ matcher: 'Write|Edit|MultiEdit', hooks: [cmd('hook post-write')] }],
        },
      }),
    );
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.stdout).toContain(`runs ${gone}, which does not exist`);
    expect(d.stdout).toContain('fix: memtrust hook install --apply');
    expect(runCli(['hook', 'install', '--apply'], sb.env, { HOME: home }).status).toBe(0);
    expect(doctor().status).toBe(0);
  });
});
