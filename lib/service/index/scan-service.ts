/** The scan as a service call: sources re-detected, then the incremental scan. */
import { refreshSources, type ServiceContext } from '../context';
import { scanSources, type ScanOptions, type ScanStats } from './scan';
import { recoverAll } from '../write/recover';
import { indexVouched } from './ask-monitor';

export function scan(ctx: ServiceContext, opts: ScanOptions & { askWatcher?: boolean } = {}): ScanStats {
  refreshSources(ctx);
  // Unfinished operations are recovered when their root's lock is free; while a writer
  // holds it, the scan shows the last committed state (docs/crash-safety.md, "Readers").
  recoverAll(ctx);
  const { askWatcher, ...rest } = opts;
  // Asked after the recovery, so a file it moved is an event before our cookie (docs/freshness.md).
  const vouched = askWatcher === true && indexVouched(ctx.config.dbPath, ctx.sources);
  return scanSources(ctx.handle.sqlite, ctx.sources, ctx.owner(), ctx.now(), {
    machine: ctx.machine,
    recordSources: ctx.recordSources,
    vouched,
    ...rest,
  });
}
