/**
 * A line diff between two kept versions (docs/versions.md, "Versions in the dashboard"). The
 * text is masked on the server: kept copies hold no credential value, personal values show as
 * masks, the marker stands where a credential was. Long lines wrap: no sideways scroll.
 */
import type { VersionDiff } from '@/lib/service/versions/version-view';
import { MaskedText } from '@/components/records/masked-text';
import { shortSha, when } from './version-format';

const TONE = {
  same: 'text-slate-700 dark:text-slate-300',
  removed: 'bg-red-50 text-red-900 dark:bg-red-950/60 dark:text-red-100',
  added: 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100',
} as const;
const SIGN = { same: ' ', removed: '−', added: '+' } as const;

export function VersionDiffView({ diff }: { diff: VersionDiff }) {
  const changed = diff.added + diff.removed;
  return (
    <div>
      <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
        From <span className="font-mono">{shortSha(diff.from.sha)}</span> ({when(diff.from.at)}) to{' '}
        <span className="font-mono">{shortSha(diff.to.sha)}</span> ({when(diff.to.at)}):{' '}
        {changed === 0 ? 'the same lines' : `${diff.removed} removed, ${diff.added} added`}
      </p>
      <ol
        aria-label="Line diff"
        className="overflow-hidden rounded-md border border-slate-200 font-mono text-xs dark:border-slate-700"
      >
        {diff.rows.map((r, i) => (
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
              <MaskedText text={r.text || ' '} />
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
