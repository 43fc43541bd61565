/**
 * One writer per root at a time, across processes (dashboard + CLI), with a lock
 * that recovers by itself (docs/crash-safety.md, "The root lock").
 *
 * The lock file `<root>/.memtrust/lock.<machine>` names its owner — pid, host,
 * process start time, a fresh nonce — and is complete and fsynced before it
 * counts as held: the record is written to a temp file, fsynced, then linked to
 * the lock name (link never clobbers). A lock is broken, with a note beside the
 * audit trail (`<root>/.memtrust/audit/<machine>.notes.log`), when its owner is
 * gone: the pid is not running, or is running but started at another time (a pid
 * reused after a reboot), or it is this process's own lock from an operation that
 * was cut short; or when it is empty or unreadable and older than a few seconds
 * (written by an earlier version and cut short). Breakers take a short guard lock
 * so two of them cannot remove a fresh lock that replaced a stale one.
 */
import { metaDir } from '../meta/places';
import { auditDir } from '../audit/audit-log';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  appendDurable,
  fsyncDir,
  linkNoClobber,
  mkdirp,
  sweepDeadWriters,
  unlinkIfExists,
  writeFileDurable,
} from './fs-atomic';

export class LockTimeoutError extends Error {
  readonly code = 'locked';
}

/** An empty or unreadable lock younger than this may still be being written (earlier versions). */
export const STALE_UNREADABLE_MS = 5_000;

interface Owner {
  v: 1;
  pid: number;
  host: string;
  /** Process start time in clock ticks since boot (/proc/<pid>/stat field 22), null where unknown. */
  start: number | null;
  nonce: string;
  at: string;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's start time in clock ticks since boot, from /proc; null where there is no /proc. */
export function processStart(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: count from the last ')'.
    const n = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(n) ? n : null;
  } catch {
    return null;
  }
}

/** Wall-clock ms at which a process started (boot time + start ticks at 100 Hz), or null. */
function processStartedAtMs(pid: number): number | null {
  const ticks = processStart(pid);
  if (ticks === null) return null;
  try {
    const btime = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'));
    return btime ? Number(btime[1]) * 1000 + ticks * 10 : null;
  } catch {
    return null;
  }
}

const HOST = os.hostname();
const MY_START = processStart(process.pid);

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

export function lockPath(root: string, machine: string): string {
  return path.join(metaDir(root), `lock.${machine}`);
}

export function notesFile(root: string, machine: string): string {
  return path.join(auditDir(root), `${machine}.notes.log`);
}

/** Locks this process holds right now: lock file → nonce. */
const held = new Map<string, string>();

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

function readLock(file: string): { raw: string; mtimeMs: number } | null {
  try {
    const raw = fs.readFileSync(file, 'utf8');
    return { raw, mtimeMs: fs.statSync(file).mtimeMs };
  } catch {
    return null; // gone meanwhile
  }
}

function parseOwner(raw: string): Partial<Owner> | null {
  const text = raw.trim();
  if (/^\d+$/.test(text)) return { pid: Number(text) }; // earlier versions: a bare pid
  try {
    const o = JSON.parse(text) as Partial<Owner>;
    return o && typeof o === 'object' && Number.isInteger(o.pid) ? o : null;
  } catch {
    return null;
  }
}

type Verdict = { stale: false } | { stale: true; why: string; owner: Partial<Owner> | null };

