/**
 * One writer per root at a time, across processes (dashboard + CLI): an
 * exclusive-create lock file holding the owner's pid. A lock whose process is
 * gone (killed mid-transition) is taken over; recovery then runs under it.
 */
import fs from 'node:fs';
import path from 'node:path';

export class LockTimeoutError extends Error {
  readonly code = 'locked';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

export function lockPath(root: string, machine: string): string {
  return path.join(root, '.memtrust', `lock.${machine}`);
}

/** Runs `fn` holding the root's lock; waits up to `timeoutMs` for another writer. */
export function withRootLock<T>(root: string, machine: string, fn: () => T, timeoutMs = 15_000): T {
  const file = lockPath(root, machine);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let fd: number | undefined;
  for (let attempt = 0; fd === undefined; attempt++) {
    try {
      fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number.parseInt(safeRead(file), 10);
      if (Number.isFinite(holder) && holder !== process.pid && !alive(holder)) {
        // Stale: its process died. Remove only if it is still that same stale file.
        if (safeRead(file) === String(holder)) fs.rmSync(file, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new LockTimeoutError(`another memtrust process is writing to ${root}; try again in a moment`);
      sleepMs(Math.min(5 + attempt * 2, 50));
    }
  }
  try {
    return fn();
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
}

function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}
