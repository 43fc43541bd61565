/**
 * Sessions see their own project only (CONTRACT §4 "Scoped to the session's project";
 * docs/session-context.md "One project"), through the real CLI: Claude Code's hook JSON on
 * stdin, a home of three projects built in a temp folder, no root configured.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClaudeHome } from '../../demo/claude-home';
import { encodeProjectPath } from '../../sources/claude-home';
import { CLI, childEnv } from '../test-support';

const NOW = new Date('2026-11-01T00:00:00Z');
let tmp: string;
let x: string;
let env: Record<string, string>;
let config: string;
const APP = () => path.join(x, 'my.app');
const NOTES = () => path.join(x, 'notes app');
const PLAIN = () => path.join(x, 'plain');

function run(args: string[], input: string | undefined, extra: Record<string, string> = {}, cwd = tmp) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: childEnv(env, { MEMTRUST_ROOT: '', MEMTRUST_NOW: NOW.toISOString(), ...extra }),
    input,
    encoding: 'utf8',
    cwd,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function hookText(input: string | undefined, extra: Record<string, string> = {}, cwd = tmp): string {
  const r = run(['context', '--format', 'hook'], input, extra, cwd);
  expect(r.status).toBe(0);
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
}

const hookJson = (cwd: string) =>
  JSON.stringify({ session_id: 's-9', cwd, source: 'startup', hook_event_name: 'SessionStart' });

/** Every memory file name under a folder (the names a leak would show). */
function names(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.md') && n !== 'MEMORY.md') : [];
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-scope-')));
  x = path.join(tmp, 'x');
  config = path.join(tmp, 'cc-config');
  // A moved config dir: ~/.claude stays empty.
  env = {
    HOME: path.join(tmp, 'home'),
    CLAUDE_CONFIG_DIR: config,
    XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
    XDG_DATA_HOME: path.join(tmp, 'data'),
  };
  writeClaudeHome({
    configDir: config,
    seed: 11,
    now: NOW,
    projects: [
      { path: APP(), memories: 6, agents: ['tester'] },
      { path: NOTES(), memories: 5, transcript: false },
      { path: PLAIN(), memories: 4, localAgents: ['scratch'] },
      { path: path.join(x, 'gone-away'), memories: 3, exists: false },
    ],
    userAgents: [{ name: 'reviewer', memories: 2 }],
  });
  fs.mkdirSync(path.join(APP(), 'src', 'deep'), { recursive: true });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the SessionStart hook in one project', () => {
  it('loads that project’s folders and the user-level ones, and nothing of another project', () => {
    const text = hookText(hookJson(path.join(APP(), 'src', 'deep')));
    const own = [
      ...names(path.join(config, 'projects', encodeProjectPath(APP()), 'memory')),
      ...names(path.join(APP(), '.claude', 'agent-memory', 'tester')),
    ];
    const user = names(path.join(config, 'agent-memory', 'reviewer'));
    expect(own.length).toBeGreaterThan(0);
    // Its own folders are there (at least by their section headers and some names).
    expect(text).toContain(encodeProjectPath(APP()));
    expect(text).toContain('agent-memory/tester');
    expect(text).toContain('agent-memory/reviewer');
    expect(own.concat(user).some((n) => text.includes(n))).toBe(true);
    // No other project's name, folder, file name (a name the session's own folders also hold is theirs).
    const mine = new Set([...own, ...user]);
    const theirs = (dir: string) => names(dir).filter((n) => !mine.has(n));
    let checked = 0;
    for (const other of [NOTES(), PLAIN(), path.join(x, 'gone-away')]) {
      expect(text).not.toContain(path.basename(other));
      expect(text).not.toContain(encodeProjectPath(other));
      for (const n of theirs(path.join(config, 'projects', encodeProjectPath(other), 'memory'))) {
        expect(text).not.toContain(n);
        checked++;
      }
    }
    for (const n of theirs(path.join(PLAIN(), '.claude', 'agent-memory-local', 'scratch')))
      expect(text).not.toContain(n);
    expect(checked).toBeGreaterThan(5);
    expect(text).not.toContain('scratch');
  });

  it('says the same with the other projects gone from the disk: no count of theirs reaches the text', () => {
    const before = hookText(hookJson(APP()));
    const aside = path.join(tmp, 'aside');
    fs.mkdirSync(aside);
    const moved = [NOTES(), PLAIN(), path.join(x, 'gone-away')].map((p) =>
      path.join(config, 'projects', encodeProjectPath(p)),
    );
    for (const [i, p] of moved.entries()) fs.renameSync(p, path.join(aside, String(i)));
    fs.renameSync(PLAIN(), path.join(aside, 'plain-project'));
    try {
      expect(hookText(hookJson(APP()))).toBe(before);
    } finally {
      for (const [i, p] of moved.entries()) fs.renameSync(path.join(aside, String(i)), p);
      fs.renameSync(path.join(aside, 'plain-project'), PLAIN());
    }
  });

  it('`context --project DIR` prints the text the hook gives a session there', () => {
    const hook = hookText(hookJson(NOTES()));
    const r = run(['context', '--project', NOTES()], undefined);
    expect(r.status).toBe(0);
    expect(`${r.stdout}`).toBe(hook);
    expect(hook).toContain(encodeProjectPath(NOTES()));
    expect(hook).not.toContain(encodeProjectPath(APP()));
  });

  it('with nothing for the project: one line, never an error about a demo root', () => {
    const bare = { ...env, CLAUDE_CONFIG_DIR: path.join(tmp, 'empty-config') };
    const elsewhere = path.join(tmp, 'elsewhere');
    fs.mkdirSync(elsewhere, { recursive: true });
    const r = spawnSync(process.execPath, [CLI, 'context', '--format', 'hook'], {
      env: childEnv(bare, { MEMTRUST_ROOT: '' }),
      input: hookJson(elsewhere),
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const text = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
      .additionalContext;
    expect(text).toBe('memtrust: no memory folders for this project yet.\n');
    expect(r.stdout).not.toContain('demo');
    expect(fs.existsSync(path.join(tmp, 'data', 'memtrust', 'demo-root'))).toBe(false);
  });

  it('empty stdin: the project of the directory it runs in', () => {
    const text = hookText('', {}, path.join(APP(), 'src'));
    expect(text).toContain(encodeProjectPath(APP()));
    expect(text).not.toContain(encodeProjectPath(PLAIN()));
    // Not JSON either: the same.
    expect(hookText('not json', {}, path.join(APP(), 'src'))).toBe(text);
  });

  it('never hangs on a stdin nobody closes', async () => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, 'context', '--format', 'hook'], {
      env: childEnv(env, { MEMTRUST_ROOT: '' }),
      cwd: APP(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(JSON.parse(out).hookSpecificOutput.additionalContext).toContain(encodeProjectPath(APP()));
  });

  it('configured roots are scoped too: another project’s folder among them never reaches the text', () => {
    const roots = [APP(), PLAIN()].map((p) => path.join(config, 'projects', encodeProjectPath(p), 'memory'));
    const text = hookText(hookJson(APP()), { MEMTRUST_ROOT: roots.join(path.delimiter) });
    expect(text).toContain(encodeProjectPath(APP()));
    expect(text).not.toContain(encodeProjectPath(PLAIN()));
    // Generated names may repeat across folders (the seed holds the temp path): only names the
    // other project alone has can show a leak.
    const own = new Set(names(roots[0]!));
    for (const n of names(roots[1]!).filter((x) => !own.has(x))) expect(text).not.toContain(n);
  });
});

describe('the home as the CLI lists it', () => {
  it('`roots --json` names each folder’s project and whether it exists', () => {
    const r = run(['roots', '--json'], undefined);
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout) as {
      origin: string;
      configured: { root: string; project: { path: string; exists: boolean } | null }[];
    };
    expect(j.origin).toBe('claude-home');
    const by = new Map(j.configured.map((c) => [path.relative(tmp, c.root), c.project]));
    expect(by.get('cc-config/agent-memory/reviewer')).toBeNull();
    expect(by.get(`cc-config/projects/${encodeProjectPath(NOTES())}/memory`)).toEqual({ path: NOTES(), exists: true });
    expect(by.get(`cc-config/projects/${encodeProjectPath(path.join(x, 'gone-away'))}/memory`)).toEqual({
      path: path.join(x, 'gone-away'),
      exists: false,
    });
    expect(by.get('x/plain/.claude/agent-memory-local/scratch')).toEqual({ path: PLAIN(), exists: true });
    expect(j.configured).toHaveLength(7);
  });

  it('`list --json` items carry project; `list --project DIR` keeps that project’s', () => {
    const all = JSON.parse(run(['list', '--json'], undefined).stdout) as {
      total: number;
      items: { project: { path: string } | null }[];
    };
    expect(all.items.every((i) => 'project' in i)).toBe(true);
    const one = JSON.parse(run(['list', '--json', '--project', PLAIN()], undefined).stdout) as typeof all;
    expect(one.total).toBeGreaterThan(0);
    expect(one.total).toBeLessThan(all.total);
    expect(one.items.every((i) => i.project?.path === PLAIN())).toBe(true);
    expect(one.total).toBe(all.items.filter((i) => i.project?.path === PLAIN()).length);
    const first = one.items[0] as unknown as { root: string; file: string };
    const shown = JSON.parse(run(['show', '--json', path.join(first.root, first.file)], undefined).stdout) as {
      project: { path: string };
    };
    expect(shown.project.path).toBe(PLAIN());
  });
});
