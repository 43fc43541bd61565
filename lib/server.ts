/**
 * Web composition root: one service context per server process, built from the
 * environment. Pages and actions reach the service only through here.
 */
import 'server-only';
import { loadConfig } from './config';
import { createContext, type ServiceContext } from './service/context';
import { ensureDemoRoot } from './service/demo-root';
import { scan } from './service/scan-service';

const g = globalThis as unknown as { __memtrustCtx?: ServiceContext; __memtrustScanAt?: number };

/** How long a scan stays fresh for page reads; file watching refreshes sooner. */
const FRESH_MS = 2_000;

export function context(): ServiceContext {
  if (!g.__memtrustCtx) {
    const config = loadConfig();
    if (config.demo) ensureDemoRoot(config.roots[0]!, config.now());
    g.__memtrustCtx = createContext(config);
  }
  return g.__memtrustCtx;
}

/** The context with an index no older than FRESH_MS (an incremental scan is a stat per file). */
export function freshContext(): ServiceContext {
  const ctx = context();
  const t = Date.now();
  if (!g.__memtrustScanAt || t - g.__memtrustScanAt > FRESH_MS) {
    scan(ctx);
    g.__memtrustScanAt = Date.now();
  }
  return ctx;
}
