/**
 * A tier table as it was at a time (docs/versions.md, "As of"): read from the kept versions,
 * marked as a past view and read-only — no transition from here; each row opens the memory's
 * versions, where Recover puts one back.
 */
import Link from 'next/link';
import type { AsOfRow } from '@/lib/service/versions/as-of-view';
import { TierBadge } from '@/components/tier-badge';
import { MaskedText } from '@/components/records/masked-text';
import { bytes, versionsHref, when } from './version-format';

const NOW_LABEL = { same: 'unchanged since', changed: 'changed since', deleted: 'deleted since' } as const;
const NOW_TONE = {
  same: 'text-slate-500 dark:text-slate-400',
  changed: 'text-amber-800 dark:text-amber-300',
  deleted: 'font-medium text-red-800 dark:text-red-300',
} as const;

export function AsOfBanner({ at, count }: { at: Date; count: number }) {
  return (
    <div
      role="status"
      data-testid="past-view"
      className="mb-4 rounded-lg border border-indigo-300 bg-indigo-50 px-4 py-3 text-sm text-indigo-950 dark:border-indigo-800 dark:bg-indigo-950 dark:text-indigo-100"
    >
      <strong>Past view, read-only:</strong> {count} {count === 1 ? 'memory' : 'memories'} as of{' '}
      {when(at.toISOString())}, from the versions memtrust kept. Nothing here can be changed; open a memory to compare
      or recover a version.
    </div>
  );
}

export function AsOfTable({ rows, showTier }: { rows: AsOfRow[]; showTier: boolean }) {
  return (
    <ul
      aria-label="Memories as of then"
      className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
    >
      {rows.map((r) => (
        <li
          key={`${r.source}:${r.relPath}`}
          data-testid={`asof-${r.relPath}`}
          className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2"
        >
          <div className="min-w-0 flex-1 basis-56">
            <Link href={versionsHref(r.id)} className="font-medium text-teal-700 hover:underline dark:text-teal-300">
              <MaskedText text={r.name ?? r.relPath} />
            </Link>
            <div className="break-all font-mono text-xs text-slate-500 dark:text-slate-400">{r.relPath}</div>
          </div>
          {showTier ? <TierBadge tier={r.tier} /> : null}
          <span className="text-xs text-slate-600 dark:text-slate-400">
            version of {when(r.seen)} · {bytes(r.size)}
          </span>
          <span className={`text-xs ${NOW_TONE[r.now]}`}>{NOW_LABEL[r.now]}</span>
        </li>
      ))}
    </ul>
  );
}
