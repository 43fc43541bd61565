/**
 * The dashboard's first scan after a restart, off the first page (docs/freshness.md, "The
 * dashboard's first scan").
 *
 * A server that starts over a complete index used to scan every folder and place its watchers
 * inside the first request: 1.6 s of lstat's and comparisons, and more with 220 folders to
 * watch, before the overview of a Claude Code home of 200 projects could render. The overview
 * now renders from the index as it is, says the index is being refreshed, and the scan runs
 * once no request is being answered. Everything else (other pages, actions, the polls of open
 * pages) still waits for a scan, as before.
 */
import { FILE_ENTRY } from '../../db/queries/entry-kind';
import type { ServiceContext } from '../service/context';

/**
 * Below this many rows the first scan costs less than a tenth of a second (about what a
 * command's question to the watcher is worth, docs/freshness.md): the page waits for it.
 */
export const FIRST_SCAN_LAG_MIN = 2000;

/**
 * The index is one a finished scan left (meta `last_scan`), holds a row for at least as
 * many files as each root lists (`unindexed` from the first-index gate is 0), and is large
 * enough for its scan to be worth not waiting for: the page it renders is the last scan's
 * view of every root. A root with files the index never saw (a new root, a sync since) is
 * not: that page scans first, as before.
 */
export function indexComplete(ctx: ServiceContext, unindexed: number, minRows = FIRST_SCAN_LAG_MIN): boolean {
  if (unindexed !== 0) return false;
  const sqlite = ctx.handle.sqlite;
  if (sqlite.prepare("SELECT 1 FROM meta WHERE key = 'last_scan'").get() === undefined) return false;
  return (sqlite.prepare(`SELECT count(*) FROM entries WHERE ${FILE_ENTRY}`).pluck().get() as number) >= minRows;
}

/** Wait this long before looking again while requests are answered. */
export const RETRY_MS = 20;
/**
 * At start-up the scan waits this long first: a page asked for as soon as the address is
 * printed is rendered before the scan, not after it. Until the scan ends the watcher
 * vouches for nothing, so a command meanwhile scans itself, as before any scan of the keeper.
 */
export const START_DELAY_MS = 1000;

/**
 * Runs `step` when no request is being answered (`busy`), again and again while it returns
 * true, so the scan never sits between a request and its response: between two steps (the
 * scan pauses after each root, lib/service/index/scan.ts) the server answers what came in, and
 * while a request is being answered the next step waits. `step` decides itself whether
 * anything is left to do (a request that could not wait may have finished the scan meanwhile).
 */
export function scanOffRequests(
  step: () => boolean,
  busy: () => boolean,
  retryMs = RETRY_MS,
  /** Not before this long from now (start-up: a page asked for with the browser opened at once comes first). */
  delayMs = 0,
): { readonly pending: boolean; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Immediate | undefined;
  const run = () => {
    timer = undefined;
    soon = undefined;
    if (busy()) {
      timer = setTimeout(run, retryMs);
      return;
    }
    // After the I/O that came in meanwhile: a request that arrived is counted before the next step.
    if (step()) soon = setImmediate(run);
  };
  timer = setTimeout(run, delayMs);
  return {
    get pending() {
      return timer !== undefined || soon !== undefined;
    },
    cancel() {
      if (timer) clearTimeout(timer);
      if (soon) clearImmediate(soon);
      timer = undefined;
      soon = undefined;
    },
  };
}
