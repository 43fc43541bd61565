'use client';
/**
 * The actions allowed now, as buttons; forbidden ones are disabled with the rule
 * that forbids it. Demote asks for a reason; actions that move a file ask for
 * confirmation. Every click calls the trust service through a server action.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { transitionMemory } from '@/app/actions';
import type { ActionAvailability } from '@/lib/trust/allowed';
import { UndoBatchButton } from '@/components/undo-batch-button';

const LABEL: Record<string, string> = { promote: 'Promote', reaffirm: 'Re-affirm', demote: 'Demote', restore: 'Restore', archive: 'Archive' };
const MOVES: Record<string, string> = {
  demote: 'moves the file to quarantine/',
  restore: 'moves the file back to memories/',
  archive: 'moves the file to archive/YYYY-MM/ (machine-local)',
};

export function TransitionMenu({ id, sha, actions }: { id: string; sha: string; actions: ActionAvailability[] }) {
  const router = useRouter();
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [asking, setAsking] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [result, setResult] = useState<{ ok: boolean; message: string; batch?: string } | null>(null);

  function run(action: string, why?: string) {
    start(async () => {
      const opId = crypto.randomUUID();
      const r = await transitionMemory({ id, action: action as never, reason: why, expectSha: sha, opId });
      // A transition is a batch of one whose id is its operation id (docs/batches.md).
      setResult(r.ok ? { ok: true, message: r.data.message, batch: r.data.noop ? undefined : opId } : { ok: false, message: r.message });
      setAsking(null);
      setReason('');
      await qc.invalidateQueries();
      router.refresh();
    });
  }

  function click(action: string) {
    setResult(null);
    if (action === 'demote') return setAsking('demote');
    if (MOVES[action]) return setAsking(action);
    run(action);
  }

  return (
    <div>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Actions">
        {actions.map((a) => (
          <span key={a.action} className="flex flex-col">
            <button
              type="button"
              disabled={!a.allowed || pending}
              onClick={() => click(a.action)}
              aria-describedby={!a.allowed && a.reason ? `why-${a.action}` : undefined}
              className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium shadow-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700"
            >
              {LABEL[a.action] ?? a.action}
            </button>
          </span>
        ))}
      </div>
      <ul className="mt-2 space-y-0.5 text-xs text-slate-600 dark:text-slate-400">
        {actions.filter((a) => !a.allowed && a.reason).map((a) => (
          <li key={a.action} id={`why-${a.action}`}>
            <span className="font-medium">{LABEL[a.action]}:</span> {a.reason}
          </li>
        ))}
      </ul>
      {asking ? (
        <form
          className="mt-3 rounded-md border border-slate-200 bg-slate-50 p-3 dark:border-slate-700 dark:bg-slate-800/50"
          onSubmit={(e) => {
            e.preventDefault();
            run(asking, asking === 'demote' ? reason : undefined);
          }}
        >
          {asking === 'demote' ? (
            <label className="block text-sm font-medium">
              Why demote this memory?
              <input
                autoFocus
                required
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                maxLength={300}
                placeholder="e.g. no longer true since the CI migration"
                className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-900"
              />
            </label>
          ) : null}
          <p className="mt-2 text-sm">
            {LABEL[asking]} {MOVES[asking] ? `— this ${MOVES[asking]}.` : ''}
          </p>
          <div className="mt-2 flex gap-2">
            <button type="submit" disabled={pending} className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50">
              Confirm {LABEL[asking]?.toLowerCase()}
            </button>
            <button type="button" onClick={() => setAsking(null)} className="rounded-md px-3 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-700">
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {result ? (
        <p role={result.ok ? 'status' : 'alert'} className={`mt-3 rounded-md px-3 py-2 text-sm ${result.ok ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100' : 'bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100'}`}>
          {result.message}
          {result.batch ? <span className="ml-2"><UndoBatchButton batch={result.batch} files={1} compact /></span> : null}
        </p>
      ) : null}
    </div>
  );
}
