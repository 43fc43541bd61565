import Link from 'next/link';
import { TierBadge, FindingBadges } from '@/components/tier-badge';
import { recordHref } from '@/lib/web/record-url';
import type { RecordFlag } from '@/lib/sources/record';
import { FlagBadges, NativeState } from './flag-badges';
import { MaskedText } from './masked-text';

/** One table row, every text already masked by the page. */
export interface RecordRow {
  id: string;
  layout: string;
  /** The store's shape and the record's category or type (`sharded · landmines`). */
  shape: string;
  key: string;
  title: string;
  location: string;
  tier: string;
  native: string;
  flags: RecordFlag[];
  flagReasons: Partial<Record<string, string>>;
  checks: string;
}

const TH = 'px-3 py-2 font-medium';

export function RecordsTable({ rows }: { rows: RecordRow[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-300">
          <tr>
            <th scope="col" className={TH}>
              Record
            </th>
            <th scope="col" className={TH}>
              Layout
            </th>
            <th scope="col" className={TH}>
              Tier
            </th>
            <th scope="col" className={TH}>
              Native state
            </th>
            <th scope="col" className={TH}>
              Flags
            </th>
            <th scope="col" className={TH}>
              Findings
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((r) => (
            <tr key={r.id} data-record={r.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
              <td className="max-w-xl px-3 py-2">
                <Link href={recordHref(r.id)} className="font-medium text-teal-800 hover:underline dark:text-teal-300">
                  <MaskedText text={r.title || r.key} />
                </Link>
                <div className="truncate font-mono text-xs text-slate-500 dark:text-slate-400">
                  <MaskedText text={r.key} /> · {r.location}
                </div>
              </td>
              <td className="px-3 py-2">
                <div>{r.layout}</div>
                <div className="text-xs text-slate-500 dark:text-slate-400">{r.shape}</div>
              </td>
              <td className="px-3 py-2">
                <TierBadge tier={r.tier} />
              </td>
              <td className="px-3 py-2">
                <NativeState native={r.native} />
              </td>
              <td className="px-3 py-2">
                <FlagBadges flags={r.flags} reasons={r.flagReasons} />
              </td>
              <td className="px-3 py-2">
                <FindingBadges checks={r.checks} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
