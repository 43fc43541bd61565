/** `memtrust hook install [--apply]` through the real CLI, with a temp HOME. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI, removeSandbox, runCli, sandbox, type Sandbox } from '../service/test-support';

let sb: Sandbox;
let home: string;
const settingsFile = () => path.join(home, '.claude', 'settings.json');
const run = (...args: string[]) => runCli(['hook', 'install', ...args], sb.env, { HOME: home });

beforeEach(() => {
  sb = sandbox('memtrust-install-');
  home = path.join(sb.tmp, 'home');
  fs.mkdirSync(home);
});
afterEach(() => removeSandbox(sb));

describe('hook install', () => {
  it('prints the three entries with absolute node and CLI paths, and their state', () => {
    const r = run();
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`${process.execPath} ${CLI} hook pre-write`);
    expect(r.stdout).toContain(`${CLI} hook post-write`);
    expect(r.stdout).toContain(`${CLI} context --format hook`);
    expect(r.stdout).toContain('"matcher": "Write|Edit|MultiEdit"');
    expect(r.stdout).toMatch(/PreToolUse\s+missing/);
    expect(fs.existsSync(settingsFile())).toBe(false);
  });

  it('--apply merges into settings.json keeping everything else, with a backup; a second run changes nothing', () => {
    fs.mkdirSync(path.dirname(settingsFile()));
    const original = {
      model: 'opus',
      env: { FOO: '1' },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/bash-guard' }] }] },
    };
    fs.writeFileSync(settingsFile(), JSON.stringify(original, null, 2));
    const r = run('--apply');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('backup at');
    const after = JSON.parse(fs.readFileSync(settingsFile(), 'utf8'));
    expect(after.model).toBe('opus');
    expect(after.env).toEqual({ FOO: '1' });
    expect(after.hooks.PreToolUse).toHaveLength(2);
    expect(after.hooks.PreToolUse[0]).toEqual(original.hooks.PreToolUse[0]);
    expect(after.hooks.PreToolUse[1]).toEqual({
      matcher: 'Write|Edit|MultiEdit',
      hooks: [{ type: 'command', command: `${process.execPath} ${CLI} hook pre-write`, timeout: 10 }],
    });
    expect(after.hooks.SessionStart[0].hooks[0].command).toBe(`${process.execPath} ${CLI} context --format hook`);
    const backups = fs
      .readdirSync(path.dirname(settingsFile()))
      .filter((n) => n.startsWith('settings.json.memtrust-backup-'));
    expect(backups).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(path.join(path.dirname(settingsFile()), backups[0]!), 'utf8'))).toEqual(original);

    const bytes = fs.readFileSync(settingsFile());
    const again = run('--apply');
    expect(again.stdout).toContain('already installed');
    expect(fs.readFileSync(settingsFile())).toEqual(bytes);
    expect(fs.readdirSync(path.dirname(settingsFile())).filter((n) => n.includes('backup'))).toHaveLength(1);
    expect(run().stdout).toMatch(/PostToolUse\s+installed/);
  });

  it('no settings file yet: created, no backup', () => {
    const r = run('--apply');
    expect(r.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(settingsFile(), 'utf8')).hooks.PostToolUse).toHaveLength(1);
  });

  it('a settings file that is not JSON is refused, untouched', () => {
    fs.mkdirSync(path.dirname(settingsFile()));
    fs.writeFileSync(settingsFile(), '{ "model": "opus", // a comment\n}');
    const r = run('--apply');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('not valid JSON');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(fs.readFileSync(settingsFile(), 'utf8')).toBe('{ "model": "opus", // a comment\n}');
  });

  it('an unknown option is a usage error', () => {
    expect(run('--force').status).toBe(64);
  });
});
