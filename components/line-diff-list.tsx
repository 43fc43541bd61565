/**
 * A line diff as rows (lib/memory-file/line-diff.ts): old and new line numbers, the sign, the
 * text masked on the server. Used by the versions page (which renders mask chips through
 * `text`) and the editor's preview (a client component: plain text, its secret lines already
 * withheld by the server). Long lines wrap: no sideways scroll at 390 px.
 */
import type { ReactNode } from 'react';
import type { DiffRow } from '@/lib/memory-file/line-diff';

const TONE = {
  same: 'text-slate-700 dark:text-slate-300',
  removed: 'bg-red-50 text-red-900 dark:bg-red-950/60 dark:text-red-100',
  added: 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100',
} as const;
const SIGN = { same: ' ', removed: '−', added: '+' } as const;

export function LineDiffList({ rows, text }: { rows: DiffRow[]; text?: (line: string) => ReactNode }) {
  return (
    <ol
      aria-label="Line diff"
      className="overflow-hidden rounded-md border border-slate-200 font-mono text-xs dark:border-slate-700"
    >
      {rows.map((r, i) => (
        <li
          key={i}
          data-op={r.op}
          className={`grid grid-cols-[2.5rem_2.5rem_1rem_minmax(0,1fr)] gap-x-1 px-1 ${TONE[r.op]}`}
        >
          <span className="select-none text-right text-slate-500 dark:text-slate-400">{r.a ?? ''}</span>
          <span className="select-none text-right text-slate-500 dark:text-slate-400">{r.b ?? ''}</span>
          <span aria-hidden className="select-none text-center">
            {SIGN[r.op]}
          </span>
          <span className="whitespace-pre-wrap break-words [overflow-wrap:anywhere]">
            <span className="sr-only">{r.op === 'same' ? '' : `${r.op}: `}</span>
            {text ? text(r.text || ' ') : r.text || ' '}
          </span>
        </li>
      ))}
    </ol>
  );
}
