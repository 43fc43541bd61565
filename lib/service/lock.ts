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

/** When this process last released each lock (for fairness, below). */
const releasedAt = new Map<string, number>();

function othersWaiting(file: string): boolean {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.waiting-`;
  try {
    // A marker whose process died (killed while waiting) does not count, and is cleared.
    return fs.readdirSync(dir).some((n) => {
      if (!n.startsWith(prefix) || n === `${prefix}${process.pid}`) return false;
      if (alive(Number(n.slice(prefix.length)))) return true;
      fs.rmSync(path.join(dir, n), { force: true });
      return false;
    });
  } catch {
    return false;
  }
}

/**
 * Runs `fn` holding the root's lock; waits up to `timeoutMs` for another writer.
 * Fair enough for a dashboard and a CLI loop sharing a root: waiters leave a marker,
 * and a process that has just released the lock steps back while someone waits,
 * so a long `backfill --apply` cannot starve a click.
 */
export function withRootLock<T>(root: string, machine: string, fn: () => T, timeoutMs = 15_000): T {
  const file = lockPath(root, machine);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  const marker = `${file}.waiting-${process.pid}`;
  let marked = false;
  const last = releasedAt.get(file);
  if (last !== undefined && Date.now() - last < 20 && othersWaiting(file)) sleepMs(20);
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
      if (Date.now() > deadline) {
        if (marked) fs.rmSync(marker, { force: true });
        throw new LockTimeoutError(`another memtrust process is writing to ${root}; try again in a moment`);
      }
      if (!marked) {
        fs.writeFileSync(marker, '');
        marked = true;
      }
      sleepMs(Math.min(2 + attempt, 20));
    }
  }
  if (marked) fs.rmSync(marker, { force: true });
  try {
    return fn();
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    releasedAt.set(file, Date.now());
  }
}

function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}
