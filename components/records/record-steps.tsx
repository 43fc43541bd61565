'use client';
/**
 * Record actions from the pages (docs/records-pages.md): a click never writes. It
 * opens a preview of the lines that will change (masked on the server), asks for a
 * reason where the action records one (demote), and only Confirm applies the steps
 * as ONE batch through applyRecordAction — after checking the plan is still the one
 * shown (a store changed in between shows the new preview instead). The result lands in the URL (`?done=`), so
 * it survives the refresh that follows — even when the record leaves the list — and
 * shows the batch with its Undo.
 */
import { useRouter } from 'next/navigation';
import { createContext, useContext, useEffect, useRef, useState, useTransition } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { previewRecordChanges, type StepsPreview } from '@/app/records/actions';
import { applyRecordAction } from '@/app/record-actions';
import { RecordPreview } from './record-preview';

export interface Step {
  id: string;
  action: string;
  reason?: string;
  /** A layout's own choice for the verb (a canonical backlog close: `status`). */
  options?: Record<string, string>;
}

export interface VerbView {
  action: string;
  allowed: boolean;
  /** Why it is refused now (masked). */
  reason?: string;
}

export const VERB_LABEL: Record<string, string> = {
  promote: 'Promote',
  reaffirm: 'Re-affirm',
  demote: 'Demote',
  restore: 'Restore',
  archive: 'Archive',
  close: 'Close',
  approve: 'Approve',
  reject: 'Reject',
};

export function verbLabel(action: string): string {
  return VERB_LABEL[action] ?? action.charAt(0).toUpperCase() + action.slice(1);
}

/** Actions that record a reason in the store (and the audit). */
const NEEDS_REASON = new Set(['demote']);

/**
 * Verbs that need a choice before they can be planned: each choice is its own button
 * (a canonical backlog entry closes as picked-up or dropped, docs/canonical-layout.md).
 */
const CHOICES: Record<string, { label: string; options: Record<string, string> }[]> = {
  close: [
    { label: 'Close as picked-up', options: { status: 'picked-up' } },
    { label: 'Close as dropped', options: { status: 'dropped' } },
  ],
};

interface Asking {
  action: string;
  label: string;
  options?: Record<string, string>;
}

function doneHref(returnTo: string, batch: string, files: number, did: string): string {
  const url = new URL(returnTo, 'http://x');
  url.searchParams.set('done', batch);
  url.searchParams.set('files', String(files));
  url.searchParams.set('did', did.slice(0, 300));
  return `${url.pathname}${url.search}`;
}

