/**
 * The Claude Code home as one source (CONTRACT §8; LAYOUTS §2; docs/roots.md "The Claude Code
 * home"): discovery, project decoding, scoping, on homes built in temp folders.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeClaudeHome } from '../demo/claude-home';
import { loadConfig } from '../core/config';
import { describeSource } from '.';
import {
  claudeConfigDir,
  decodeProject,
  encodeProjectPath,
  homeFolders,
  projectHomeFolders,
  projectOfRoot,
  rootBelongsTo,
  targetHomeRoots,
} from './claude-home';
import { STORE_FILE } from './governed/types';

const NOW = new Date('2026-11-01T00:00:00Z');
let tmp: string;
let env: Record<string, string>;
let config: string;
let x: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-home-')));
  x = path.join(tmp, 'x');
  env = { HOME: path.join(tmp, 'home'), XDG_CONFIG_HOME: path.join(tmp, 'cfg'), XDG_DATA_HOME: path.join(tmp, 'data') };
  config = path.join(tmp, 'home', '.claude');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Three projects (a dot, a space, plain), one gone, agent memory of both kinds. */
function threeProjects(configDir = config) {
  writeClaudeHome({
    configDir,
    seed: 7,
    now: NOW,
    projects: [
      { path: path.join(x, 'my.app'), memories: 4, agents: ['tester'] },
      // No transcript: the path is found by walking the disk.
      { path: path.join(x, 'notes app'), memories: 3, transcript: false },
      { path: path.join(x, 'plain'), memories: 2, localAgents: ['scratch'] },
      { path: path.join(x, 'gone-away'), memories: 2, exists: false },
    ],
    userAgents: [{ name: 'reviewer', memories: 2 }],
  });
}

