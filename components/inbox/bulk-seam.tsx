'use client';
/**
 * SEAM (batch work): bulk demote / archive / backfill on the selected rows.
 *
 * The inbox only collects the selection (memory keys `<source>:<relPath>`). Bulk
 * actions go through the batch plan (each file, findings, destination, counts; a
 * typed confirmation above 10 files or a quarter of a root) and get an Undo: that
 * step belongs to the batch work, which replaces this component's body with its plan
 * component. Promote is never offered in bulk (CONTRACT §3 "Promote is one at a time").
 */
export function BulkSeam({ selectedKeys, onClear }: { selectedKeys: string[]; onClear: () => void }) {
  if (selectedKeys.length === 0) return null;
  return (
    <div role="region" aria-label="Selection" data-seam="batch" className="mb-2 flex flex-wrap items-center gap-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-800/50">
      <span className="font-medium">{selectedKeys.length} selected</span>
      <span className="text-xs text-slate-600 dark:text-slate-400">Bulk demote, archive and backfill go through a plan you confirm (batch step); promote is one at a time.</span>
      <button type="button" onClick={onClear} className="ml-auto text-xs text-slate-600 hover:underline dark:text-slate-300">Clear selection</button>
    </div>
  );
}
