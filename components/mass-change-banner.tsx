'use client';
/**
 * A mass change outside memtrust (docs/versions.md, "Mass changes"): another program deleted or
 * rewrote many memories at once. One "Recover all" puts every file back as one undoable batch;
 * its result and Undo go in the URL (`?done=`): recovering settles the change, and the refresh
 * that follows takes this banner away.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { recoverAllAction } from '@/app/version-actions';
import { doneHref } from '@/components/transition/result-banner';

export interface MassChangeView {
  batch: string;
  root: string;
  at: string;
  deleted: number;
  rewritten: number;
}

function One({ m }: { m: MassChangeView }) {
  const router = useRouter();
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const what = [
    m.deleted ? `${m.deleted} ${m.deleted === 1 ? 'memory' : 'memories'} deleted` : '',
    m.rewritten ? `${m.rewritten} rewritten` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return (
    <div
      role="alert"
      className="mb-6 flex flex-wrap items-center justify-between gap-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <span>
        {result ? (
          result.message
        ) : (
          <>
            <strong>{what} outside memtrust</strong> in <code className="break-all">{m.root}</code> at{' '}
            {m.at.replace('T', ' ').slice(0, 16)} UTC. memtrust kept their versions.{' '}
            <Link href="/deleted" className="font-medium underline">
              See the deleted memories
            </Link>
          </>
        )}
      </span>
      {result?.ok ? null : (
        <button
          type="button"
          disabled={pending}
          onClick={() =>
            start(async () => {
              const r = await recoverAllAction({ batch: m.batch });
              await qc.invalidateQueries();
              if (!r.ok || !r.data.batch) return setResult({ ok: false, message: r.ok ? r.data.message : r.message });
              const here = `${window.location.pathname}${window.location.search}`;
              router.push(doneHref(here, r.data.batch, r.data.files, r.data.message));
              router.refresh();
            })
          }
          className="rounded-md bg-red-700 px-3 py-1.5 font-medium text-white hover:bg-red-800 disabled:opacity-60"
        >
          {pending ? 'Recovering…' : 'Recover all'}
        </button>
      )}
    </div>
  );
}

export function MassChangeBanner({ changes }: { changes: MassChangeView[] }) {
  if (changes.length === 0) return null;
  return (
    <>
      {changes.map((m) => (
        <One key={m.batch} m={m} />
      ))}
    </>
  );
}