/** Whether the lock (or temp lock record) `raw`, last written at `mtimeMs`, still has a live owner. */
function judge(file: string, raw: string, mtimeMs: number): Verdict {
  const owner = parseOwner(raw);
  if (!owner) {
    if (Date.now() - mtimeMs < STALE_UNREADABLE_MS) return { stale: false };
    return {
      stale: true,
      why: raw.trim()
        ? 'unreadable lock file older than a few seconds'
        : 'empty lock file older than a few seconds (its writer was cut short)',
      owner: null,
    };
  }
  const pid = owner.pid!;
  if (owner.host && owner.host !== HOST) return { stale: false }; // another host's process cannot be judged from here
  if (pid === process.pid && (owner.start == null || owner.start === MY_START)) {
    if (owner.nonce && held.get(file) === owner.nonce) return { stale: false };
    return { stale: true, why: 'left by this process from an operation that was cut short', owner };
  }
  if (!alive(pid)) return { stale: true, why: `its process (pid ${pid}) is not running`, owner };
  if (owner.start != null) {
    const now = processStart(pid);
    if (now !== null && now !== owner.start)
      return { stale: true, why: `pid ${pid} now belongs to another process (started at a different time)`, owner };
    return { stale: false };
  }
  // No start time recorded (earlier versions): a process that started after the lock was written cannot own it.
  const started = processStartedAtMs(pid);
  if (started !== null && started > mtimeMs + 2_000)
    return { stale: true, why: `pid ${pid} started after the lock was written (the pid was reused)`, owner };
  return { stale: false };
}

function appendNote(root: string, machine: string, note: Record<string, unknown>): void {
  const file = notesFile(root, machine);
  mkdirp(path.dirname(file));
  // Wall-clock time on purpose: the note records when the lock was really broken.
  appendDurable(file, Buffer.from(`${JSON.stringify({ v: 1, at: new Date().toISOString(), machine, ...note })}\n`));
}

/** A temp record lives for microseconds: one older than this is an orphan whatever its name says. */
const ORPHAN_MS = 30_000;

/**
 * Temp lock records (`lock.<machine>.<pid>-<nonce>.tmp`) and break guards whose writer
 * is gone: its pid (in the name, as the record may be cut short) is not running, or is
 * this process outside an acquisition, or the record is old.
 */
function sweepOrphans(file: string): void {
  const dir = path.dirname(file);
  const base = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const temp = new RegExp(`^${base}\\.(?:break\\.)?(\\d+)-[0-9a-f]+\\.tmp$`);
  const gone = (pid: number, p: string): boolean => {
    if (path.basename(p) === acquiring) return false;
    let mtime: number;
    try {
      mtime = fs.statSync(p).mtimeMs;
    } catch {
      return false; // gone meanwhile
    }
    return pid === process.pid || !alive(pid) || Date.now() - mtime > ORPHAN_MS;
  };
  sweepDeadWriters(dir, temp, gone, unlinkIfExists);
  const guard = `${file}.break`;
  const rec = readLock(guard);
  if (rec && judge(guard, rec.raw, rec.mtimeMs).stale) unlinkIfExists(guard);
}

/** This process's own temp record for an acquisition in progress (its file name). */
let acquiring: string | null = null;

/** Removes a stale lock if it is still the very record judged stale; one breaker at a time. */
function breakStale(
  root: string,
  machine: string,
  file: string,
  seen: string,
  verdict: Extract<Verdict, { stale: true }>,
  record: Buffer,
): void {
  const guard = `${file}.break`;
  if (!linkNoClobberRecord(guard, record)) {
    const g = readLock(guard);
    if (g && judge(guard, g.raw, g.mtimeMs).stale) unlinkIfExists(guard);
    return; // another breaker is at work (or was, and its guard is gone now): look again
  }
  try {
    const again = readLock(file);
    if (!again || again.raw !== seen) return;
    unlinkIfExists(file);
    fsyncDir(path.dirname(file));
    appendNote(root, machine, {
      note: 'lock-broken',
      lock: path.basename(file),
      why: verdict.why,
      owner: verdict.owner,
      by: { pid: process.pid, host: HOST },
    });
    sweepOrphans(file);
  } finally {
    unlinkIfExists(guard);
  }
}

/** Creates `file` holding `record` (complete, fsynced) unless it exists. */
function linkNoClobberRecord(file: string, record: Buffer): boolean {
  const tmp = `${file}.${process.pid}-${crypto.randomBytes(6).toString('hex')}.tmp`;
  writeFileDurable(tmp, record);
  try {
    return linkNoClobber(tmp, file);
  } finally {
    unlinkIfExists(tmp);
  }
}

