/**
 * The binding `fs.lstatSync` itself calls, without the `fs.Stats` object and its four `Date`s
 * (about 38,000 instructions a call on Node 20: docs/performance.md, "The hooks"). Its answer is
 * the raw stat array (`[dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, atime s, ns,
 * mtime s, ns, ctime s, ns, …]`), which Node reuses for the next call: read it at once.
 *
 * Node's own, not a public API: null on Windows (whose paths Node rewrites first), where
 * `--pending-deprecation` would print a warning for `process.binding`, and wherever it is not
 * there. Callers check its first answer against `fs.lstatSync` (stat-quick.ts) or only compare
 * its answers with its own earlier ones (lib/service/session/text-cache.ts).
 */

/** `(path, throwIfNoEntry)`: with false, undefined for a path that is not there. */
export type RawLstat = (p: string, throwIfNoEntry: boolean) => ArrayLike<number> | undefined;

export function lstatBinding(): RawLstat | null {
  if (process.platform === 'win32') return null;
  const pending = (a: string) => a.includes('--pending-deprecation');
  if (process.execArgv.some(pending) || pending(process.env.NODE_OPTIONS ?? '')) return null;
  try {
    const b = (process as unknown as { binding(name: string): { lstat?: unknown } }).binding('fs');
    const lstat = b.lstat;
    if (typeof lstat !== 'function') return null;
    // (path, bigint, no request: synchronous, throwIfNoEntry): how fs.lstatSync calls it.
    return (p, throwIfNoEntry) => lstat.call(b, p, false, undefined, throwIfNoEntry) as ArrayLike<number> | undefined;
  } catch {
    return null;
  }
}

/**
 * The stats a session start's check of its kept text took (lib/service/session/text-cache.ts),
 * handed to the listing of the run that plans when that check failed (stat-quick.ts): a check
 * that meets the changed file late has lstat'ed most of the project's files, and the listing
 * would lstat them again a few milliseconds later (docs/session-context.md, "The kept text").
 * One flat array filled in place, so a check that holds costs no allocation per file; the
 * path → slot map is made only when the listing first asks. Each stat is given once. A global:
 * the check and the planner are two bundles, each with its own copy of this module.
 */
interface TakenStats {
  /** When the check began: a stat older than TAKEN_FOR_MS is not handed on. */
  since: number;
  paths: readonly string[];
  nums: Float64Array;
  have: Uint8Array;
  slots: Map<string, number> | null;
}

const TAKEN = Symbol.for('memtrust.lstat-taken');
/** The raw stat's fields a listing or a recording reads: dev, mode, …, ino, size, …, mtime and ctime (s, ns). */
export const TAKEN_FIELDS = 16;

/**
 * The planner runs right after the check; a stat older than this (a very slow machine) is taken
 * again instead: a listing answers for the files as they are when it runs.
 */
const TAKEN_FOR_MS = 2000;

type TakenGlobal = Record<symbol, TakenStats | undefined>;

/** Starts keeping the stats of `paths` (a check about to stat them, in any order). */
export function beginTakenStats(paths: readonly string[]): void {
  (globalThis as TakenGlobal)[TAKEN] = {
    since: Date.now(),
    paths,
    nums: new Float64Array(paths.length * TAKEN_FIELDS),
    have: new Uint8Array(paths.length),
    slots: null,
  };
}

/** Keeps the raw stat `a` of `paths[i]` (read at once: the binding reuses its array). */
export function keepTakenStat(i: number, a: ArrayLike<number>): void {
  const t = (globalThis as TakenGlobal)[TAKEN];
  if (!t || i >= t.have.length) return;
  const at = i * TAKEN_FIELDS;
  for (let k = 0; k < TAKEN_FIELDS; k++) t.nums[at + k] = a[k] ?? 0;
  t.have[i] = 1;
}

/** The stat a check took of `p`, once; undefined when it took none. */
export function takeTakenStat(p: string): ArrayLike<number> | undefined {
  const t = (globalThis as TakenGlobal)[TAKEN];
  if (!t) return undefined;
  if (Date.now() - t.since > TAKEN_FOR_MS) {
    endTakenStats();
    return undefined;
  }
  if (t.slots === null) {
    t.slots = new Map();
    for (let i = 0; i < t.paths.length; i++) if (t.have[i]) t.slots.set(t.paths[i]!, i);
  }
  const i = t.slots.get(p);
  if (i === undefined) return undefined;
  t.slots.delete(p);
  return t.nums.subarray(i * TAKEN_FIELDS, (i + 1) * TAKEN_FIELDS);
}

/** Forgets the stats kept (a check that held, or tests). */
export function endTakenStats(): void {
  (globalThis as TakenGlobal)[TAKEN] = undefined;
}
