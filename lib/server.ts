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
import { loadConfig } from './config';
import { createContext, type ServiceContext } from './service/context';
import { ensureDemoRoot } from './service/settings/demo-root';
import { recoverAll, type RecoveryOutcome } from './service/write/recover';
import { keepFresh, type Keeper } from './service/index/keep-fresh';
import { forgetOwnerIdentity } from './identity';

interface WebState {
  ctx?: ServiceContext;
  keeper?: Keeper;
  recovery: RecoveryOutcome[];
}

const g = globalThis as unknown as { __memtrustWeb?: WebState };
g.__memtrustWeb ??= { recovery: [] };
const state: WebState = g.__memtrustWeb;

export function context(): ServiceContext {
  if (!state.ctx) {
    const config = loadConfig();
    if (config.demo) ensureDemoRoot(config.roots[0]!, config.now());
    const ctx = createContext(config);
    state.recovery = recoverAll(ctx);
    state.ctx = ctx;
  }
  return state.ctx;
}

/** The context with an index that reflects the disk (incremental scan when something changed). */
export function freshContext(): ServiceContext {
  const ctx = context();
  state.keeper ??= keepFresh(ctx, {
    onError: (err) => console.error(`memtrust: background scan failed: ${err instanceof Error ? err.message : err}`),
  });
  state.keeper.fresh();
  return ctx;
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
  state.ctx = undefined;
}
