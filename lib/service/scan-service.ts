/** The scan as a service call: sources re-detected, then the incremental scan. */
import { refreshSources, type ServiceContext } from './context';
import { scanSources, type ScanOptions, type ScanStats } from './scan';

export function scan(ctx: ServiceContext, opts: ScanOptions = {}): ScanStats {
  refreshSources(ctx);
  return scanSources(ctx.handle.sqlite, ctx.sources, ctx.owner(), ctx.now(), opts);
}
