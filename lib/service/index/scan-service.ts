/** The scan as a service call: sources re-detected, then the incremental scan. */
import { tidyUndoCopies } from '../batches/copy-purge';
import { refreshSources, type ServiceContext } from '../context';
import { scanSources, type ScanOptions, type ScanStats } from './scan';
import { recoverAll } from '../write/recover';
import { indexVouched } from './ask-monitor';
import type { SourceInfo } from '../../sources';
import path from 'node:path';

/** The index's folder, where the set of known credential values lives; none for an in-memory index. */
export function knownValuesDirOf(dbPath: string): string | undefined {
  return dbPath === ':memory:' || dbPath.startsWith('file:') ? undefined : path.dirname(path.resolve(dbPath));
}

export interface ServiceScanOptions extends ScanOptions {
  /** Ask a running watcher whether the file roots may be taken as indexed (docs/freshness.md). */
  askWatcher?: boolean;
  /** Called with the re-detected roots just before the scan reads the disk (a watcher places its watches here). */
  beforeRead?: (sources: SourceInfo[]) => void;
}

export function scan(ctx: ServiceContext, opts: ServiceScanOptions = {}): ScanStats {
  refreshSources(ctx);
  // Unfinished operations are recovered when their root's lock is free; while a writer
  // holds it, the scan shows the last committed state (docs/crash-safety.md, "Readers").
  recoverAll(ctx);
  const { askWatcher, beforeRead, ...rest } = opts;
  beforeRead?.(ctx.sources);
  // Asked after the recovery, so a file it moved is an event before our cookie (docs/freshness.md).
  const vouched = askWatcher === true && indexVouched(ctx.config.dbPath, ctx.sources);
  const rewritten = new Map<string, Set<string>>();
  const stats = scanSources(ctx.handle.sqlite, ctx.sources, ctx.owner(), ctx.now(), {
    machine: ctx.machine,
    recordSources: ctx.recordSources,
    vouched,
    knownValuesDir: knownValuesDirOf(ctx.config.dbPath),
    ...rest,
    onRewritten: (id, filename) => {
      rest.onRewritten?.(id, filename);
      const names = rewritten.get(id) ?? new Set<string>();
      names.add(filename);
      rewritten.set(id, names);
    },
  });
  // A credential removed by hand since the last scan: no undo copy keeps it; old copies expire (copy-purge.ts).
  for (const s of ctx.sources) if (!s.error) tidyUndoCopies(ctx, s, rewritten.get(s.id) ?? []);
  return stats;
}
