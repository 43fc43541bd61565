/**
 * Claude Code's hook JSON on stdin, read bounded in size and time (docs/session-context.md, "One
 * project"). A module of its own: the hooks' small entries read stdin before the planner's bundle
 * is loaded (text-cache.ts) and hand what they read on through `setHookStdin`.
 */
import fs from 'node:fs';

/** Most bytes of hook JSON kept: a SessionStart payload is a few hundred. */
const STDIN_CAP = 1024 * 1024;
/**
 * How long the hook waits for stdin to end. Claude Code writes the JSON and closes the pipe
 * at once; a caller that leaves stdin open (a shell, a test harness) must not hang a session.
 */
export const STDIN_WAIT_MS = 300;

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
  const g = globalThis as Record<symbol, string | undefined>;
  const handed = g[HANDED_ON];
  if (handed !== undefined) {
    g[HANDED_ON] = undefined;
    return Promise.resolve(handed);
  }
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

/**
 * What an entry already read from stdin, returned once by the next readHookStdin: a global, as
 * the entry and the planner are separate bundles, each with its own copy of this module.
 */
const HANDED_ON = Symbol.for('memtrust.hook-stdin');

export function setHookStdin(text: string): void {
  (globalThis as Record<symbol, string | undefined>)[HANDED_ON] = text;
}