export function StepsDialog({
  title,
  steps,
  did,
  askReason,
  returnTo,
  onClose,
}: {
  title: string;
  steps: Step[];
  did: string;
  askReason: boolean;
  returnTo: string;
  onClose: () => void;
}) {
  const router = useRouter();
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<StepsPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const withReason = (r: string) => steps.map((s) => (askReason ? { ...s, reason: r.trim() } : s));

  function load(r: string) {
    setError(null);
    setPreview(null);
    start(async () => {
      const res = await previewRecordChanges({ steps: withReason(r) });
      if (res.ok) setPreview(res.data);
      else setError(res.message);
    });
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: the preview loads once, when the panel opens; later loads follow the reason typed
  useEffect(() => {
    if (!askReason) load('');
  }, []);
  useEffect(() => {
    if (preview && !askReason) confirmRef.current?.focus();
  }, [preview, askReason]);

  function confirm() {
    if (!preview) return;
    setError(null);
    start(async () => {
      // Apply only what was shown: when the store moved since the preview, show the new plan and ask again.
      const again = await previewRecordChanges({ steps: withReason(reason) });
      if (!again.ok) {
        setError(again.message);
        return;
      }
      if (JSON.stringify(again.data) !== JSON.stringify(preview)) {
        setPreview(again.data);
        setError('The store changed since this preview. Check the new preview and confirm again.');
        return;
      }
      const res = await applyRecordAction({ steps: withReason(reason) });
      if (!res.ok) {
        setError(res.message);
        return;
      }
      await qc.invalidateQueries();
      router.push(doneHref(returnTo, res.data.batch, preview.files.length, did));
      router.refresh();
      onClose();
    });
  }

  return (
    <form
      role="dialog"
      aria-label={title}
      className="mt-3 rounded-md border border-teal-300 bg-teal-50/60 p-3 dark:border-teal-800 dark:bg-teal-950/40"
      onSubmit={(e) => {
        e.preventDefault();
        if (preview) confirm();
        else if (askReason && reason.trim()) load(reason);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <p className="text-sm font-medium">{title} — what will be written</p>
      {askReason ? (
        <label className="mt-3 block text-sm font-medium">
          Why? (recorded in the store and the audit)
          <input
            // biome-ignore lint/a11y/noAutofocus: the panel opened on the user's click to ask exactly this
            autoFocus
            required
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              setPreview(null);
            }}
            maxLength={300}
            placeholder="e.g. contradicted by the new deploy runbook"
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-900"
          />
        </label>
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-800 dark:text-red-300">
          {error}
        </p>
      ) : null}
      {preview ? (
        <RecordPreview preview={preview} />
      ) : pending ? (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">Planning…</p>
      ) : null}
      <div className="mt-3 flex gap-2">
        {askReason && !preview ? (
          <button
            type="submit"
            disabled={pending || !reason.trim()}
            className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
          >
            Preview the change
          </button>
        ) : (
          <button
            ref={confirmRef}
            type="submit"
            disabled={pending || !preview}
            className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
          >
            {pending && preview ? 'Applying…' : 'Confirm'}
          </button>
        )}
        <button
          type="button"
          onClick={onClose}
          className="rounded-md px-3 py-1.5 text-sm hover:bg-white/60 dark:hover:bg-slate-700"
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The record's verbs as buttons; a refused one is disabled with its reason beside it. */
export function RecordActionsPanel({
  id,
  recordKey,
  verbs,
  returnTo,
}: {
  id: string;
  recordKey: string;
  verbs: VerbView[];
  returnTo: string;
}) {
  const [asking, setAsking] = useState<Asking | null>(null);
  const domId = id.replace(/[^A-Za-z0-9_-]/g, '_');
  const buttons = verbs.flatMap((v): (Asking & { allowed: boolean; why?: string })[] => {
    const choices = v.allowed ? CHOICES[v.action] : undefined;
    if (choices) return choices.map((c) => ({ action: v.action, label: c.label, options: c.options, allowed: true }));
    return [{ action: v.action, label: verbLabel(v.action), allowed: v.allowed, why: v.reason }];
  });
  return (
    <div>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Actions">
        {buttons.map((b) => (
          <button
            key={b.label}
            type="button"
            disabled={!b.allowed || asking !== null}
            onClick={() => setAsking(b)}
            aria-describedby={!b.allowed && b.why ? `why-${domId}-${b.action}` : undefined}
            className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium shadow-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700"
          >
            {b.label}
          </button>
        ))}
      </div>
      <ul className="mt-2 space-y-0.5 text-xs text-slate-600 dark:text-slate-400">
        {verbs
          .filter((v) => !v.allowed && v.reason)
          .map((v) => (
            <li key={v.action} id={`why-${domId}-${v.action}`}>
              <span className="font-medium">{verbLabel(v.action)}:</span> {v.reason}
            </li>
          ))}
      </ul>
      {asking ? (
        <StepsDialog
          key={asking.label}
          title={`${asking.label} ${recordKey}`}
          steps={[{ id, action: asking.action, ...(asking.options ? { options: asking.options } : {}) }]}
          did={`${asking.label} ${recordKey}`}
          askReason={NEEDS_REASON.has(asking.action)}
          returnTo={returnTo}
          onClose={() => setAsking(null)}
        />
      ) : null}
    </div>
  );
}

interface KeepChoice {
  keep: string;
  other: string;
  keepKey: string;
  otherKey: string;
}

const PairContext = createContext<{ choice: KeepChoice | null; choose: (c: KeepChoice) => void } | null>(null);

/**
 * Holds one contradiction pair's "keep" choice: the two sides (server-rendered) inside,
 * and the preview dialog below them at full width.
 */
export function PairKeep({ returnTo, children }: { returnTo: string; children: React.ReactNode }) {
  const [choice, setChoice] = useState<KeepChoice | null>(null);
  return (
    <PairContext.Provider value={{ choice, choose: setChoice }}>
      {children}
      {choice ? (
        <StepsDialog
          key={choice.keep}
          title={`Keep ${choice.keepKey}, expire ${choice.otherKey}`}
          steps={[
            { id: choice.keep, action: 'restore' },
            { id: choice.other, action: 'archive' },
          ]}
          did={`Kept ${choice.keepKey} and expired ${choice.otherKey}`}
          askReason={false}
          returnTo={returnTo}
          onClose={() => setChoice(null)}
        />
      ) : null}
    </PairContext.Provider>
  );
}

/** "Keep this one" of a contradiction: restore it and expire the other, as one batch (inside a PairKeep). */
export function KeepOneButton({
  keep,
  other,
  keepKey,
  otherKey,
  disabledReason,
}: KeepChoice & { disabledReason?: string | null }) {
  const pair = useContext(PairContext);
  const chosen = pair?.choice?.keep === keep;
  return (
    <div>
      <button
        type="button"
        disabled={!pair || !!pair.choice || !!disabledReason}
        aria-pressed={chosen}
        onClick={() => pair?.choose({ keep, other, keepKey, otherKey })}
        className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-teal-800 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {chosen ? 'Keeping this one…' : 'Keep this one'}
      </button>
      {disabledReason ? <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{disabledReason}</p> : null}
    </div>
  );
}
