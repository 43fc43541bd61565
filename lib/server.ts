/**
 * Web composition root: one service context per server process, built from the
 * environment. Pages and actions reach the service only through here.
 *
 * Freshness: directory watchers mark the index dirty when files change (the
 * assistant writes a memory, a sync pulls); the next read runs an incremental
 * scan. A periodic scan covers filesystems where watching is unreliable.
 */
import 'server-only';
import { loadConfig } from './config';
import { createContext, type ServiceContext } from './service/context';
import { ensureDemoRoot } from './service/settings/demo-root';
import { scan } from './service/index/scan-service';
import { recoverAll, type RecoveryOutcome } from './service/write/recover';
import { watchSources, type Watchers } from './service/index/watch';
import { forgetOwnerIdentity } from './identity';

interface WebState {
  ctx?: ServiceContext;
  dirty: boolean;
  scannedAt: number;
  watchers?: Watchers;
  recovery: RecoveryOutcome[];
}

const g = globalThis as unknown as { __memtrustWeb?: WebState };
g.__memtrustWeb ??= { dirty: true, scannedAt: 0, recovery: [] };
const state: WebState = g.__memtrustWeb;

/** Even with watchers, rescan at least this often (network drives, missed events). */
const FALLBACK_SCAN_MS = 5 * 60_000;

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
  if (state.dirty || Date.now() - state.scannedAt > FALLBACK_SCAN_MS) {
    state.dirty = false;
    scan(ctx);
    state.scannedAt = Date.now();
    state.watchers?.close();
    state.watchers = watchSources(ctx.sources, () => {
      state.dirty = true;
    });
  }
  return ctx;
}

/** After a write through the service the index is already current; other changes come via watchers. */
export function markDirty(): void {
  state.dirty = true;
}

export function recoveryOutcomes(): RecoveryOutcome[] {
  return state.recovery;
}

/** Settings changed (roots, owner): the next request rebuilds the context from them. */
export function resetContext(): void {
  forgetOwnerIdentity();
  state.watchers?.close();
  state.watchers = undefined;
  state.ctx = undefined;
  state.dirty = true;
}
