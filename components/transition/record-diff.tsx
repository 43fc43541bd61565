/** The changed lines of a record action's preview, per file, before → after (already masked on the server). */
import type { StepsPreview } from '@/app/records/actions';
import { MaskedText } from '@/components/records/masked-text';
import { changedSpan } from '@/lib/web/record-preview';

function Line({ text, other, tone }: { text: string; other: string | undefined; tone: 'del' | 'ins' }) {
  if (other === undefined) return <MaskedText text={text} />;
  const [pre, suf] = changedSpan(tone === 'del' ? text : other, tone === 'del' ? other : text);
  const end = text.length - suf;
  const start = Math.min(pre, end);
  return (
    <>
      <MaskedText text={text.slice(0, start)} />
      <mark
        className={`rounded-sm font-semibold ${tone === 'del' ? 'bg-red-200 text-red-950 dark:bg-red-800 dark:text-red-50' : 'bg-emerald-200 text-emerald-950 dark:bg-emerald-800 dark:text-emerald-50'}`}
      >
        <MaskedText text={text.slice(start, end)} />
      </mark>
      <MaskedText text={text.slice(end)} />
    </>
  );
}

const CHANGE: Record<string, string> = {
  created: 'new file',
  removed: 'file removed',
  changed: 'changed',
  unchanged: 'unchanged',
};

export function RecordPreview({ preview }: { preview: StepsPreview }) {
  return (
    <div role="group" className="mt-2 space-y-3 text-sm" aria-label="Change preview">
      {preview.summary.length ? (
        <ul className="list-disc pl-5 text-xs text-slate-700 dark:text-slate-300">
          {preview.summary.map((s, i) => (
            <li key={i}>
              <MaskedText text={s} />
            </li>
          ))}
        </ul>
      ) : null}
      {preview.files.map((f) => (
        <div key={f.file} data-preview-file={f.file}>
          <p className="mb-1 font-mono text-xs font-semibold">
            {f.file}{' '}
            <span className="font-sans font-normal text-slate-600 dark:text-slate-400">({CHANGE[f.change]})</span>
          </p>
          <table className="w-full border-collapse font-mono text-xs">
            <thead className="sr-only">
              <tr>
                <th>line</th>
                <th>before</th>
                <th>after</th>
              </tr>
            </thead>
            <tbody>
              {f.hunks.flatMap((h, hi) => {
                const n = Math.max(h.removed.length, h.added.length);
                return Array.from({ length: n }, (_, i) => (
                  <tr key={`${hi}-${i}`} className="align-top" data-line={h.beforeLine + i}>
                    <td className="w-12 border border-slate-200 px-1 py-1 text-right text-slate-500 dark:border-slate-700">
                      {i < h.removed.length ? h.beforeLine + i : h.afterLine + i}
                    </td>
                    <td
                      className={`w-1/2 break-all border border-slate-200 px-2 py-1 dark:border-slate-700 ${h.removed[i] !== undefined ? 'bg-red-50 text-red-900 dark:bg-red-950/50 dark:text-red-100' : 'text-slate-500 dark:text-slate-400'}`}
                    >
                      {h.removed[i] !== undefined ? (
                        <>
                          − <Line text={h.removed[i]!} other={h.added[i]} tone="del" />
                        </>
                      ) : (
                        '(new line)'
                      )}
                    </td>
                    <td
                      className={`w-1/2 break-all border border-slate-200 px-2 py-1 dark:border-slate-700 ${h.added[i] !== undefined ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-100' : 'text-slate-500 dark:text-slate-400'}`}
                    >
                      {h.added[i] !== undefined ? (
                        <>
                          + <Line text={h.added[i]!} other={h.removed[i]} tone="ins" />
                        </>
                      ) : (
                        '(removed)'
                      )}
                    </td>
                  </tr>
                ));
              })}
            </tbody>
          </table>
          {f.omitted ? (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              … and {f.omitted.toLocaleString('en-US')} more changed lines not shown
            </p>
          ) : null}
        </div>
      ))}
      {preview.files.length === 0 ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">No file changes.</p>
      ) : null}
    </div>
  );
}
