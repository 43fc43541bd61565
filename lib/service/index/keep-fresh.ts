/**
 * A long-running process's index keeper (docs/freshness.md): the dashboard and `memtrust
 * watch` scan when the watcher saw a change — shortly after it settles, or at the next read,
 * whichever comes first — and at least every few minutes for filesystems whose events are
 * unreliable. While clean, the watcher answers other processes that ask whether they may
 * skip their own rescan.
 */
import path from 'node:path';
import type { ServiceContext } from '../context';
import { scanSteps } from './scan-service';
import { runSteps, type Steps } from './steps';
import { startMonitor, type Monitor } from './monitor';
import type { ScanStats, WatchedRoot } from './scan';
import type { ListedFile, SourceInfo } from '../../sources';

/** Even with watchers, rescan at least this often (network drives, missed events). */
export const FALLBACK_SCAN_MS = 5 * 60_000;
/**
 * A change after a quiet spell is scanned this soon: one save is a few events within
 * milliseconds, and every page and the Context X-ray's plan made ahead wait for the scan.
 */
export const LEAD_MS = 25;
/** While changes keep coming (a sync, a checkout), at most one scan this often. */
export const SETTLE_MS = 300;

/** How soon the keeper scans after the index turned dirty, `since` ms after it last did. */
export function scanDelay(since: number): number {
  return since > SETTLE_MS ? LEAD_MS : SETTLE_MS;
}

export interface Keeper {
  /** Scan now when something changed (or the fallback interval passed); a scan made in steps is finished first. */
  fresh(): void;
  /**
   * One step of a scan made in steps (the dashboard's first scan, lib/server/first-scan.ts),
   * started when none is under way and something changed. True while steps are left; false
   * once the scan ended or there was nothing to scan.
   */
  step(): boolean;
  /** A scan of this keeper finished: the index reflects the disk as of that scan (docs/freshness.md). */
  readonly scanned: boolean;
  markDirty(): void;
  close(): void;
}

export function keepFresh(
  ctx: ServiceContext,
  opts: { onScan?: (stats: ScanStats) => void; onError?: (err: unknown) => void } = {},
): Keeper {
  let pending: NodeJS.Timeout | undefined;
  let scannedAt = 0;
  let scanned = false;
  let closed = false;
  /** When the index last turned dirty (the monitor calls `later` only then, not per event). */
  let dirtiedAt = Number.NEGATIVE_INFINITY;
  const later = () => {
    const t = Date.now();
    const delay = scanDelay(t - dirtiedAt);
    dirtiedAt = t;
    if (pending) clearTimeout(pending);
    pending = setTimeout(() => {
      pending = undefined;
      // A scan made in steps is under way: it is not hurried; the change is scanned after it (`step`).
      if (closed || stepping) return;
      try {
        keeper.fresh();
      } catch (err) {
        opts.onError?.(err);
      }
    }, delay);
    pending.unref();
  };
  const monitor: Monitor = startMonitor(ctx.config.dbPath, later);
  /** Each file root's listing at the last scan, kept for the next targeted rescan. */
  let listings = new Map<string, Map<string, ListedFile>>();
  /** The index's data_version after our last scan: unchanged means no other connection wrote since. */
  let version = -1;
  const dataVersion = () => Number(ctx.handle.sqlite.pragma('data_version', { simple: true }));
  /** The scan made in steps that is under way, if any. */
  let stepping: Steps<void> | null = null;
  const due = () => monitor.dirty || Date.now() - scannedAt > FALLBACK_SCAN_MS;
  function* scanning(): Steps<void> {
    const changed = monitor.dirty;
    let ok = false;
    let files = 0;
    const watched = new Map<string, WatchedRoot>();
    const next = new Map<string, Map<string, ListedFile>>();
    const rowsCurrent = version !== -1 && dataVersion() === version;
    try {
      const stats = yield* scanSteps(ctx, {
        // Watch first, then read: a change after the watch is an event, one before it is seen by the scan.
        beforeRead: function* (sources) {
          yield* monitor.watchSteps(sources);
          const named = monitor.beginScan();
          // The fallback scan (no event) lists everything: it is there for events that never came.
          if (changed && named)
            for (const [id, w] of targeted(sources, listings, named, rowsCurrent)) watched.set(id, w);
        },
        watched,
        onListed: (id, listed) => next.set(id, new Map(listed.map((f) => [f.relPath, f]))),
        // The kept listing, patched where events named files. A scan that fails drops every
        // listing (below), so patching in place never leaves a listing the disk did not have.
        onRelisted: (id, named, relisted) => {
          const kept = listings.get(id);
          if (!kept) return;
          for (const rel of named) kept.delete(rel);
          for (const f of relisted) kept.set(f.relPath, f);
          next.set(id, kept);
        },
      });
      listings = next;
      version = dataVersion();
      files = stats.files;
      ok = true;
      scanned = true;
      opts.onScan?.(stats);
    } finally {
      if (!ok) {
        listings = new Map();
        version = -1;
      }
      monitor.endScan(ok, files);
      scannedAt = Date.now();
    }
  }
  const keeper: Keeper = {
    fresh() {
      if (stepping) {
        // A page that cannot wait for the steps finishes them now.
        const rest = stepping;
        stepping = null;
        runSteps(rest);
      }
      if (due()) runSteps(scanning());
    },
    step() {
      if (!stepping) {
        if (closed || !due()) return false;
        stepping = scanning();
      }
      let done = true;
      try {
        done = stepping.next().done === true;
      } finally {
        if (done) {
          stepping = null; // ended, or failed (its `finally` ran)
          if (monitor.dirty && !closed) later(); // a change during the steps
        }
      }
      return !done;
    },
    get scanned() {
      return scanned;
    },
    markDirty: () => monitor.markDirty(),
    close() {
      closed = true;
      if (pending) clearTimeout(pending);
      // A scan left halfway ends as a failed one (its lease written, then dropped below).
      stepping?.return();
      stepping = null;
      monitor.close();
    },
  };
  return keeper;
}

/**
 * Targeted rescans (docs/freshness.md): for each file root listed at the last scan, only the
 * files events named since are looked at; the rest of that listing stands.
 */
function targeted(
  sources: SourceInfo[],
  listings: ReadonlyMap<string, ReadonlyMap<string, ListedFile>>,
  named: ReadonlySet<string>,
  rowsCurrent: boolean,
): Map<string, WatchedRoot> {
  const out = new Map<string, WatchedRoot>();
  for (const s of sources) {
    const last = listings.get(s.id);
    if (s.error || !last) continue;
    const root = `${path.join(s.root, '')}/`.replace(/\/\/$/, '/');
    const mine = new Set<string>();
    for (const p of named) if (p.startsWith(root)) mine.add(p.slice(root.length));
    out.set(s.id, { last, named: mine, rowsCurrent });
  }
  return out;
}
