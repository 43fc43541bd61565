import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { scopedContext } from '@/lib/service/project-filter';
import { pageProject } from '@/app/page-project';
import { auditMachines, auditSources } from '@/db/queries/audit-events';
import { chartsData } from '@/db/queries/charts';
import { auditHref, describeFilters, parseAuditParams, toAuditFilter } from '@/lib/report/filters';
import { AuditFilters } from '@/components/audit-filters';
import { AuditCharts } from '@/components/audit-charts';
import { ReportLinks } from '@/components/audit-links';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Audit charts' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Root and type filters apply to every chart; the event filters (action, actor, machine, memory, dates) to the weekly ones. */
export default async function AuditChartsPage({ searchParams }: Props) {
  const raw = await searchParams;
  const p = parseAuditParams(raw);
  // The project filter (docs/roots.md "The Claude Code home"): that project's roots only, as on /audit.
  const { ctx } = scopedContext(freshContext(), await pageProject(raw.project));
  const sqlite = ctx.handle.sqlite;
  const data = chartsData(
    sqlite,
    { ...toAuditFilter(p), scope: [...ctx.sources, ...ctx.recordSources].map((s) => s.id) },
    ctx.now(),
  );
  const filters = describeFilters(p);
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Audit charts</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {data.weeks} weeks from {data.from} · as of {data.now.slice(0, 16).replace('T', ' ')} UTC
            {filters.length ? ` · ${filters.join(' · ')}` : ''}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <Link
            href={auditHref('/audit', { ...p, page: undefined })}
            className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Event list
          </Link>
          <ReportLinks params={p} />
        </div>
      </div>
      <AuditFilters base="/audit/charts" params={p} machines={auditMachines(sqlite)} sources={auditSources(sqlite)} />
      <AuditCharts data={data} />
    </div>
  );
}
