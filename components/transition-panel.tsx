'use client';
/**
 * The one transition UI (review inbox, detail page): the actions docs/trust-model.md allows now as
 * buttons, each disabled with its rule otherwise. Every click first shows the diff
 * preview — the frontmatter lines that change, the move, the MEMORY.md line — and
 * acts only on Confirm. Promote and re-affirm are disabled for a flagged memory
 * (credential finding or hard validator failure). A quarantined memory also gets
 * "Repair and restore…". Keyboard shortcuts reach it through a window event, so a
 * key press opens the same preview and never acts on its own.
 */
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState, useTransition } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { confirmTransitionAction, previewTransitionAction } from '@/app/actions';
import { UndoBatchButton } from '@/components/undo-batch-button';
import type { ActionAvailability } from '@/lib/trust/allowed';
import type { TransitionPreview } from '@/lib/service/write/preview';
import { DiffPreview } from './diff-preview';
import { RepairDialog } from './repair-dialog';

export const ACTION_LABEL: Record<string, string> = {
  promote: 'Promote',
  reaffirm: 'Re-affirm',
  demote: 'Demote',
  restore: 'Restore',
  archive: 'Archive',
};
const VOUCHING = new Set(['promote', 'reaffirm']);

/** Fired by keyboard shortcuts: `{ id, action }`; the panel showing that memory opens the preview. */
export const TRANSITION_EVENT = 'memtrust:transition';
/** Fired after a transition succeeded: `{ id, message }` (the inbox shows it and moves to the next row). */
export const TRANSITION_DONE_EVENT = 'memtrust:transition-done';

export interface TransitionPanelProps {
  id: string;
  actions: ActionAvailability[];
  tier: string;
  /** Why promote / re-affirm are refused (credential finding, hard validator failure), or null. */
  flagged: string | null;
  /** Only these actions, in this order (default: all). */
  show?: string[];
  size?: 'sm' | 'md';
}

