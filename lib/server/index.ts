/**
 * Web composition root: one service context per server process, built from the
 * environment. Pages and actions reach the service only through here.
 *
 * Freshness (docs/freshness.md): directory watchers mark the index dirty when files change
 * (the assistant writes a memory, a sync pulls); a scan follows shortly after, or at the next
 * read, whichever comes first. While the index is clean, the watcher answers CLI processes
 * that ask whether they may skip their own rescan. A periodic scan covers filesystems where
 * watching is unreliable.
 */
import 'server-only';
import { loadConfig } from '../core/config';
import { createContext, type ServiceContext } from '../service/context';
import { ensureDemoRoot } from '../service/settings/demo-root';
import { recoverAll, type RecoveryOutcome } from '../service/write/recover';
import { keepFresh, type Keeper } from '../service/index/keep-fresh';
import { forgetOwnerIdentity } from '../core/identity';
import { redirect } from 'next/navigation';
import { backgroundMin, type FirstIndex, startFirstIndex, unindexedFiles } from './first-index';
import { contextWarmer } from './context-warm';
import { requestsInFlight } from './in-flight';
import { contextView, type ContextView } from '../service/session/context-view';
import { originReader, type OriginReader } from '../service/origin/origin-reader';
import { indexComplete, RETRY_MS, START_DELAY_MS, scanOffRequests } from './first-scan';
import { withSharedReads } from '../sources/read-dir';
import { takeStartConfig } from './start-config';

interface WebState {
  ctx?: ServiceContext;
  keeper?: Keeper;
  recovery: RecoveryOutcome[];
  /** The first index running in the background (docs/first-index.md); null once decided against or done. */
  first?: FirstIndex | null;
  /** Makes the Context X-ray's plan ahead while it is looked at (docs/session-context.md, "Made before it is asked for"). */
  warmer?: ReturnType<typeof contextWarmer>;
  /** Reads session transcripts off the requests (docs/origin.md "In the dashboard"). */
  origins?: OriginReader;
  /** Files the roots held beyond the index's rows when the server started (first-index gate). */
  unindexed?: number;
  /** The keeper's first scan, waiting for no request in flight (docs/freshness.md, "The dashboard's first scan"). */
  firstScan?: ReturnType<typeof scanOffRequests> | null;
}

/** Where every page goes while the first index of a large root runs. */
const INDEXING_PATH = '/indexing';

const g = globalThis as unknown as { __memtrustWeb?: WebState };
g.__memtrustWeb ??= { recovery: [] };
const state: WebState = g.__memtrustWeb;
state.warmer ??= contextWarmer(warmContext, { busy: () => requestsInFlight() > 0 });
const warmer = state.warmer;
state.origins ??= originReader(
  () => state.ctx,
  (e) => console.error(`memtrust: reading session transcripts failed: ${e instanceof Error ? e.message : e}`),
);
const origins = state.origins;

export function context(): ServiceContext {
  if (!state.ctx) {
    // The first context takes the configuration start-up has just read (lib/server/start-config.ts).
    const config = takeStartConfig() ?? loadConfig();
    if (config.demo) ensureDemoRoot(config.roots[0]!, config.now());
    const ctx = createContext(config);
    state.recovery = recoverAll(ctx);
    state.ctx = ctx;
  }
  return state.ctx;
}

/**
 * The context with an index that reflects the disk (incremental scan when something changed).
 * `mayLag`: the overview only. Before the server's first scan over a complete index, it
 * renders from the index as the last scan left it while that scan runs off the requests
 * (docs/freshness.md, "The dashboard's first scan"); `indexRefreshing()` says so.
 */
export function freshContext(opts: { mayLag?: boolean; delayMs?: number } = {}): ServiceContext {
  // The roots' layouts and the gate's count read the same folders: once (lib/sources/read-dir.ts).
  const ctx = withSharedReads(() => {
    const c = context();
    if (!state.keeper) firstIndexGate(c);
    return c;
  });
  state.keeper ??= keepFresh(ctx, {
    onScan: (stats) => {
      warmer.changed();
      // Rows whose transcript is not in the cache yet: read in the background, never on this request.
      if (stats.originRows?.pending) origins.kick();
    },
    onError: (err) => console.error(`memtrust: background scan failed: ${err instanceof Error ? err.message : err}`),
  });
  if (opts.mayLag && !state.keeper.scanned && state.firstScan !== null && indexComplete(ctx, state.unindexed ?? -1)) {
    state.firstScan ??= scanOffRequests(firstScanStep, () => requestsInFlight() > 0, RETRY_MS, opts.delayMs);
    return ctx;
  }
  state.keeper.fresh();
  // A page or an action may be about to write; the plan is made after it, off this request.
  warmer.changed();
  return ctx;
}

