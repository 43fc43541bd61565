/**
 * The kept session text's test harness (text-cache.test.ts, text-cache-holes.test.ts,
 * text-refresh.test.ts): a real CLI or plugin SessionStart process on a home in a temp folder,
 * and what it says on stderr with MEMTRUST_SESSION_CACHE=explain (docs/session-context.md,
 * "The kept text").
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { CLI, childEnv, PROJECT } from '../test-support';

export const PLUGIN = path.join(PROJECT, 'dist', 'hooks', 'session-start.cjs');
export type Via = 'cli' | 'plugin';

/** Where the hooks run: the home's environment and the folder they start in. */
export interface KeptHome {
  env: Record<string, string>;
  tmp: string;
}

/** A Claude Code home in a new temp folder: its config folder `cc/`, and the environment that points there. */
export function claudeTestHome(prefix: string): KeptHome & { config: string } {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const config = path.join(tmp, 'cc');
  const env = {
    HOME: path.join(tmp, 'home'),
    CLAUDE_CONFIG_DIR: config,
    XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
    XDG_DATA_HOME: path.join(tmp, 'data'),
  };
  return { tmp, config, env };
}

/** One session start in `cwd`, as Claude Code feeds it (no root configured). */
export function runHook(home: KeptHome, cwd: string, extra: Record<string, string> = {}, via: Via = 'cli') {
  const args = via === 'cli' ? [CLI, 'context', '--format', 'hook'] : [PLUGIN];
  return spawnSync(process.execPath, args, {
    env: childEnv(home.env, { MEMTRUST_ROOT: '', MEMTRUST_SESSION_CACHE: 'explain', ...extra }),
    input: JSON.stringify({ session_id: `s-${Math.random()}`, cwd, source: 'startup' }),
    encoding: 'utf8',
    cwd: home.tmp,
  });
}

export interface Answer {
  out: string;
  /** 'hit' (answered from the kept text), 'kept' (planned and kept), else why not kept (or stderr). */
  how: string;
  stderr: string;
}

/** runHook, which must exit 0, and how it answered. */
export function hookAnswer(home: KeptHome, cwd: string, extra: Record<string, string> = {}, via: Via = 'cli'): Answer {
  const r = runHook(home, cwd, extra, via);
  expect(r.status, r.stderr).toBe(0);
  const how = /session text from /.test(r.stderr)
    ? 'hit'
    : /session text kept: /.test(r.stderr)
      ? 'kept'
      : (/session text not kept: (.*)/.exec(r.stderr)?.[1] ?? r.stderr);
  return { out: r.stdout, how, stderr: r.stderr };
}
