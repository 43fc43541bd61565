import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { listRecords, type RecordView } from '@/lib/service/records/read';
import { recordHref } from '@/lib/record-url';
import { TierBadge } from '@/components/tier-badge';
import { EmptyState } from '@/components/ui/empty-state';
import { MaskedText } from '@/components/records/masked-text';
import { RecordsLiveRefresh } from '@/components/records/records-live-refresh';
import { detailString, masker } from '@/components/records/record-view';
import { recordRootsToken } from '../token';
import { title } from '@/components/title';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Staleness' };

interface Staleness {
  stale: boolean;
  reason: string | null;
  commits: number | null;
  touching: number | null;
  days: number | null;
}

function staleness(r: RecordView): Staleness {
  const s = (r.detail.staleness && typeof r.detail.staleness === 'object' ? r.detail.staleness : {}) as Record<
    string,
    unknown
  >;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    stale: s.stale === true,
    reason: detailString(s.reason),
    commits: n(s.commits),
    touching: n(s.touching),
    days: n(s.days),
  };
}

/** Canonical entries by commits since they were last verified (docs/records-pages.md "Staleness"): the most drifted first. */
export default async function StalenessPage() {
  const ctx = freshContext();
  const token = recordRootsToken(ctx);
  const mask = masker(ctx.owner());
  const all: RecordView[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = listRecords(ctx, { layout: 'canonical', offset, limit: 500 });
    all.push(...page.items);
    if (page.items.length === 0 || all.length >= page.total) break;
  }
  const rows = all
    .map((r) => ({ r, s: staleness(r) }))
    .sort(
      (a, b) =>
        (b.s.commits ?? -1) - (a.s.commits ?? -1) ||
        (b.s.days ?? -1) - (a.s.days ?? -1) ||
        a.r.key.localeCompare(b.r.key),
    );
  const stale = rows.filter((x) => x.s.stale).length;
  return (
    <div>
      <RecordsLiveRefresh since={token} />
      <nav className="mb-2 text-sm text-slate-600 dark:text-slate-400">
        <Link href="/records" className="hover:underline">
          Records
        </Link>{' '}
        / staleness
      </nav>
      <div className="mb-4 flex items-baseline justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">Staleness of canonical entries</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {stale} of {rows.length} stale
        </p>
      </div>
      <p className="mb-4 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        Entries of canonical-file project memory by the number of project commits since they were last verified; an
        entry goes stale at 30 commits, else after 90 days (backlog and decisions never by age).
      </p>
      {rows.length === 0 ? (
        <EmptyState title="No canonical entries">
          Add a project&apos;s .claude/memory/ folder as a root to see how far its entries drifted.
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-300">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Entry
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Category
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Commits since verified
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Touching its target
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Days
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Reason
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Tier
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {rows.map(({ r, s }) => (
                <tr key={r.id} data-record={r.id} className={s.stale ? 'bg-amber-50/50 dark:bg-amber-950/20' : ''}>
                  <td className="max-w-md px-3 py-2">
                    <Link
                      href={recordHref(r.id)}
                      className="font-medium text-teal-800 hover:underline dark:text-teal-300"
                    >
                      <MaskedText text={title(mask(r.title)) || mask(r.key)} />
                    </Link>
                    <div className="truncate font-mono text-xs text-slate-500 dark:text-slate-400">
                      <MaskedText text={mask(r.key)} />
                    </div>
                  </td>
                  <td className="px-3 py-2">{detailString(r.detail.category) ?? '—'}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{s.commits ?? '—'}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{s.touching ?? '—'}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{s.days ?? '—'}</td>
                  <td className="px-3 py-2 text-xs">
                    {s.reason ? <MaskedText text={mask(s.reason)} /> : s.stale ? 'stale' : '—'}
                  </td>
                  <td className="px-3 py-2">
                    <TierBadge tier={r.tier} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
