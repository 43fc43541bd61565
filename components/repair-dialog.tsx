'use client';
/**
 * Repair and restore (docs/trust-model.md): the blocking lines of a quarantined memory, a
 * choice per flagged value (keep, remove; wrap in <redacted> for personal data only —
 * a credential is never kept, lib/service/write/repair-modes.ts), the frontmatter with
 * the parser's message and line, live validation of the result, then one gesture
 * that writes the edit and moves the file back. The values themselves never reach
 * the browser: lines are masked and withheld frontmatter lines are markers.
 */
import { useEffect, useRef, useState, useTransition } from 'react';
import { checkRepairAction, repairModelAction, repairRestoreAction } from '@/app/actions';
import type { RepairCheck, RepairModel } from '@/lib/service/write/repair';
import { modesFor, type RedactMode } from '@/lib/service/write/repair-modes';
import { FindingList } from './finding-list';

const MODES: { value: RedactMode; label: string }[] = [
  { value: 'keep', label: 'keep' },
  { value: 'redact', label: 'wrap in <redacted>' },
  { value: 'remove', label: 'remove value' },
];

export function RepairDialog({
  id,
  onClose,
  onDone,
}: {
  id: string;
  onClose: () => void;
  onDone: (message: string, batch?: string) => void;
}) {
  const [model, setModel] = useState<RepairModel | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [modes, setModes] = useState<Record<string, RedactMode>>({});
  const [fm, setFm] = useState<string | null>(null);
  const [check, setCheck] = useState<RepairCheck | null>(null);
  const [checking, setChecking] = useState(false);
  const [pending, start] = useTransition();
  const seq = useRef(0);

  useEffect(() => {
    void repairModelAction({ id }).then((r) => {
      if (!r.ok) return setError(r.message);
      setModel(r.data);
      setModes(Object.fromEntries(r.data.values.map((v) => [v.key, v.class === 'credential' ? 'remove' : 'redact'])));
    });
  }, [id]);

  const fmEdited = model && fm !== null && fm !== model.frontmatter;
  useEffect(() => {
    if (!model) return;
    const n = ++seq.current;
    setChecking(true);
    const t = setTimeout(() => {
      void checkRepairAction({ id, redactions: modes, frontmatter: fmEdited ? fm! : undefined }).then((r) => {
        if (n !== seq.current) return;
        setChecking(false);
        if (r.ok) setCheck(r.data);
        else setError(r.message);
      });
    }, 250);
    return () => clearTimeout(t);
  }, [id, model, modes, fm, fmEdited]);

  function apply() {
    if (!model) return;
    start(async () => {
      const r = await repairRestoreAction({
        id,
        redactions: modes,
        frontmatter: fmEdited ? fm! : undefined,
        expectSha: model.sha256,
        opId: crypto.randomUUID(),
      });
      if (r.ok) onDone(r.data.message, r.data.batch);
      else setError(r.message);
    });
  }

  return (
    <div
      role="dialog"
      aria-label="Repair and restore"
      aria-modal="true"
      className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-slate-900/40 p-6"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="w-full max-w-3xl rounded-lg bg-white p-5 shadow-xl dark:bg-slate-900">
        <div className="flex items-baseline justify-between gap-4">
          <h2 className="text-lg font-semibold">
            Repair and restore {model ? <span className="font-mono text-sm">{model.filename}</span> : null}
          </h2>
          <button
            type="button"
            // biome-ignore lint/a11y/noAutofocus: focus moves into the dialog as it opens (the WAI-ARIA modal dialog pattern)
            autoFocus
            onClick={onClose}
            className="rounded-md px-2 py-1 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            Close
          </button>
        </div>
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          The quarantined file is not edited in place: the edited copy is validated, then written to memories/ as
          verified in one step (one audit event with both checksums).
        </p>
        {error ? (
          <p
            role="alert"
            className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
          >
            {error}
          </p>
        ) : null}
        {!model && !error ? <p className="mt-3 text-sm text-slate-500">Reading the file…</p> : null}
        {model ? (
          <div className="mt-4 space-y-5">
            {model.values.length ? (
              <section>
                <h3 className="text-sm font-semibold">Flagged values ({model.values.length})</h3>
                <ul className="mt-2 space-y-2">
                  {model.values.map((v) => (
                    <li key={v.key} className="rounded-md border border-slate-200 p-2 text-sm dark:border-slate-700">
                      <div className="flex flex-wrap items-baseline gap-2">
                        <span
                          className={`rounded px-1.5 text-xs font-medium ${v.class === 'credential' ? 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100' : 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100'}`}
                        >
                          {v.class}
                        </span>
                        <span>{v.message}</span>
                        <span className="text-xs text-slate-500">line {v.line}</span>
                      </div>
                      <code className="mt-1 block overflow-x-auto whitespace-pre rounded bg-slate-50 px-2 py-1 text-xs dark:bg-slate-800">
                        {v.context}
                      </code>
                      <fieldset className="mt-1 flex flex-wrap gap-3 text-xs">
                        <legend className="sr-only">
                          What to do with {v.message} on line {v.line}
                        </legend>
                        {MODES.filter((m) => modesFor(v.class).includes(m.value)).map((m) => (
                          <label key={m.value} className="flex items-center gap-1">
                            <input
                              type="radio"
                              name={`mode-${v.key}`}
                              checked={modes[v.key] === m.value}
                              onChange={() => setModes({ ...modes, [v.key]: m.value })}
                            />
                            {m.label}
                          </label>
                        ))}
                      </fieldset>
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
            {model.blocking.length ? (
              <section>
                <h3 className="text-sm font-semibold">Structure and format</h3>
                <div className="mt-1">
                  <FindingList findings={model.blocking} />
                </div>
              </section>
            ) : null}
            {model.frontmatter !== null ? (
              <section>
                <label className="block text-sm font-semibold" htmlFor={`fm-${id}`}>
                  Frontmatter
                </label>
                {model.frontmatterError ? (
                  <p className="mt-1 text-sm text-red-800 dark:text-red-300">
                    The YAML does not parse: {model.frontmatterError.message} (line {model.frontmatterError.line})
                  </p>
                ) : null}
                <textarea
                  id={`fm-${id}`}
                  rows={Math.min(14, (fm ?? model.frontmatter).split('\n').length + 1)}
                  value={fm ?? model.frontmatter}
                  onChange={(e) => setFm(e.target.value)}
                  spellCheck={false}
                  className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs dark:border-slate-600 dark:bg-slate-950"
                />
                <p className="mt-1 text-xs text-slate-500">
                  Line 1 of the file is the opening ---; this box starts at line 2. A ⟦withheld⟧ line is kept as it is
                  in the file (its flagged values follow your choices above).
                </p>
              </section>
            ) : null}
            <section aria-live="polite">
              <h3 className="text-sm font-semibold">
                Result {checking ? <span className="font-normal text-slate-500">(checking…)</span> : null}
              </h3>
              {check ? (
                <div className="mt-1 space-y-2">
                  <p
                    role="status"
                    className={`text-sm font-medium ${check.passes ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-800 dark:text-red-300'}`}
                  >
                    {check.passes
                      ? 'Passes validate and secret-check: ready to restore.'
                      : 'Still blocked: fix the findings below.'}
                  </p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    The edit changes {check.bodyLinesChanged} {check.bodyLinesChanged === 1 ? 'line' : 'lines'} of the
                    file; restoring then rewrites trust-level and last-verified and removes the quarantine keys.
                  </p>
                  <FindingList findings={check.findings} />
                </div>
              ) : null}
            </section>
            <div className="flex gap-2">
              <button
                type="button"
                disabled={!check?.passes || pending || checking}
                onClick={apply}
                className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
              >
                Apply edits and restore
              </button>
              <button
                type="button"
                onClick={onClose}
                className="rounded-md px-3 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
              >
                Cancel
              </button>
            </div>
          </div>
        ) : null}
      </div>
    </div>
  );
}
