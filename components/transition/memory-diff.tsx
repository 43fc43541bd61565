/** The diff preview of a transition: frontmatter lines before → after, the move, the index line. */
import type { TransitionPreview } from '@/lib/service/write/preview';

export function DiffPreview({ preview, reason }: { preview: TransitionPreview; reason?: string }) {
  const changes = preview.changes.map((c) =>
    c.key === 'quarantine-reason' && c.after !== null && reason !== undefined
      ? { ...c, after: `quarantine-reason: ${reason.trim() || '…'}` }
      : c,
  );
  return (
    <div role="group" className="mt-2 space-y-3 text-sm" aria-label="Diff preview">
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {preview.filename}: {preview.from ?? 'no trust-level'} → {preview.to}
      </p>
      {changes.length ? (
        <table className="w-full border-collapse font-mono text-xs">
          <caption className="mb-1 text-left font-sans text-xs font-semibold uppercase tracking-wide text-slate-500">
            Frontmatter
          </caption>
          <thead className="sr-only">
            <tr>
              <th>before</th>
              <th>after</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c, i) => (
              <tr key={i} className="align-top">
                <td
                  className={`w-1/2 break-all border border-slate-200 px-2 py-1 dark:border-slate-700 ${c.before ? 'bg-red-50 text-red-900 dark:bg-red-950/50 dark:text-red-100' : 'text-slate-400'}`}
                >
                  {c.before ? `− ${c.before}` : '(new line)'}
                </td>
                <td
                  className={`w-1/2 break-all border border-slate-200 px-2 py-1 dark:border-slate-700 ${c.after ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-100' : 'text-slate-400'}`}
                >
                  {c.after ? `+ ${c.after}` : '(removed)'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-xs text-slate-600 dark:text-slate-400">No frontmatter line changes.</p>
      )}
      {preview.note ? <p className="text-xs text-amber-800 dark:text-amber-300">{preview.note}</p> : null}
      {preview.origin ? (
        <div
          role="alert"
          data-testid="untrusted-origin"
          className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="font-semibold">Untrusted origin</p>
          <p>
            The turn that wrote this memory read {preview.origin.summary} before writing it. Promoting makes it verified
            context in every session: confirm only if you checked what it says.
          </p>
        </div>
      ) : null}
      <p className="text-xs">
        <span className="font-semibold uppercase tracking-wide text-slate-500">Move </span>
        {preview.move ? (
          <span className="font-mono">
            {preview.move.from || '(root)'}/ → {preview.move.to || '(root)'}/
          </span>
        ) : (
          <span className="text-slate-600 dark:text-slate-400">the file stays where it is</span>
        )}
      </p>
      {preview.index ? (
        <p className="text-xs">
          <span className="font-semibold uppercase tracking-wide text-slate-500">{preview.index.file} </span>
          {preview.index.kind === 'remove' ? 'loses the line ' : 'gets back the line '}
          <code
            className={`break-all rounded px-1 ${preview.index.kind === 'remove' ? 'bg-red-50 text-red-900 dark:bg-red-950/50 dark:text-red-100' : 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-100'}`}
          >
            {preview.index.line}
          </code>
        </p>
      ) : null}
    </div>
  );
}