/**
 * At start-up (GET /keeper, lib/server/main.ts): the keeper watches from now on. Over a
 * complete index the first scan waits for no request in flight, as behind the overview; else it
 * runs here. A first index in a child process (docs/first-index.md) is started, not waited for.
 */
export function startKeeping(): void {
  try {
    freshContext({ mayLag: true, delayMs: START_DELAY_MS });
  } catch (e) {
    if (state.first?.running) return; // the gate's redirect: the child indexes
    console.error(`memtrust: background scan failed: ${e instanceof Error ? e.message : e}`);
  }
}

/**
 * One step of the first scan, off the requests (a root at a time, so a page asked for meanwhile
 * is answered between two); true while steps are left. A request that could not wait may have
 * finished it already.
 */
function firstScanStep(): boolean {
  const keeper = state.keeper;
  if (!keeper || keeper.scanned) return false;
  try {
    if (keeper.step()) return true;
    warmer.changed();
  } catch (e) {
    // Every page scans in its request from now on, so the failure shows the way any scan failure shows.
    state.firstScan = null;
    console.error(`memtrust: background scan failed: ${e instanceof Error ? e.message : e}`);
  }
  return false;
}

/** The overview was rendered from the index before the server's first scan finished. */
export function indexRefreshing(): boolean {
  return !!state.keeper && !state.keeper.scanned;
}

/** A page showed "reading the session transcript…": read it (and whatever rows wait) in the background. */
export function readOriginsSoon(transcripts: readonly string[] = []): void {
  origins.kick(transcripts);
}

/** The Context X-ray is on screen (rendered, or an open tab polling): its plan is made ahead for a while. */
export function contextShown(): void {
  warmer.viewed();
}

/** The Context X-ray's plan and table order, noting that the page is being looked at. */
export function shownContextView(ctx: ServiceContext, project?: string): ContextView {
  contextShown();
  return contextView(ctx, process.env, project);
}

/** Off any request: brings the index up to date and makes the plan the page would make. */
function warmContext(): void {
  const ctx = state.ctx;
  if (!ctx || !state.keeper || state.first?.running) return;
  try {
    state.keeper.fresh();
    contextView(ctx);
  } catch (e) {
    console.error(`memtrust: making the context plan ahead failed: ${e instanceof Error ? e.message : e}`);
  }
}

/**
 * Before the dashboard's first scan: a large root without rows is indexed by a child process
 * while every page shows its progress (docs/first-index.md). Redirects while it runs; returns
 * when there is nothing to wait for, and the scan then runs here as always (after a failed
 * child too, so its error shows the usual way).
 */
function firstIndexGate(ctx: ServiceContext): void {
  if (state.first === undefined) {
    const files = unindexedFiles(ctx);
    state.unindexed = files;
    state.first = null;
    if (files >= backgroundMin()) {
      try {
        state.first = startFirstIndex(files, (job) => {
          if (job.error) console.error(`memtrust: background first index failed: ${job.error}`);
          // The roots changed while it ran (settings): the next page decides again for the new ones.
          if (state.ctx !== ctx && state.first === job) state.first = undefined;
        });
      } catch (e) {
        console.error(`memtrust: background first index failed: ${e instanceof Error ? e.message : e}`);
      }
    }
  }
  if (state.first?.running) redirect(INDEXING_PATH);
}

/** The first index running in the background, or null (docs/first-index.md). */
export function firstIndexProgress(): FirstIndex | null {
  return state.first?.running ? state.first : null;
}

/** After a write through the service the index is already current; other changes come via watchers. */
export function markDirty(): void {
  state.keeper?.markDirty();
}

export function recoveryOutcomes(): RecoveryOutcome[] {
  return state.recovery;
}

/** Settings changed (roots, owner): the next request rebuilds the context from them. */
export function resetContext(): void {
  forgetOwnerIdentity();
  state.keeper?.close();
  state.keeper = undefined;
  state.firstScan?.cancel();
  state.firstScan = undefined;
  state.unindexed = undefined;
  state.ctx = undefined;
  // New roots may need a first index of their own; one still running goes on (its roots' rows stay useful).
  if (!state.first?.running) state.first = undefined;
}