/**
 * At start-up (recovery): a stale lock of this machine is broken now, with its note,
 * and orphaned temp records go, so a root never stays blocked until the next write.
 * A lock with a live owner is left alone.
 */
export function tidyLock(root: string, machine: string): void {
  const file = lockPath(root, machine);
  const record = Buffer.from(
    JSON.stringify({
      v: 1,
      pid: process.pid,
      host: HOST,
      start: MY_START,
      nonce: crypto.randomBytes(12).toString('hex'),
      at: new Date().toISOString(),
    }),
  );
  // A few looks: the first may only clear a break guard left by a breaker that was killed.
  for (let i = 0; i < 3; i++) {
    const cur = readLock(file);
    if (!cur) break;
    const verdict = judge(file, cur.raw, cur.mtimeMs);
    if (!verdict.stale) break;
    breakStale(root, machine, file, cur.raw, verdict, record);
  }
  sweepOrphans(file);
}

/**
 * Runs `fn` holding the root's lock; waits up to `timeoutMs` for another writer
 * (0: one look — a stale lock is still broken). Fair enough for a dashboard and a
 * CLI loop sharing a root: waiters leave a marker, and a process that has just
 * released the lock steps back while someone waits, so a long `backfill --apply`
 * cannot starve a click.
 */
export function withRootLock<T>(root: string, machine: string, fn: () => T, timeoutMs = 15_000): T {
  const file = lockPath(root, machine);
  mkdirp(path.dirname(file));
  const deadline = Date.now() + timeoutMs;
  const marker = `${file}.waiting-${process.pid}`;
  let marked = false;
  const last = releasedAt.get(file);
  if (last !== undefined && Date.now() - last < 20 && othersWaiting(file)) sleepMs(20);
  const nonce = crypto.randomBytes(12).toString('hex');
  const owner: Owner = { v: 1, pid: process.pid, host: HOST, start: MY_START, nonce, at: new Date().toISOString() };
  const record = Buffer.from(JSON.stringify(owner));
  const tmp = `${file}.${process.pid}-${nonce}.tmp`;
  acquiring = path.basename(tmp);
  try {
    // The owner is on disk, complete and fsynced, before the lock name points at it.
    writeFileDurable(tmp, record);
    for (let attempt = 0; ; attempt++) {
      if (linkNoClobber(tmp, file)) break;
      const cur = readLock(file);
      if (!cur) continue; // released meanwhile
      const verdict = judge(file, cur.raw, cur.mtimeMs);
      if (verdict.stale) {
        breakStale(root, machine, file, cur.raw, verdict, record);
        continue;
      }
      if (Date.now() >= deadline) {
        if (marked) fs.rmSync(marker, { force: true });
        throw new LockTimeoutError(`another memtrust process is writing to ${root}; try again in a moment`);
      }
      if (!marked) {
        fs.writeFileSync(marker, '');
        marked = true;
      }
      sleepMs(Math.min(2 + attempt, 20));
    }
  } finally {
    acquiring = null;
    unlinkIfExists(tmp);
  }
  held.set(file, nonce);
  if (marked) fs.rmSync(marker, { force: true });
  sweepOrphans(file); // temp records of writers killed while taking the lock
  try {
    return fn();
  } finally {
    held.delete(file);
    // Only our own lock is removed (never one that replaced it).
    const cur = readLock(file);
    if (cur && parseOwner(cur.raw)?.nonce === nonce) unlinkIfExists(file);
    releasedAt.set(file, Date.now());
  }
}

/**
 * `withRootLock` for callers that answer with a value: a root another process keeps busy
 * past the timeout is a refusal (code `locked`, exit 2), never an exception.
 */
export function withRootLockOrBusy<T>(
  root: string,
  machine: string,
  fn: () => T,
): T | { ok: false; code: 'locked'; message: string } {
  try {
    return withRootLock(root, machine, fn);
  } catch (e) {
    if (e instanceof LockTimeoutError)
      return {
        ok: false,
        code: 'locked',
        message: `${root}: another memtrust process is writing; try again in a moment`,
      };
    throw e;
  }
}
