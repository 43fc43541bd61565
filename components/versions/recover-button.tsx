'use client';
/**
 * Recover of one memory (docs/versions.md, "Versions in the dashboard"): a deleted memory as
 * its last kept version had it, or any memory as version `sha` had it — one batch. The
 * result lands in the URL (`?done=`), so it and its Undo survive the refresh that takes a
 * recovered memory off the deleted list.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { recoverMemoryAction } from '@/app/version-actions';
import { doneHref } from '@/components/transition/result-banner';

export function RecoverButton({
  id,
  sha,
  label = 'Recover',
  name,
  returnTo,
  compact = false,
}: {
  id: string;
  sha?: string;
  label?: string;
  /** What screen readers hear: "Recover NAME". */
  name?: string;
  /** The page that shows the result; the current one when absent. */
  returnTo?: string;
  compact?: boolean;
}) {
  const router = useRouter();
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex flex-col gap-1">
      <button
        type="button"
        aria-label={name ? `${label} ${name}` : undefined}
        disabled={pending}
        onClick={() =>
          start(async () => {
            setError(null);
            const r = await recoverMemoryAction({ id, sha });
            await qc.invalidateQueries();
            if (!r.ok) return setError(r.message);
            if (!r.data.batch) return setError(r.data.message);
            const here = returnTo ?? `${window.location.pathname}${window.location.search}`;
            router.push(doneHref(here, r.data.batch, r.data.files, r.data.message));
            router.refresh();
          })
        }
        className={`rounded-md bg-teal-700 font-medium text-white hover:bg-teal-800 disabled:opacity-60 ${compact ? 'px-2 py-0.5 text-xs' : 'px-3 py-1.5 text-sm'}`}
      >
        {pending ? 'Recovering…' : label}
      </button>
      {error ? (
        <span role="alert" className="max-w-md text-xs text-red-700 dark:text-red-300">
          {error}
        </span>
      ) : null}
    </span>
  );
}