export function TransitionPanel({ id, actions, tier, flagged, show, size = 'md' }: TransitionPanelProps) {
  const router = useRouter();
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [asking, setAsking] = useState<string | null>(null);
  const [preview, setPreview] = useState<TransitionPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [repairing, setRepairing] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string; batch?: string } | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  // Confirm takes the focus once the preview is there (Enter confirms); demote focuses its reason.
  useEffect(() => {
    if (preview && asking && asking !== 'demote' && !pending) confirmRef.current?.focus();
  }, [preview, asking, pending]);

  const list = (
    show ? show.map((a) => actions.find((x) => x.action === a)).filter((x): x is ActionAvailability => !!x) : actions
  ).map((a) =>
    VOUCHING.has(a.action) && flagged && a.allowed
      ? { ...a, allowed: false, reason: `${ACTION_LABEL[a.action]} ${flagged}` }
      : a,
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: list is rebuilt on every render; its JSON is the stable key
  const open = useCallback(
    (action: string) => {
      setResult(null);
      const a = list.find((x) => x.action === action);
      if (!a) return;
      if (!a.allowed) {
        setResult({ ok: false, message: `${ACTION_LABEL[action] ?? action} is not available: ${a.reason ?? ''}` });
        return;
      }
      setAsking(action);
      setPreview(null);
      setPreviewError(null);
      start(async () => {
        const r = await previewTransitionAction({ id, action: action as never });
        if (r.ok) setPreview(r.data);
        else setPreviewError(r.message);
      });
    },
    [id, JSON.stringify(list)],
  );

  useEffect(() => {
    function onEvent(e: Event) {
      const d = (e as CustomEvent<{ id: string; action: string }>).detail;
      if (d?.id === id && !asking && !repairing) open(d.action);
    }
    window.addEventListener(TRANSITION_EVENT, onEvent);
    return () => window.removeEventListener(TRANSITION_EVENT, onEvent);
  }, [id, open, asking, repairing]);

  function cancel() {
    setAsking(null);
    setPreview(null);
    setReason('');
  }

  function confirm() {
    if (!asking || !preview) return;
    const action = asking;
    start(async () => {
      const opId = crypto.randomUUID();
      const r = await confirmTransitionAction({
        id,
        action: action as never,
        reason: action === 'demote' ? reason : undefined,
        expectSha: preview.sha256,
        opId,
      });
      // A transition is a batch of one whose id is its operation id (docs/batches.md).
      setResult(
        r.ok
          ? { ok: true, message: r.data.message, batch: r.data.noop ? undefined : opId }
          : { ok: false, message: r.message },
      );
      cancel();
      if (r.ok)
        window.dispatchEvent(new CustomEvent(TRANSITION_DONE_EVENT, { detail: { id, message: r.data.message } }));
      await qc.invalidateQueries();
      router.refresh();
    });
  }

  const btn = size === 'sm' ? 'px-2.5 py-1 text-xs' : 'px-3 py-1.5 text-sm';
  return (
    <div>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Actions">
        {list.map((a) => (
          <button
            key={a.action}
            type="button"
            disabled={!a.allowed || pending}
            onClick={() => open(a.action)}
            aria-describedby={!a.allowed && a.reason ? `why-${id}-${a.action}` : undefined}
            className={`rounded-md border border-slate-300 bg-white font-medium shadow-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700 ${btn}`}
          >
            {ACTION_LABEL[a.action] ?? a.action}
          </button>
        ))}
        {tier === 'quarantined' ? (
          <button
            type="button"
            onClick={() => {
              setResult(null);
              setRepairing(true);
            }}
            className={`rounded-md border border-amber-400 bg-amber-50 font-medium text-amber-900 shadow-sm hover:bg-amber-100 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100 ${btn}`}
          >
            Repair and restore…
          </button>
        ) : null}
      </div>
      <ul className="mt-2 space-y-0.5 text-xs text-slate-600 dark:text-slate-400">
        {list
          .filter((a) => !a.allowed && a.reason)
          .map((a) => (
            <li key={a.action} id={`why-${id}-${a.action}`}>
              <span className="font-medium">{ACTION_LABEL[a.action]}:</span> {a.reason}
            </li>
          ))}
      </ul>
      {asking ? (
        <form
          role="dialog"
          aria-label={`Confirm ${asking}`}
          className="mt-3 rounded-md border border-teal-300 bg-teal-50/60 p-3 dark:border-teal-800 dark:bg-teal-950/40"
          onSubmit={(e) => {
            e.preventDefault();
            confirm();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              cancel();
            }
          }}
        >
          <p className="text-sm font-medium">{ACTION_LABEL[asking]} — what will be written</p>
          {previewError ? (
            <p role="alert" className="mt-2 text-sm text-red-800 dark:text-red-300">
              {previewError}
            </p>
          ) : null}
          {preview ? (
            <DiffPreview preview={preview} reason={asking === 'demote' ? reason : undefined} />
          ) : previewError ? null : (
            <p className="mt-2 text-xs text-slate-500">Planning…</p>
          )}
          {asking === 'demote' ? (
            <label className="mt-3 block text-sm font-medium">
              Why demote this memory?
              <input
                // biome-ignore lint/a11y/noAutofocus: the field appears only after the user chose Demote, and typing the reason is the next step
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
          <div className="mt-3 flex gap-2">
            <button
              ref={confirmRef}
              type="submit"
              disabled={pending || !preview}
              className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
            >
              Confirm {ACTION_LABEL[asking]?.toLowerCase()}
            </button>
            <button
              type="button"
              onClick={cancel}
              className="rounded-md px-3 py-1.5 text-sm hover:bg-white/60 dark:hover:bg-slate-700"
            >
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {repairing ? (
        <RepairDialog
          id={id}
          onClose={() => setRepairing(false)}
          onDone={async (message, batch) => {
            setRepairing(false);
            setResult({ ok: true, message, batch });
            window.dispatchEvent(new CustomEvent(TRANSITION_DONE_EVENT, { detail: { id, message } }));
            await qc.invalidateQueries();
            router.refresh();
          }}
        />
      ) : null}
      {result ? (
        <p
          role={result.ok ? 'status' : 'alert'}
          className={`mt-3 rounded-md px-3 py-2 text-sm ${result.ok ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100' : 'bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100'}`}
        >
          {result.message}
          {result.batch ? (
            <span className="ml-2">
              <UndoBatchButton batch={result.batch} files={1} compact />
            </span>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
