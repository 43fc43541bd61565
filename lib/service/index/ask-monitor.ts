/**
 * The asking side of the freshness protocol (docs/freshness.md): may this process use the
 * index as it is, without the stat of every file? Only when a live watcher of the same roots
 * answers our cookie with "clean" and no watched directory moved since its last scan.
 * Anything else — no watcher, another set of roots, a small index, a late or "dirty"
 * answer — says no, and the caller scans as before.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SourceInfo } from '../../sources';
import { type Answer, answerPath, type Lease, leasePath, monitorKey, watchDir } from './monitor-files';

/** Below this many files a rescan costs less than asking. */
export const ASK_MIN_FILES = 2000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

/** How long to wait for the answer: a fraction of what the rescan it saves would cost (≈ 5 µs a file). */
export function answerTimeoutMs(files: number): number {
  return Math.min(250, Math.max(20, Math.round(files * 0.0025)));
}

function readJson<T>(p: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(p, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function indexVouched(dbPath: string, sources: SourceInfo[]): boolean {
  const lease = readJson<Lease>(leasePath(dbPath));
  const key = monitorKey(sources);
  if (!lease || lease.pid === process.pid || lease.key !== key || !(lease.files >= ASK_MIN_FILES)) return false;
  if (!alive(lease.pid)) return false;
  const cookie = path.join(watchDir(dbPath), `q-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  try {
    fs.closeSync(fs.openSync(cookie, 'wx', 0o600));
  } catch {
    return false;
  }
  let answer: Answer | undefined;
  const deadline = performance.now() + answerTimeoutMs(lease.files);
  try {
    for (;;) {
      answer = readJson<Answer>(answerPath(cookie));
      if (answer || performance.now() > deadline) break;
      sleep(1);
    }
  } finally {
    fs.rmSync(cookie, { force: true });
    fs.rmSync(answerPath(cookie), { force: true });
  }
  if (!answer?.clean || answer.key !== key) return false;
  // Events can be lost (a full inotify queue drops them silently): a directory whose mtime
  // moved although the watcher saw nothing is caught here.
  for (const [dir, mtime] of answer.stamps) {
    let now = -1;
    try {
      now = fs.statSync(dir).mtimeMs;
    } catch {
      // absent, as stamped or not
    }
    if (now !== mtime) return false;
  }
  return true;
}
