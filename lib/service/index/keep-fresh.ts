/**
 * A long-running process's index keeper (docs/freshness.md): the dashboard and `memtrust
 * watch` scan when the watcher saw a change — shortly after it settles, or at the next read,
 * whichever comes first — and at least every few minutes for filesystems whose events are
 * unreliable. While clean, the watcher answers other processes that ask whether they may
 * skip their own rescan.
 */
import type { ServiceContext } from '../context';
import { scan } from './scan-service';
import { startMonitor, type Monitor } from './monitor';
import type { ScanStats } from './scan';

/** Even with watchers, rescan at least this often (network drives, missed events). */
export const FALLBACK_SCAN_MS = 5 * 60_000;
/** A burst of changes (a sync, a checkout) is scanned once, this long after it settles. */
const SETTLE_MS = 300;

export interface Keeper {
  /** Scan now when something changed (or the fallback interval passed). */
  fresh(): void;
  markDirty(): void;
  close(): void;
}

export function keepFresh(
  ctx: ServiceContext,
  opts: { onScan?: (stats: ScanStats) => void; onError?: (err: unknown) => void } = {},
): Keeper {
  let pending: NodeJS.Timeout | undefined;
  let scannedAt = 0;
  let closed = false;
  const later = () => {
    if (pending) clearTimeout(pending);
    pending = setTimeout(() => {
      pending = undefined;
      if (closed) return;
      try {
        keeper.fresh();
      } catch (err) {
        opts.onError?.(err);
      }
    }, SETTLE_MS);
    pending.unref();
  };
  const monitor: Monitor = startMonitor(ctx.config.dbPath, later);
  const keeper: Keeper = {
    fresh() {
      if (!monitor.dirty && Date.now() - scannedAt <= FALLBACK_SCAN_MS) return;
      let ok = false;
      let files = 0;
      try {
        const stats = scan(ctx, {
          // Watch first, then read: a change after the watch is an event, one before it is seen by the scan.
          beforeRead: (sources) => {
            monitor.watch(sources);
            monitor.beginScan();
          },
        });
        files = stats.files;
        ok = true;
        opts.onScan?.(stats);
      } finally {
        monitor.endScan(ok, files);
        scannedAt = Date.now();
      }
    },
    markDirty: () => monitor.markDirty(),
    close() {
      closed = true;
      if (pending) clearTimeout(pending);
      monitor.close();
    },
  };
  return keeper;
}
