/**
 * The kept session text made again after a write (text-refresh.ts; docs/session-context.md,
 * "Made again after a write"): after Claude Code wrote a memory and the stamp ran, the next
 * session start of that project answers from the kept text, and that answer is the planner's
 * own. Real stamp and SessionStart processes, CLI and plugin, on a generated Claude Code home.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClaudeHome } from '../../demo/claude-home';
import { encodeProjectPath } from '../../sources/claude-home';
import { CLI, childEnv, PROJECT } from '../test-support';
import { type Answer, hookAnswer, type Via, claudeTestHome } from './text-cache-harness';
import type { Entry } from './text-cache';

const NOW = '2026-11-01T10:00:00.000Z';
/** The refresher waits the racy window (0 here) and its margin. */
const fast = { MEMTRUST_SESSION_CACHE_RACY_MS: '0', MEMTRUST_NOW: NOW };
let tmp: string;
let env: Record<string, string>;
let config: string;
const A = () => path.join(tmp, 'x', 'app');
const B = () => path.join(tmp, 'x', 'other');
const memDir = (p: string) => path.join(config, 'projects', encodeProjectPath(p), 'memory');
const texts = () => path.join(tmp, 'data', 'memtrust', 'session-text');

const hook = (cwd: string, via: Via, extra: Record<string, string> = {}): Answer =>
  hookAnswer({ env, tmp }, cwd, { ...fast, ...extra }, via);

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Claude Code edits `file` in a session in `cwd`, then runs that installation's stamp. */
function claudeWrites(file: string, cwd: string, via: Via, extra: Record<string, string> = {}): void {
  fs.appendFileSync(file, `\nadded ${Math.random()}\n`);
  const args = via === 'cli' ? [CLI, 'hook', 'post-write'] : [path.join(PROJECT, 'dist', 'hooks', 'post-write.cjs')];
  const r = spawnSync(process.execPath, args, {
    // Claude Code sets CLAUDE_PROJECT_DIR for its hooks; a test run from inside one must not pass its own on.
    env: childEnv(env, { MEMTRUST_ROOT: '', CLAUDE_PROJECT_DIR: '', ...fast, ...extra }),
    input: JSON.stringify({
      session_id: 'writer',
      cwd,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: file },
      tool_response: {},
    }),
    encoding: 'utf8',
    cwd,
  });
  expect(r.status, r.stderr).toBe(0);
}

/** Waits out the refresher: its delay, then until its marker is gone. */
function settle(): void {
  sleep(700);
  const until = Date.now() + 15_000;
  while (Date.now() < until && fs.readdirSync(texts()).some((n) => n.endsWith('.pending'))) sleep(50);
  expect(fs.readdirSync(texts()).filter((n) => n.endsWith('.pending'))).toEqual([]);
}

const memoryOf = (p: string) =>
  path.join(
    memDir(p),
    fs
      .readdirSync(memDir(p))
      .filter((n) => n.endsWith('.md') && n !== 'MEMORY.md')
      .sort()[0]!,
  );

beforeAll(() => {
  ({ tmp, config, env } = claudeTestHome('memtrust-refresh-'));
  writeClaudeHome({
    configDir: config,
    seed: 9,
    now: new Date(NOW),
    projects: [
      { path: A(), memories: 10 },
      { path: B(), memories: 4 },
    ],
  });
  for (const p of [A(), B()]) fs.mkdirSync(p, { recursive: true });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each<Via>(['cli', 'plugin'])('the kept text after Claude Code wrote a memory (%s)', (via) => {
  it('is made again by the stamp: the next session start answers from it, as the planner would', () => {
    hook(A(), via); // the project's first session start: its text is kept
    expect(hook(A(), via).how).toBe('hit');
    claudeWrites(memoryOf(A()), A(), via);
    settle();
    const next = hook(A(), via);
    expect(next.how).toBe('hit');
    expect(next.out).toBe(hook(A(), via, { MEMTRUST_SESSION_CACHE: 'off' }).out);
  });

  it('starts one refresher for a burst of writes, which waits for the last one', () => {
    expect(hook(A(), via).how).toBe('hit');
    const pending = () => fs.readdirSync(texts()).filter((n) => n.endsWith('.pending'));
    // A window wide enough that the second stamp always comes inside the first one's delay.
    const slow = { MEMTRUST_SESSION_CACHE_RACY_MS: '3000' };
    claudeWrites(memoryOf(A()), A(), via, slow);
    expect(pending()).toHaveLength(1);
    const marker = path.join(texts(), pending()[0]!);
    const pid = fs.readFileSync(marker, 'utf8');
    claudeWrites(memoryOf(A()), A(), via, slow);
    // The second write touched the marker of the refresher already running: no second one.
    expect(fs.readFileSync(marker, 'utf8')).toBe(pid);
    settle();
    const next = hook(A(), via);
    expect(next.how).toBe('hit');
    expect(next.out).toBe(hook(A(), via, { MEMTRUST_SESSION_CACHE: 'off' }).out);
  });

  it('is made for the folder Claude Code started in (CLAUDE_PROJECT_DIR) when the shell moved to a subfolder', () => {
    const sub = path.join(A(), 'src');
    fs.mkdirSync(sub, { recursive: true });
    expect(hook(A(), via).how).toBe('hit');
    claudeWrites(memoryOf(A()), sub, via, { CLAUDE_PROJECT_DIR: A() });
    settle();
    expect(hook(A(), via).how).toBe('hit');
  });

  it('is not made again when the stamp is told not to (MEMTRUST_SESSION_REFRESH=off): the session start plans', () => {
    expect(hook(A(), via).how).toBe('hit');
    claudeWrites(memoryOf(A()), A(), via, { MEMTRUST_SESSION_REFRESH: 'off' });
    settle();
    expect(hook(A(), via).how).toBe('kept');
  });

  it('makes nothing for a project whose text was never kept', () => {
    const before = fs.readdirSync(texts()).length;
    claudeWrites(memoryOf(B()), B(), via);
    settle();
    expect(fs.readdirSync(texts()).length).toBe(before);
    for (const f of fs.readdirSync(texts())) {
      const e = JSON.parse(fs.readFileSync(path.join(texts(), f), 'utf8')) as Entry;
      expect(e.key).not.toContain(B());
    }
  });
});
