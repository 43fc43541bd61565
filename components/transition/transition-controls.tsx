'use client';
/**
 * The one transition component (docs/transition-ui.md), used by the review inbox, the
 * memory page and the record page: a descriptor's verbs as buttons, each refused one
 * disabled, their reasons behind one "Why not …?" line; a click (or a keyboard shortcut, through a window
 * event) opens the preview dialog, and only Confirm applies; the result shows with its
 * batch and Undo. A quarantined memory also gets "Repair and restore…".
 */
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RepairDialog } from '@/components/repair-dialog';
import type { EngineName } from './engines';
import { TRANSITION_DONE_EVENT, TRANSITION_EVENT } from './events';
import { ResultBanner, type TransitionResult } from './result-banner';
import { TransitionDialog } from './transition-dialog';
import { NEEDS_REASON, type Verb, type VerbButton, verbButtons, verbLabel } from './verbs';

/** What the component needs to know about one subject (built on the server page). */
export interface TransitionDescriptor {
  /** The memory or record id the steps name. */
  id: string;
  /** How the dialog names it ("Demote mem_11aa22bb"); masked for records. */
  label: string;
  /** Which server-action family previews and applies (components/transition/engines.ts). */
  engine: EngineName;
  /** Every verb, allowed or refused with its reason. */
  verbs: Verb[];
  /** Set: the result goes to this page's URL (`?done=`), which shows it with ResultBanner; unset: shown here. */
  returnTo?: string;
  /** A quarantined memory also offers Repair and restore. */
  repair?: boolean;
}

export function TransitionControls({ size = 'md', ...d }: TransitionDescriptor & { size?: 'sm' | 'md' }) {
  const router = useRouter();
  const qc = useQueryClient();
  const [asking, setAsking] = useState<VerbButton | null>(null);
  const [repairing, setRepairing] = useState(false);
  const [result, setResult] = useState<TransitionResult | null>(null);
  const buttons = verbButtons(d.verbs);
  const domId = d.id.replace(/[^A-Za-z0-9_-]/g, '_');
  const off = d.verbs.filter((v) => !v.allowed && v.reason);

  // biome-ignore lint/correctness/useExhaustiveDependencies: buttons are rebuilt on every render; the verbs' JSON is the stable key
  const open = useCallback(
    (action: string) => {
      setResult(null);
      const b = buttons.find((x) => x.action === action);
      if (!b) return;
      if (!b.allowed) setResult({ ok: false, message: `${b.label} is not available: ${b.reason ?? ''}` });
      else setAsking(b);
    },
    [JSON.stringify(d.verbs)],
  );

  useEffect(() => {
    function onEvent(e: Event) {
      const ev = (e as CustomEvent<{ id: string; action: string }>).detail;
      if (ev?.id === d.id && !asking && !repairing) open(ev.action);
    }
    window.addEventListener(TRANSITION_EVENT, onEvent);
    return () => window.removeEventListener(TRANSITION_EVENT, onEvent);
  }, [d.id, open, asking, repairing]);

  const btn = size === 'sm' ? 'px-2.5 py-1 text-xs' : 'px-3 py-1.5 text-sm';
  return (
    <div>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Actions">
        {buttons.map((b) => (
          <button
            key={b.label}
            type="button"
            disabled={!b.allowed}
            onClick={() => {
              setResult(null);
              setRepairing(false);
              setAsking(b);
            }}
            aria-describedby={!b.allowed && b.reason ? `why-${domId}-${b.action}` : undefined}
            className={`rounded-md border border-slate-300 bg-white font-medium shadow-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700 ${btn}`}
          >
            {b.label}
          </button>
        ))}
        {d.repair ? (
          <button
            type="button"
            onClick={() => {
              setResult(null);
              setAsking(null);
              setRepairing(true);
            }}
            className={`rounded-md border border-amber-400 bg-amber-50 font-medium text-amber-900 shadow-sm hover:bg-amber-100 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100 ${btn}`}
          >
            Repair and restore…
          </button>
        ) : null}
      </div>
      {off.length ? (
        // One line names the actions that are off; their reasons open beneath it (docs/transition-ui.md).
        // Each stays in the DOM, so a disabled button's aria-describedby still reads its reason.
        <details className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          <summary className="cursor-pointer select-none hover:text-slate-900 dark:hover:text-slate-200">
            Why not {off.map((v) => verbLabel(v.action)).join(', ')}?
          </summary>
          <ul className="mt-1 space-y-0.5 border-l border-slate-200 pl-3 dark:border-slate-700">
            {off.map((v) => (
              <li key={v.action} id={`why-${domId}-${v.action}`}>
                <span className="font-medium">{verbLabel(v.action)}:</span> {v.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {asking ? (
        <TransitionDialog
          key={asking.label}
          engine={d.engine}
          steps={[{ id: d.id, action: asking.action, ...(asking.options ? { options: asking.options } : {}) }]}
          label={asking.label}
          title={`${asking.label} ${d.label}`}
          did={`${asking.label} ${d.label}`}
          askReason={NEEDS_REASON.has(asking.action)}
          returnTo={d.returnTo}
          onDone={setResult}
          onClose={() => setAsking(null)}
        />
      ) : null}
      {repairing ? (
        <RepairDialog
          id={d.id}
          onClose={() => setRepairing(false)}
          onDone={async (message, batch) => {
            setRepairing(false);
            setResult({ ok: true, message, batch, files: 1 });
            window.dispatchEvent(
              new CustomEvent(TRANSITION_DONE_EVENT, { detail: { id: d.id, message, batch, files: 1 } }),
            );
            await qc.invalidateQueries();
            router.refresh();
          }}
        />
      ) : null}
      {result ? <ResultBanner result={result} /> : null}
    </div>
  );
}
