/**
 * Which project a session belongs to (CONTRACT §4 "Scoped to the session's project";
 * docs/session-context.md, "One project"). The SessionStart hook reads Claude Code's hook
 * JSON on stdin (`cwd`, `source`, `session_id`), takes the git top level of `cwd` (found by
 * looking for `.git` upward, in-process: no git is spawned), else `cwd`, and the plan is
 * made of that project's folders and the user-level ones only (lib/sources/claude-home.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from '../../core/env';
import { projectOfRoot, rootBelongsTo } from '../../sources/claude-home';

/** Most bytes of hook JSON kept: a SessionStart payload is a few hundred. */
const STDIN_CAP = 1024 * 1024;
/**
 * How long the hook waits for stdin to end. Claude Code writes the JSON and closes the pipe
 * at once; a caller that leaves stdin open (a shell, a test harness) must not hang a session.
 */
export const STDIN_WAIT_MS = 300;

export interface SessionStart {
  cwd?: string;
  source?: string;
  sessionId?: string;
}

/** The fields of a SessionStart hook JSON; anything unreadable is simply absent. */
export function parseSessionStart(raw: string): SessionStart {
  if (raw.trim() === '') return {};
  let o: unknown;
  try {
    o = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return {};
  const r = o as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return { cwd: str(r.cwd), source: str(r.source), sessionId: str(r.session_id) };
}

/** stdin as text, bounded in size and time: empty for a TTY, whatever arrived when the wait ends. */
export function readHookStdin(stdin: NodeJS.ReadStream = process.stdin, waitMs = STDIN_WAIT_MS): Promise<string> {
  if (stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stdin.off('data', onData);
      stdin.off('end', finish);
      stdin.off('error', finish);
      // An open pipe would keep the process alive after the answer.
      stdin.pause();
      stdin.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (c: Buffer | string) => {
      const b = typeof c === 'string' ? Buffer.from(c) : c;
      total += b.length;
      if (total > STDIN_CAP) return finish();
      chunks.push(b);
    };
    const timer = setTimeout(finish, waitMs);
    stdin.on('data', onData);
    stdin.on('end', finish);
    stdin.on('error', finish);
  });
}

/** The git top level of `cwd` (the nearest folder upward holding `.git`, a folder or a worktree's file), else `cwd`. */
export function projectRoot(cwd: string): string {
  const start = path.resolve(cwd);
  for (let d = start; ; d = path.dirname(d)) {
    try {
      fs.lstatSync(path.join(d, '.git'));
      return d;
    } catch {
      // not here
    }
    if (path.dirname(d) === d) return start;
  }
}

/** The one line a session gets when nothing of its project (nor any user-level root) holds memories. */
export const NOTHING_FOR_PROJECT = 'memtrust: no memory folders for this project yet.\n';

/**
 * The roots a session in `project` reads, of `roots` (the dashboard's configured ones): the
 * user-level roots and that project's. `user` (the listings' filter of user-level roots) keeps
 * the user-level ones only.
 */
export function sessionRoots(roots: readonly string[], project: string, env: Env = process.env): string[] {
  if (project === 'user') return roots.filter((r) => projectOfRoot(r, env) === null);
  return roots.filter((r) => rootBelongsTo(r, project, env));
}
