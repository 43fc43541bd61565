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

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Milliseconds of a monotonic clock. Not `performance.now()`: the global `performance` is made
 * on first use by loading node:perf_hooks, about 4 M instructions of every session start
 * (docs/performance.md, "The hooks").
 */
function monoMs(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}

/**
 * stdin as text, bounded in size and time: empty for a terminal, whatever arrived when the
 * wait ends. Read from fd 0 without `process.stdin`, whose stream modules cost a session
 * start about 20 M instructions (docs/performance.md, "The hooks"): a file is read to its
 * end; a pipe or socket (Claude Code, a Node.js program, hands over a socket) is made
 * non-blocking first — what `process.stdin` itself does to it — so an empty read returns
 * at once instead of waiting for a writer that may never close it. Where that cannot be done
 * (no such binding in this Node.js), the stream reader below.
 */
export function readHookStdin(waitMs = STDIN_WAIT_MS): Promise<string> {
  let st: fs.Stats;
  try {
    st = fs.fstatSync(0);
  } catch {
    return Promise.resolve(''); // no fd 0 at all
  }
  // A character device is a terminal, or /dev/null, which holds nothing anyway.
  if (st.isFile()) return Promise.resolve(readFd(Number.POSITIVE_INFINITY));
  if (!st.isFIFO() && !st.isSocket()) return Promise.resolve('');
  if (!nonBlocking()) return readHookStdinStream(process.stdin, waitMs);
  return Promise.resolve(readFd(monoMs() + waitMs));
}

/**
 * Sets O_NONBLOCK on fd 0 as Node.js does when it makes `process.stdin` for a pipe
 * (libuv's `uv_pipe_open`), without the stream. The handle is never closed, so fd 0 stays open.
 */
function nonBlocking(): boolean {
  try {
    const bind = (process as unknown as { binding(name: string): unknown }).binding('pipe_wrap') as {
      Pipe: new (type: number) => { open(fd: number): number };
      constants: { SOCKET: number };
    };
    return new bind.Pipe(bind.constants.SOCKET).open(0) === 0;
  } catch {
    return false;
  }
}

/** Reads fd 0 until its end, STDIN_CAP bytes or `deadline` (monoMs()), waiting 1 ms whenever nothing is there yet. */
function readFd(deadline: number): string {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(0, buf, 0, Math.min(buf.length, STDIN_CAP - total), null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if ((code === 'EAGAIN' || code === 'EWOULDBLOCK') && monoMs() < deadline) {
        Atomics.wait(sleeper, 0, 0, 1);
        continue;
      }
      break; // the wait is over, or stdin failed: what arrived
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
    total += n;
    if (total >= STDIN_CAP) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** stdin as text through a stream, bounded in size and time (where fd 0 cannot be made non-blocking). */
export function readHookStdinStream(stdin: NodeJS.ReadStream, waitMs = STDIN_WAIT_MS): Promise<string> {
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
