import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import type { ServiceContext } from '@/lib/service/context';
import { scopedContext } from '@/lib/service/project-filter';
import { pageProject } from '@/app/page-project';
import { listMemoriesAndRecords } from '@/db/queries/memories';
import { syncRecordIndex } from '@/lib/service/records/read';
import { findingKinds } from '@/lib/service/index/inbox';
import { RECORD_QUEUES, type RecordQueue } from '@/db/queries/record-rows';
import { facets } from '@/db/queries/facets';
import {
  clearedHref,
  parseTableParams,
  toListQuery,
  withParams,
  PAGE_SIZE,
  TIER_PARAMS,
  type TierParam,
} from '@/lib/web/url-state';
import { MemoryTable } from '@/components/memory-table';
import { TableFilters } from '@/components/table-filters';
import { EmptyState } from '@/components/ui/empty-state';
import { LiveRefresh } from '@/components/live-refresh';
import { indexSignature } from '@/db/queries/signature';
import { parseAsOf } from '@/lib/web/as-of-param';
import { asOfRows } from '@/lib/service/versions/as-of-view';
import { deletedOutside } from '@/lib/service/versions/deleted-outside';
import { AsOfPicker } from '@/components/versions/as-of-picker';
import { AsOfBanner, AsOfTable } from '@/components/versions/as-of-table';
import { Pager } from '@/components/ui/pager';

export const dynamic = 'force-dynamic';

const TITLES: Record<TierParam, string> = {
  verified: 'Verified memories',
  inferred: 'Inferred memories',
  quarantined: 'Quarantined memories',
  archived: 'Archived memories',
  all: 'All memories',
};

type Props = {
  params: Promise<{ tier: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { tier } = await params;
  return { title: TITLES[tier as TierParam] ?? 'Memories' };
}

export default async function TierPage({ params, searchParams }: Props) {
  const { tier: raw } = await params;
  if (!(TIER_PARAMS as readonly string[]).includes(raw)) notFound();
  const tier = raw as TierParam;
  const query = await searchParams;
  const p = parseTableParams(query);
  // The project filter (docs/roots.md "The Claude Code home"): that project's roots only.
  const { ctx, ids } = scopedContext(freshContext(), await pageProject(query.project));
  const base = `/tiers/${tier}`;
  // A past view (docs/versions.md, "As of"): the kept versions, not the index; read-only.
  const asOf = parseAsOf(query.asOf);
  if (asOf) return <AsOfPage ctx={ctx} ids={ids} tier={tier} at={asOf} base={base} source={p.source} />;
  const now = ctx.now();
  // Records of the record roots beside the memories (docs/dashboard.md "Tier tabs").
  const live = syncRecordIndex(ctx);
  const { items, total } = listMemoriesAndRecords(
    ctx.handle.sqlite,
    {
      ...toListQuery(tier, p),
      cls: p.cls,
      kind: p.kind,
      sources: ids,
      recordQueue: (RECORD_QUEUES as readonly string[]).includes(p.status ?? '')
        ? (p.status as RecordQueue)
        : undefined,
    },
    live,
    now,
  );
  const f = facets(ctx.handle.sqlite);
  const deleted = deletedOutside(ctx, ids, { names: false }).length;
  const page = p.page ?? 1;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = Object.keys(p).some((k) => !['sort', 'dir', 'page'].includes(k));
  return (
    <div>
      <LiveRefresh since={indexSignature(ctx.handle.sqlite)} />
      <div className="mb-4 flex items-baseline justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">{TITLES[tier]}</h1>
        <Link
          href="/memories/new"
          className="ml-auto rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Add a memory
        </Link>
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          {total.toLocaleString('en-US')} {total === 1 ? 'memory' : 'memories'}
          {filtered ? ' match' : ''}
        </p>
      </div>
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <AsOfPicker base={base} at={null} source={p.source} />
        {deleted > 0 ? (
          <Link href="/deleted" className="text-sm text-teal-700 hover:underline dark:text-teal-300">
            {deleted} deleted outside memtrust →
          </Link>
        ) : null}
      </div>
      <TableFilters
        base={base}
        tier={tier}
        params={p}
        machines={f.machines}
        sources={[
          ...(ids ? f.sources.filter((s) => ids.includes(s.id)) : f.sources),
          ...ctx.recordSources.filter((s) => live.includes(s.id)),
        ]}
        records={live.length > 0}
        kinds={findingKinds(ctx, live)}
      />
      {items.length === 0 ? (
        <EmptyState
          title={filtered ? 'No memories match these filters' : `No ${tier === 'all' ? '' : `${tier} `}memories`}
        >
          {filtered ? (
            <Link href={clearedHref(base, p.project)} className="text-teal-700 hover:underline dark:text-teal-300">
              Clear the filters
            </Link>
          ) : (
            'Memories appear here as soon as files exist in this tier.'
          )}
        </EmptyState>
      ) : (
        <MemoryTable
          items={items}
          base={base}
          params={p}
          now={now}
          showTier={tier === 'all'}
          projects={p.project ? undefined : rowProjects(ctx)}
        />
      )}
      <Pager page={page} pages={pages} href={(n) => withParams(base, p, { page: n })} />
    </div>
  );
}

function AsOfPage({
  ctx,
  ids,
  tier,
  at,
  base,
  source,
}: {
  ctx: ServiceContext;
  ids?: string[];
  tier: TierParam;
  at: Date;
  base: string;
  source?: string;
}) {
  const rows = asOfRows(ctx, at, tier, source ? [source] : ids) ?? [];
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">{TITLES[tier]}</h1>
      </div>
      <AsOfBanner at={at} count={rows.length} />
      <div className="mb-3">
        <AsOfPicker base={base} at={at} source={source} />
      </div>
      {rows.length === 0 ? (
        <EmptyState title="No kept version of that time">
          memtrust keeps the versions it reads from the moment keeping versions is on (docs/versions.md).
        </EmptyState>
      ) : (
        <AsOfTable rows={rows} showTier={tier === 'all'} />
      )}
    </div>
  );
}

/**
 * Source id → project path when the roots belong to more than one project ("all projects" on a
 * Claude Code home): the same file name is common to many projects' folders, so each row says
 * whose it is. Undefined for a machine of one project or none.
 */
function rowProjects(ctx: ReturnType<typeof freshContext>): Map<string, string> | undefined {
  const m = new Map<string, string>();
  for (const s of [...ctx.sources, ...ctx.recordSources]) if (s.project) m.set(s.id, s.project.path);
  return new Set(m.values()).size > 1 ? m : undefined;
}
