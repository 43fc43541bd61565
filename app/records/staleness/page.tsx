import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { listRecords, type RecordView } from '@/lib/service/records/read';
import { recordHref } from '@/lib/web/record-url';
import { TierBadge } from '@/components/tier-badge';
import { EmptyState } from '@/components/ui/empty-state';
import { MaskedText } from '@/components/records/masked-text';
import { RecordsLiveRefresh } from '@/components/records/records-live-refresh';
import { detailString, masker } from '@/components/records/record-view';
import { recordRootsToken } from '../token';
import { title } from '@/components/title';
import { Pager } from '@/components/ui/pager';
import {
  parseStalenessParams,
  STALENESS_PAGE_SIZE,
  type StalenessParams,
  type StalenessSort,
  stalenessDir,
  stalenessHref,
  stalenessPage,
} from '@/components/records/staleness';

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

/** A column header that sorts by it: the first click in the column's own first direction, the next one reversed. */
function SortLink({ p, sort, children }: { p: StalenessParams; sort: StalenessSort; children: React.ReactNode }) {
  const active = (p.sort ?? 'staleness') === sort;
  const dir = stalenessDir(p);
  const flip = dir === 'asc' ? 'desc' : 'asc';
  return (
    <Link
      href={stalenessHref(p, {
        sort: sort === 'staleness' ? undefined : sort,
        dir: active ? flip : undefined,
        page: undefined,
      })}
      aria-label={`Sort by ${sort}`}
      className="hover:underline"
    >
      {children}
      {active ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
    </Link>
  );
}

const ariaSort = (p: StalenessParams, sort: StalenessSort) =>
  (p.sort ?? 'staleness') === sort ? (stalenessDir(p) === 'asc' ? 'ascending' : 'descending') : 'none';

/**
 * Canonical entries by commits since they were last verified (docs/records-pages.md "Staleness"):
 * the most drifted first, 50 a page; sort and page in the URL.
 */
export default async function StalenessPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const p = parseStalenessParams(await searchParams);
  const ctx = freshContext();
  const token = recordRootsToken(ctx);
  const mask = masker(ctx.owner());
  const all: RecordView[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = listRecords(ctx, { layout: 'canonical', offset, limit: 500 });
    all.push(...page.items);
    if (page.items.length === 0 || all.length >= page.total) break;
  }
  const every = all.map((r) => {
    const s = staleness(r);
    return { r, s, key: r.key, title: title(mask(r.title)) || mask(r.key), commits: s.commits, days: s.days };
  });
  const stale = every.filter((x) => x.s.stale).length;
  const { rows, page, pages, total } = stalenessPage(every, p);
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
          {stale} of {total} stale
        </p>
      </div>
      <p className="mb-4 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        Entries of canonical-file project memory by the number of project commits since they were last verified; an
        entry goes stale at 30 commits, else after 90 days (backlog and decisions never by age).
      </p>
      {total === 0 ? (
        <EmptyState title="No canonical entries">
          Add a project&apos;s .claude/memory/ folder as a root to see how far its entries drifted.
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-300">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium" aria-sort={ariaSort(p, 'name')}>
                  <SortLink p={p} sort="name">
                    Entry
                  </SortLink>
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Category
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium" aria-sort={ariaSort(p, 'staleness')}>
                  <SortLink p={p} sort="staleness">
                    Commits since verified
                  </SortLink>
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Touching its target
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium" aria-sort={ariaSort(p, 'days')}>
                  <SortLink p={p} sort="days">
                    Days
                  </SortLink>
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
              {rows.map(({ r, s, title: shown }) => (
                <tr key={r.id} data-record={r.id} className={s.stale ? 'bg-amber-50/50 dark:bg-amber-950/20' : ''}>
                  <td className="max-w-md px-3 py-2">
                    <Link
                      href={recordHref(r.id)}
                      className="font-medium text-teal-800 hover:underline dark:text-teal-300"
                    >
                      <MaskedText text={shown} />
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
      <Pager
        page={page}
        pages={pages}
        total={total}
        size={STALENESS_PAGE_SIZE}
        href={(n) => stalenessHref(p, { page: n === 1 ? undefined : n })}
      />
    </div>
  );
}