describe('the Claude Code home', () => {
  it('finds every folder, each with its project decoded and whether it exists', () => {
    threeProjects();
    const found = homeFolders(env).map((f) => ({ root: path.relative(tmp, f.root), role: f.role, project: f.project }));
    expect(found).toEqual([
      { root: 'home/.claude/agent-memory/reviewer', role: 'user-agent-memory', project: null },
      {
        root: `home/.claude/projects/${encodeProjectPath(path.join(x, 'gone-away'))}/memory`,
        role: 'project-memory',
        project: { path: path.join(x, 'gone-away'), exists: false },
      },
      {
        root: `home/.claude/projects/${encodeProjectPath(path.join(x, 'my.app'))}/memory`,
        role: 'project-memory',
        project: { path: path.join(x, 'my.app'), exists: true },
      },
      {
        root: 'x/my.app/.claude/agent-memory/tester',
        role: 'project-agent-memory',
        project: { path: path.join(x, 'my.app'), exists: true },
      },
      {
        root: `home/.claude/projects/${encodeProjectPath(path.join(x, 'notes app'))}/memory`,
        role: 'project-memory',
        project: { path: path.join(x, 'notes app'), exists: true },
      },
      {
        root: `home/.claude/projects/${encodeProjectPath(path.join(x, 'plain'))}/memory`,
        role: 'project-memory',
        project: { path: path.join(x, 'plain'), exists: true },
      },
      {
        root: 'x/plain/.claude/agent-memory-local/scratch',
        role: 'project-agent-memory-local',
        project: { path: path.join(x, 'plain'), exists: true },
      },
    ]);
  });

  it('is the configuration when no root is configured; the demo root only on a machine with none', () => {
    expect(loadConfig({ env }).demo).toBe(true);
    threeProjects();
    const c = loadConfig({ env });
    expect(c.demo).toBe(false);
    expect(c.rootsOrigin).toBe('claude-home');
    expect(c.roots).toHaveLength(7);
    // Each root is described with its project (roots --json, every record's `project`).
    const gone = c.roots.find((r) => r.includes('gone-away'))!;
    expect(describeSource(gone, env).project).toEqual({ path: path.join(x, 'gone-away'), exists: false });
    expect(describeSource(gone, env).layout).toBe('claude-code');
    // Configured roots win over the home.
    const own = path.join(tmp, 'own');
    expect(loadConfig({ env: { ...env, MEMTRUST_ROOT: own } }).roots).toEqual([own]);
  });

  it('follows CLAUDE_CONFIG_DIR, and then ignores ~/.claude', () => {
    const moved = path.join(tmp, 'elsewhere', 'cc');
    threeProjects(moved);
    writeClaudeHome({
      configDir: config,
      seed: 8,
      now: NOW,
      projects: [{ path: path.join(x, 'old'), memories: 1 }],
    });
    const e = { ...env, CLAUDE_CONFIG_DIR: moved };
    expect(claudeConfigDir(e)).toBe(moved);
    const roots = homeFolders(e).map((f) => f.root);
    expect(roots.filter((r) => r.startsWith(moved))).toHaveLength(5);
    expect(roots.some((r) => r.includes('old'))).toBe(false);
    // An empty memory/ folder there is still Claude Code's (not an empty trust-model root).
    const empty = path.join(moved, 'projects', '-nowhere', 'memory');
    fs.mkdirSync(empty, { recursive: true });
    const prev = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = moved;
    try {
      expect(describeSource(empty).layout).toBe('claude-code');
    } finally {
      if (prev === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = prev;
    }
  });

  it('decodes by the transcripts first; two paths with one encoding are told apart by them', () => {
    // `my.app` and `my app` share Claude Code's folder name.
    const dot = path.join(x, 'my.app');
    const space = path.join(x, 'my app');
    expect(encodeProjectPath(dot)).toBe(encodeProjectPath(space));
    fs.mkdirSync(dot, { recursive: true });
    fs.mkdirSync(space, { recursive: true });
    const projects = path.join(config, 'projects');
    const folder = path.join(projects, encodeProjectPath(space));
    fs.mkdirSync(folder, { recursive: true });
    // The transcript's session started below the project: its ancestor with the encoding is taken.
    fs.writeFileSync(
      path.join(folder, 'a.jsonl'),
      `${JSON.stringify({ type: 'summary' })}\n${JSON.stringify({ type: 'user', cwd: path.join(space, 'src') })}\n`,
    );
    expect(decodeProject(projects, encodeProjectPath(space))).toEqual({ path: space, exists: true });
    // With no transcript, the disk walk finds one of the existing paths.
    const other = path.join(tmp, 'other-home', 'projects');
    fs.mkdirSync(path.join(other, encodeProjectPath(dot)), { recursive: true });
    expect([dot, space]).toContain(decodeProject(other, encodeProjectPath(dot)).path);
    // Nothing on disk and no transcript: the naive reading, said not to exist.
    fs.mkdirSync(path.join(other, '-zz-no-such-place'), { recursive: true });
    expect(decodeProject(other, '-zz-no-such-place')).toEqual({ path: '/zz/no/such/place', exists: false });
  });

  it('adds a project’s canonical and codeclone stores, and autoMemoryDirectory as a user-level folder', () => {
    threeProjects();
    const plain = path.join(x, 'plain');
    fs.mkdirSync(path.join(plain, '.claude', 'memory'), { recursive: true });
    fs.writeFileSync(path.join(plain, '.claude', 'memory', 'decisions.md'), '# Decisions\n');
    fs.writeFileSync(path.join(plain, '.claude', 'memory', 'landmarks.md'), '# Landmarks\n');
    fs.mkdirSync(path.join(plain, '.codeclone', 'memory'), { recursive: true });
    fs.writeFileSync(path.join(plain, '.codeclone', 'memory', STORE_FILE), '');
    const auto = path.join(tmp, 'auto-mem');
    fs.mkdirSync(auto);
    fs.writeFileSync(path.join(auto, 'MEMORY.md'), '');
    fs.writeFileSync(path.join(config, 'settings.json'), JSON.stringify({ autoMemoryDirectory: auto }));
    const folders = homeFolders(env);
    const role = (r: string) => folders.find((f) => f.root === r);
    expect(role(path.join(plain, '.claude', 'memory'))).toMatchObject({ role: 'canonical', project: { path: plain } });
    expect(role(path.join(plain, '.codeclone', 'memory'))).toMatchObject({
      role: 'governed',
      project: { path: plain },
    });
    expect(role(auto)).toEqual({ root: auto, role: 'auto-memory-directory', project: null });
    expect(projectOfRoot(auto, env)).toBeNull();
    expect(projectOfRoot(plain, env)).toEqual({ path: plain, exists: true });
  });

  it('gives a write only the roots on its own path, the same ones the whole home has there, reading no other project', () => {
    threeProjects();
    const all = homeFolders(env).map((f) => f.root);
    const user = [path.join(config, 'agent-memory', 'reviewer')];
    const plain = path.join(x, 'plain');
    const plainMem = path.join(config, 'projects', encodeProjectPath(plain), 'memory');
    const scratch = path.join(plain, '.claude', 'agent-memory-local', 'scratch');
    const cases: [string, string[]][] = [
      [path.join(plainMem, 'feedback_new.md'), [...user, plainMem]],
      [path.join(scratch, 'project_x.md'), [...user, scratch]],
      [path.join(config, 'agent-memory', 'reviewer', 'a.md'), user],
      [path.join(x, 'my.app', 'README.md'), user],
      ['', user],
    ];
    for (const [file, want] of cases) {
      expect(targetHomeRoots(file, env), file).toEqual(want);
      // Every root of the whole home that holds the file is among them.
      for (const r of all) if (file.startsWith(`${r}${path.sep}`)) expect(want).toContain(r);
    }
    // Through a symlinked config folder, and with no root configured, the guard's configuration.
    const link = path.join(tmp, 'claude-link');
    fs.symlinkSync(config, link);
    expect(targetHomeRoots(path.join(link, 'projects', encodeProjectPath(plain), 'memory', 'n.md'), env)).toEqual([
      ...user,
      plainMem,
    ]);
    expect(loadConfig({ env, target: path.join(x, 'elsewhere.md') })).toMatchObject({
      roots: user,
      rootsOrigin: 'claude-home',
    });
    const touched: string[] = [];
    const spies = (['readdirSync', 'statSync', 'lstatSync', 'existsSync', 'openSync', 'readFileSync'] as const).map(
      (name) => {
        const real = fs[name] as (...a: unknown[]) => unknown;
        return vi.spyOn(fs, name).mockImplementation(((p: unknown, ...rest: unknown[]) => {
          touched.push(String(p));
          return real.call(fs, p, ...rest);
        }) as never);
      },
    );
    try {
      targetHomeRoots(path.join(scratch, 'project_x.md'), env);
    } finally {
      for (const sp of spies) sp.mockRestore();
    }
    const others = ['my.app', 'notes app', 'gone-away'].map((n) =>
      path.join(config, 'projects', encodeProjectPath(path.join(x, n))),
    );
    expect(touched.filter((t) => others.some((o) => t === o || t.startsWith(`${o}${path.sep}`)))).toEqual([]);
  });

  it('scopes to one project without reading the other projects’ folders', () => {
    threeProjects();
    const app = path.join(x, 'my.app');
    const scoped = projectHomeFolders(app, env).map((f) => f.root);
    expect(scoped).toEqual([
      path.join(config, 'agent-memory', 'reviewer'),
      path.join(config, 'projects', encodeProjectPath(app), 'memory'),
      path.join(app, '.claude', 'agent-memory', 'tester'),
    ]);
    // Nothing of another project is opened, listed or even looked at.
    const touched: string[] = [];
    const spies = (['readdirSync', 'statSync', 'lstatSync', 'existsSync', 'openSync', 'readFileSync'] as const).map(
      (name) => {
        const real = fs[name] as (...a: unknown[]) => unknown;
        return vi.spyOn(fs, name).mockImplementation(((p: unknown, ...rest: unknown[]) => {
          touched.push(String(p));
          return real.call(fs, p, ...rest);
        }) as never);
      },
    );
    try {
      expect(projectHomeFolders(app, env).map((f) => f.root)).toEqual(scoped);
    } finally {
      for (const s of spies) s.mockRestore();
    }
    expect(touched.length).toBeGreaterThan(0);
    const others = ['notes app', 'plain', 'gone-away'].flatMap((n) => [
      path.join(x, n),
      path.join(config, 'projects', encodeProjectPath(path.join(x, n))),
    ]);
    expect(touched.filter((t) => others.some((o) => t === o || t.startsWith(`${o}${path.sep}`)))).toEqual([]);
    expect(touched).not.toContain(path.join(config, 'projects'));
    // Configured roots: the user-level ones and the project's own are kept.
    const all = homeFolders(env).map((f) => f.root);
    expect(all.filter((r) => rootBelongsTo(r, app, env))).toEqual(scoped);
    const c = loadConfig({ env: { ...env, MEMTRUST_ROOT: all.join(path.delimiter) }, project: app });
    expect(c.roots).toEqual(scoped);
    // A project with nothing: the user-level folders only, never the demo root.
    const none = loadConfig({ env, project: path.join(tmp, 'empty-project') });
    expect(none.roots).toEqual([path.join(config, 'agent-memory', 'reviewer')]);
    expect(none.demo).toBe(false);
  });
});
