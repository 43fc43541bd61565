'use client';
/**
 * The preview-before-apply step of the one transition component (docs/transition-ui.md).
 * Nothing is written before Confirm: the dialog shows the lines that will change (a
 * memory's frontmatter, move and index line; a record's changed lines per file, masked
 * on the server), asks for the reason where the action records one, and applies
 * exactly the plan shown. When the engine's plan spells out the reason, the reason
 * comes first and a new reason previews again; otherwise the preview shows it as typed.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ENGINES, type EngineName, type PlanPreview, type Step } from './engines';
import { TRANSITION_DONE_EVENT } from './events';
import { DiffPreview } from './memory-diff';
import { RecordPreview } from './record-diff';
import { doneHref, type TransitionResult } from './result-banner';

export interface TransitionDialogProps {
  engine: EngineName;
  steps: Step[];
  /** The verb as its button says it: "Demote", "Close as dropped", "Keep". */
  label: string;
  /** What the dialog is about: "Demote mem_11aa22bb". */
  title: string;
  /** The result line: "Kept A and expired B" (a memory transition says its own). */
  did: string;
  askReason: boolean;
  /** Set: the result goes to this page's URL; unset: onDone shows it. */
  returnTo?: string;
  onDone?: (result: TransitionResult) => void;
  onClose: () => void;
}

function PreviewView({ preview, reason }: { preview: PlanPreview; reason?: string }) {
  return preview.kind === 'memory' ? (
    <DiffPreview preview={preview.data} reason={reason} />
  ) : (
    <RecordPreview preview={preview.data} />
  );
}

export function TransitionDialog({
  engine: name,
  steps,
  label,
  title,
  did,
  askReason,
  returnTo,
  onDone,
  onClose,
}: TransitionDialogProps) {
  const engine = ENGINES[name];
  const router = useRouter();
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<PlanPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const reasonFirst = askReason && engine.reasonFirst;
  const withReason = (r: string) => steps.map((s) => (askReason ? { ...s, reason: r.trim() } : s));

  function load(r: string) {
    setError(null);
    setPreview(null);
    start(async () => {
      const res = await engine.preview(withReason(r));
      if (res.ok) setPreview(res.preview);
      else setError(res.message);
    });
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: the preview loads once, when the dialog opens; later loads follow the reason typed
  useEffect(() => {
    if (!reasonFirst) load('');
  }, []);
  // Confirm takes the focus once the preview is there (Enter confirms); a reason keeps the focus in its field.
  // The button is enabled only once the transition has settled, so the focus waits for that too.
  useEffect(() => {
    if (preview && !askReason && !pending) confirmRef.current?.focus();
  }, [preview, askReason, pending]);

  function confirm() {
    if (!preview) return;
    setError(null);
    start(async () => {
      const res = await engine.apply(withReason(reason), preview);
      if (!res.ok) {
        if (res.preview) setPreview(res.preview);
        setError(res.message);
        return;
      }
      await qc.invalidateQueries();
      const message = res.message ?? did;
      window.dispatchEvent(
        new CustomEvent(TRANSITION_DONE_EVENT, {
          detail: { id: steps[0]?.id, message, batch: res.batch, files: res.files },
        }),
      );
      if (returnTo && res.batch) router.push(doneHref(returnTo, res.batch, res.files, did));
      else onDone?.({ ok: true, message, batch: res.batch, files: res.files });
      router.refresh();
      onClose();
    });
  }

  const verb = label.toLowerCase();
  return (
    <form
      role="dialog"
      aria-label={`Confirm ${verb}`}
      className="mt-3 rounded-md border border-teal-300 bg-teal-50/60 p-3 dark:border-teal-800 dark:bg-teal-950/40"
      onSubmit={(e) => {
        e.preventDefault();
        if (preview) confirm();
        else if (reasonFirst && reason.trim()) load(reason);
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
          Why {verb} this {engine.noun}?
          <span className="ml-1 font-normal text-slate-600 dark:text-slate-400">
            (recorded in the file and the audit)
          </span>
          <input
            // biome-ignore lint/a11y/noAutofocus: the dialog opened on the user's click to ask exactly this
            autoFocus
            required
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              if (reasonFirst) setPreview(null);
            }}
            maxLength={300}
            placeholder="e.g. no longer true since the CI migration"
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm font-normal dark:border-slate-600 dark:bg-slate-900"
          />
        </label>
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-800 dark:text-red-300">
          {error}
        </p>
      ) : null}
      {preview ? (
        <PreviewView preview={preview} reason={askReason ? reason : undefined} />
      ) : pending ? (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">Planning…</p>
      ) : null}
      <div className="mt-3 flex gap-2">
        {reasonFirst && !preview ? (
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
            Confirm {verb}
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
