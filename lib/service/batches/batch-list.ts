/**
 * Every batch of the configured roots, newest first, for the /batches page and `batches`
 * (docs/batches.md "The list of batches"): what it was, when, by whom, how many files, and
 * whether Undo can still apply. Read from the manifests in the data directory (a readdir
 * and one small JSON read per batch); the SQLite index is not needed.
 */
import type { ServiceContext } from '../context';
import { batchIds, readManifest, type BatchManifest } from './batch-store';

export type UndoState =
  /** Undo can apply. */
  | 'can-undo'
  /** An undo batch of it stands (and was not itself undone): Undo would do nothing. */
  | 'undone'
  /** Its copies expired or were purged: `noUndo` says why. */
  | 'no-undo';

export interface BatchRow {
  id: string;
  kind: BatchManifest['kind'];
  at: string;
  actor: string;
  /** Files the batch set out to change, over every root it touched. */
  files: number;
  roots: string[];
  undoes: string | null;
  undoneBy: string[];
  noUndo: string | null;
  state: UndoState;
}

/** Why a batch's copies can no longer undo it, or null (one wording for page, list and CLI). */
export function noUndoReason(m: BatchManifest, retentionDays: number): string | null {
  if (m.expired)
    return `its undo copies were deleted on ${m.expired.slice(0, 10)}: it is older than ${retentionDays} days (undoRetentionDays)`;
  if (m.purged?.length)
    return `the undo copy of ${m.purged[0]!.memory} held a credential that was removed from the memory; it was purged`;
  return null;
}

/**
 * Undone: some undo batch of it stands, i.e. was not undone in turn (an undo of an undo is a
 * redo, and puts the batch's changes back). Memoised over the chain.
 */
function undoneFlags(rows: Map<string, BatchRow>): Map<string, boolean> {
  const memo = new Map<string, boolean>();
  const undone = (id: string, depth: number): boolean => {
    const seen = memo.get(id);
    if (seen !== undefined) return seen;
    const row = rows.get(id);
    // Chains are short; the bound only guards against a manifest naming itself.
    const v = !!row && depth < 64 && row.undoneBy.some((u) => !undone(u, depth + 1));
    memo.set(id, v);
    return v;
  };
  for (const id of rows.keys()) undone(id, 0);
  return memo;
}

export function listBatches(ctx: ServiceContext): BatchRow[] {
  const rows = new Map<string, BatchRow>();
  for (const s of [...ctx.sources, ...(ctx.recordSources ?? [])]) {
    if (s.error) continue;
    for (const id of batchIds(s.root)) {
      const m = readManifest(s.root, id);
      if (!m) continue;
      const row = rows.get(id);
      if (row) {
        row.files += m.files.length;
        row.roots.push(s.root);
        row.noUndo ??= noUndoReason(m, ctx.config.undoRetentionDays);
        continue;
      }
      rows.set(id, {
        id,
        kind: m.kind,
        at: m.at,
        actor: m.actor,
        files: m.files.length || (m.records?.changes.length ?? 0),
        roots: [s.root],
        undoes: m.undoes ?? null,
        undoneBy: [],
        noUndo: noUndoReason(m, ctx.config.undoRetentionDays),
        state: 'can-undo',
      });
    }
  }
  // Batches of the same second (a fixed MEMTRUST_NOW, a fast click): an undo is still newer
  // than the batch it undoes, so the chain's depth breaks the tie before the id does.
  const depth = (r: BatchRow, n = 0): number => {
    const up = r.undoes ? rows.get(r.undoes) : undefined;
    return up && n < 64 ? depth(up, n + 1) : n;
  };
  const byAt = [...rows.values()].sort(
    (a, b) => b.at.localeCompare(a.at) || depth(b) - depth(a) || b.id.localeCompare(a.id),
  );
  for (const r of [...byAt].reverse()) if (r.undoes) rows.get(r.undoes)?.undoneBy.push(r.id);
  const undone = undoneFlags(rows);
  for (const r of byAt) r.state = r.noUndo ? 'no-undo' : undone.get(r.id) ? 'undone' : 'can-undo';
  return byAt;
}
