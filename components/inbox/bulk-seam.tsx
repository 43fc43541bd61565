'use client';
/**
 * Bulk actions on the selected rows (docs/review-inbox.md "Bulk actions"): promote, demote
 * (one reason for all), archive and back-fill. Each goes through the batch plan
 * component (each file, masked findings, destination, counts; the typed count above
 * 10 files or a quarter of a root), is applied as one batch and lands on the batch
 * page with Undo. Any row can be ticked, flagged ones too (to demote or archive them in
 * bulk); Promote is disabled while the selection holds a flagged row, with one line saying
 * how many — the single Promote's refusal rule — and the server's promote plan leaves out
 * any memory the single button would not promote anyway.
 */
import { useState } from 'react';
import { BatchPlanView } from '@/components/batch-plan';
import { applyBulkBatch, loadBulkPlan } from '@/app/batch-actions';

type BulkAction = 'promote' | 'demote' | 'archive' | 'backfill';
const VERB: Record<BulkAction, string> = {
  promote: 'Promote',
  demote: 'Demote',
  archive: 'Archive',
  backfill: 'Back-fill',
};

export function BulkSeam({
  selectedKeys,
  flaggedSelected,
  onClear,
}: {
  selectedKeys: string[];
  /** How many selected rows the single Promote refuses (a credential finding or a hard failure). */
  flaggedSelected: number;
  onClear: () => void;
}) {
  const [choice, setChoice] = useState<BulkAction | null>(null);
  const [reason, setReason] = useState('');
  const [planned, setPlanned] = useState<{ action: BulkAction; reason: string; keys: string[]; n: number } | null>(
    null,
  );
  if (selectedKeys.length === 0) return null;
  const btn =
    'rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium shadow-sm hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700';
  const active = 'ring-2 ring-teal-600';
  const promoteBlocked = flaggedSelected > 0;
  const show = (action: BulkAction, why = '') =>
    setPlanned((p) => ({ action, reason: why, keys: [...selectedKeys], n: (p?.n ?? 0) + 1 }));

  return (
    <div
      role="region"
      aria-label="Selection"
      data-seam="batch"
      className="mb-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-800/50"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{selectedKeys.length} selected</span>
        <span className="text-xs text-slate-600 dark:text-slate-400">Bulk:</span>
        <button
          type="button"
          className={`${btn} ${choice === 'promote' && !promoteBlocked ? active : ''} disabled:cursor-not-allowed disabled:opacity-50`}
          disabled={promoteBlocked}
          aria-describedby={promoteBlocked ? 'bulk-promote-why' : undefined}
          onClick={() => {
            setChoice('promote');
            show('promote');
          }}
        >
          Promote…
        </button>
        <button
          type="button"
          className={`${btn} ${choice === 'demote' ? active : ''}`}
          onClick={() => {
            setChoice('demote');
            setPlanned(null);
          }}
        >
          Demote…
        </button>
        <button
          type="button"
          className={`${btn} ${choice === 'archive' ? active : ''}`}
          onClick={() => {
            setChoice('archive');
            show('archive');
          }}
        >
          Archive…
        </button>
        <button
          type="button"
          className={`${btn} ${choice === 'backfill' ? active : ''}`}
          onClick={() => {
            setChoice('backfill');
            show('backfill');
          }}
        >
          Back-fill…
        </button>
        <span className="text-xs text-slate-600 dark:text-slate-400">Each shows its plan first.</span>
        <button
          type="button"
          onClick={() => {
            setChoice(null);
            setPlanned(null);
            onClear();
          }}
          className="ml-auto text-xs text-slate-600 hover:underline dark:text-slate-300"
        >
          Clear selection
        </button>
      </div>
      {promoteBlocked ? (
        <p id="bulk-promote-why" className="mt-1 text-xs text-amber-800 dark:text-amber-300">
          Promote is off: {flaggedSelected} selected {flaggedSelected === 1 ? 'is' : 'are'} flagged (a credential
          finding or a hard validator failure); untick {flaggedSelected === 1 ? 'it' : 'them'} to promote the rest.
        </p>
      ) : null}
      {choice === 'demote' ? (
        <form
          className="mt-2 flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (reason.trim()) show('demote', reason.trim());
          }}
        >
          <label className="text-xs font-medium">
            One reason for all {selectedKeys.length}
            <input
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={500}
              aria-label="Demote reason"
              placeholder="e.g. outdated after the migration"
              className="mt-0.5 block w-80 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-normal dark:border-slate-600 dark:bg-slate-800"
            />
          </label>
          <button
            type="submit"
            disabled={!reason.trim()}
            className="rounded-md bg-teal-700 px-3 py-1.5 text-xs font-medium text-white hover:bg-teal-800 disabled:opacity-50"
          >
            Show the plan
          </button>
        </form>
      ) : null}
      {/* A promote plan shown before a flagged row was ticked is withdrawn, never applied. */}
      {planned && !(planned.action === 'promote' && promoteBlocked) ? (
        <div className="mt-3 border-t border-slate-200 pt-3 dark:border-slate-700" data-testid="bulk-plan">
          <BatchPlanView
            key={`${planned.action}-${planned.n}`}
            name={`bulk-${planned.action}-${planned.n}-${planned.keys.length}`}
            load={() =>
              loadBulkPlan({ keys: planned.keys, action: planned.action, reason: planned.reason || undefined })
            }
            apply={(input) =>
              applyBulkBatch({
                ...input,
                keys: planned.keys,
                action: planned.action,
                reason: planned.reason || undefined,
              })
            }
            verb={VERB[planned.action]}
          />
        </div>
      ) : null}
    </div>
  );
}
