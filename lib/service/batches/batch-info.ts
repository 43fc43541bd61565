/** What the dashboard shows about one batch, read from the root (docs/batches.md). */
import type { ServiceContext } from '../context';
import { BATCH_ID, batchIds, readManifest, readState, type BatchManifest } from './batch-store';
import { noUndoReason } from './batch-list';

export interface BatchInfo {
  id: string;
  kind: BatchManifest['kind'];
  at: string;
  actor: string;
  roots: string[];
  files: number;
  /** The batch this one undid. */
  undoes: string | null;
  /** Undo batches made of this one, oldest first. */
  undoneBy: string[];
  /** The index file (MEMORY.md) the batch changed, if any: its pre-batch copy is saved. */
  indexChanged: string | null;
  /**
   * Why the batch can no longer be undone, or null: its copies expired
   * (`undoRetentionDays`), or one held a credential since removed and was purged
   * (copy-purge.ts). Undo refuses with the same reason.
   */
  noUndo: string | null;
}

export function batchInfo(ctx: ServiceContext, id: string): BatchInfo | null {
  if (!BATCH_ID.test(id)) return null;
  const hits = [...ctx.sources, ...(ctx.recordSources ?? [])]
    .filter((s) => !s.error)
    .map((s) => ({ root: s.root, m: readManifest(s.root, id) }))
    .filter((h) => h.m);
  if (hits.length === 0) return null;
  const first = hits[0]!.m!;
  const undoneBy = hits.flatMap(({ root }) => {
    return batchIds(root)
      .filter((n) => n !== id)
      .map((n) => readManifest(root, n))
      .filter((m): m is BatchManifest => m?.undoes === id);
  });
  return {
    id,
    kind: first.kind,
    at: first.at,
    actor: first.actor,
    roots: hits.map((h) => h.root),
    files: hits.reduce((n, h) => n + h.m!.files.length, 0),
    undoes: first.undoes ?? null,
    undoneBy: undoneBy.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id)).map((m) => m.id),
    noUndo: hits.map(({ m }) => noUndoReason(m!, ctx.config.undoRetentionDays)).find((r) => r) ?? null,
    indexChanged:
      hits
        .map(({ root, m }) => (m!.index && readState(root, id)?.indexAfterSha !== m!.index.sha ? m!.index.file : null))
        .find((f) => f) ?? null,
  };
}
