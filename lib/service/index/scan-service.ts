/** The scan as a service call: sources re-detected, then the incremental scan. */
import { tidyRecordCopies, tidyUndoCopies } from '../batches/copy-purge';
import { refreshSourcesSteps, type ServiceContext } from '../context';
import { scanSourcesSteps, type ScanOptions, type ScanStats } from './scan';
import { runSteps, type Steps } from './steps';
import { recoverAll } from '../write/recover';
import { indexVouched } from './ask-monitor';
import type { FileSourceInfo } from '../../sources';
import path from 'node:path';
import { fillOrigins } from '../origin/origin-index';
import { originDataDir } from '../origin/memory-origin';

/** The index's folder, where the set of known credential values lives; none for an in-memory index. */
export function knownValuesDirOf(dbPath: string): string | undefined {
  return dbPath === ':memory:' || dbPath.startsWith('file:') ? undefined : path.dirname(path.resolve(dbPath));
}

export interface ServiceScanOptions extends ScanOptions {
  /** Ask a running watcher whether the file roots may be taken as indexed (docs/freshness.md). */
  askWatcher?: boolean;
  /**
   * Called with the re-detected roots just before the scan reads the disk (a watcher places its
   * watches here); what it returns, steps of its own, runs as steps of the scan.
   */
  beforeRead?: (sources: FileSourceInfo[]) => void | Steps<void>;
  /**
   * How the rows' origins are answered after the scan (docs/origin.md "In the index"):
   * `cache` (default) from the transcript cache only — the dashboard reads the rest in the
   * background; `read` reads the transcripts not in it (the CLI).
   */
  origins?: 'cache' | 'read';
}

export function scan(ctx: ServiceContext, opts: ServiceScanOptions = {}): ScanStats {
  return runSteps(scanSteps(ctx, opts));
}

/**
 * The scan in steps (scanSourcesSteps): it pauses after the recovery, after the watches are
 * placed, after each root and before the origins, so the dashboard's first scan can run
 * between requests (lib/server/first-scan.ts). Run to its end, it is `scan`.
 */
export function* scanSteps(ctx: ServiceContext, opts: ServiceScanOptions = {}): Steps<ScanStats> {
  yield* refreshSourcesSteps(ctx);
  // Unfinished operations are recovered when their root's lock is free; while a writer
  // holds it, the scan shows the last committed state (docs/crash-safety.md, "Readers").
  recoverAll(ctx);
  yield;
  const { askWatcher, beforeRead, origins, ...rest } = opts;
  const placing = beforeRead?.(ctx.sources);
  if (placing) yield* placing;
  // Asked after the recovery, so a file it moved is an event before our cookie (docs/freshness.md).
  const vouched = askWatcher === true && indexVouched(ctx.config.dbPath, ctx.sources);
  const rewritten = new Map<string, Set<string>>();
  const stats = yield* scanSourcesSteps(ctx.handle.sqlite, ctx.sources, ctx.owner(), ctx.now(), {
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
  for (const s of ctx.recordSources ?? []) if (!s.error) tidyRecordCopies(ctx, s);
  yield;
  const o = fillOrigins(ctx.handle.sqlite, ctx.sources, ctx.owner(), originDataDir(ctx), { read: origins === 'read' });
  if (o.filled || o.pending) stats.originRows = o;
  return stats;
}
