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
import { recorder } from './text-cache';

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

export { readHookStdin, readHookStdinStream, STDIN_WAIT_MS } from './hook-stdin';

/** The git top level of `cwd` (the nearest folder upward holding `.git`, a folder or a worktree's file), else `cwd`. */
export function projectRoot(cwd: string): string {
  const start = path.resolve(cwd);
  // Only whether `.git` is there matters: git changes its folder's stat at every command (text-cache.ts).
  const rec = recorder();
  for (let d = start; ; d = path.dirname(d)) {
    const git = path.join(d, '.git');
    let found = true;
    try {
      if (rec) rec.quiet(() => fs.lstatSync(git));
      else fs.lstatSync(git);
    } catch {
      found = false;
    }
    if (rec) {
      // Found by lstat, so a dangling `.git` link counts, which existsSync (what an existence
      // dependency is checked with) does not see: only a `.git` existsSync sees is kept by its
      // presence; anything else by its lstat ([] while nothing is there).
      if (found && rec.quiet(() => fs.existsSync(git))) rec.exists(git, true);
      else rec.file(git);
    }
    if (found) return d;
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
