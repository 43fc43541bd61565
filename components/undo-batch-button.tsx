'use client';
/** Undo of a whole batch (docs/batches.md): asks once, then shows the new (undo) batch. */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { undoBatchAction } from '@/app/batch-actions';

export function UndoBatchButton({
  batch,
  files,
  compact = false,
  primary = false,
  label: named,
}: {
  batch: string;
  files?: number;
  compact?: boolean;
  primary?: boolean;
  /** An undo batch's button puts its batch's changes back: it says Redo (docs/batches.md). */
  label?: string;
}) {
  const router = useRouter();
  const qc = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const label = named ?? (compact ? 'Undo batch' : 'Undo');

  function run() {
    setError(null);
    start(async () => {
      const r = await undoBatchAction({ batch });
      await qc.invalidateQueries();
      setAsking(false);
      if (!r.ok) return setError(r.message);
      if (r.data.batch) router.push(`/batches/${encodeURIComponent(r.data.batch)}`);
      else setError(r.data.message);
      router.refresh();
    });
  }

  return (
    <span className="inline-flex flex-col gap-1">
      {asking ? (
        <span className="inline-flex flex-wrap items-center gap-2 text-xs">
          <span>
            Put {files ? `${files} ${files === 1 ? 'file' : 'files'}` : 'every file'} of this batch back as{' '}
            {files === 1 ? 'it was' : 'they were'}?
          </span>
          <button
            type="button"
            onClick={run}
            disabled={pending}
            className="rounded-md bg-teal-700 px-2 py-1 font-medium text-white hover:bg-teal-800 disabled:opacity-50"
          >
            {pending ? 'Undoing…' : 'Confirm undo'}
          </button>
          <button
            type="button"
            onClick={() => setAsking(false)}
            className="rounded-md border border-slate-300 px-2 py-1 dark:border-slate-600"
          >
            Cancel
          </button>
        </span>
      ) : (
        <button
          type="button"
          onClick={() => setAsking(true)}
          className={`rounded-md font-medium shadow-sm ${primary ? 'bg-teal-700 text-white hover:bg-teal-800' : 'border border-slate-300 bg-white hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700'} ${compact ? 'px-2 py-0.5 text-xs' : 'px-3 py-1.5 text-sm'}`}
        >
          {label}
        </button>
      )}
      {error ? (
        <span role="alert" className="max-w-md text-xs text-red-700 dark:text-red-300">
          {error}
        </span>
      ) : null}
    </span>
  );
}
