import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { scopedContext } from '@/lib/service/project-filter';
import { pageProject } from '@/app/page-project';
import { auditMachines, auditSources, listAuditEvents } from '@/db/queries/audit-events';
import { AUDIT_PAGE_SIZE, auditHref, describeFilters, parseAuditParams, toAuditFilter } from '@/lib/report/filters';
import { clearedHref } from '@/lib/web/url-state';
import { guardEvent, textGuard } from '@/lib/report/redact';
import { AuditFilters } from '@/components/audit-filters';
import { AuditTable } from '@/components/audit-table';
import { AuditPager, ReportLinks } from '@/components/audit-links';
import { EmptyState } from '@/components/ui/empty-state';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Audit history' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AuditPage({ searchParams }: Props) {
  const raw = await searchParams;
  const p = parseAuditParams(raw);
  // The project filter (docs/roots.md "The Claude Code home"): events of that project's roots only.
  const { ctx } = scopedContext(freshContext(), await pageProject(raw.project));
  const sqlite = ctx.handle.sqlite;
  const page = p.page ?? 1;
  const { items, total } = listAuditEvents(
    sqlite,
    // Record roots' events too: each names its layout and key and links to the record (docs/records.md, "History and reports").
    { ...toAuditFilter(p), scope: [...ctx.sources, ...ctx.recordSources].map((s) => s.id) },
    { limit: AUDIT_PAGE_SIZE, offset: (page - 1) * AUDIT_PAGE_SIZE },
  );
  const guard = textGuard(ctx.owner());
  const sources = [
    ...auditSources(sqlite).filter((s) => ctx.sources.some((c) => c.id === s.id)),
    ...ctx.recordSources.map((s) => ({ id: s.id, root: s.root })),
  ];
  const filters = describeFilters(p);
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Audit history</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
            {total.toLocaleString('en-US')} {total === 1 ? 'event' : 'events'}
            {filters.length ? ` match ${filters.join(' · ')}` : ' from every machine that shares these roots'}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <Link
            href="/run/audit"
            className="rounded-md bg-teal-700 px-3 py-1.5 font-medium text-white hover:bg-teal-800"
          >
            Run audit…
          </Link>
          <Link
            href="/run/backfill"
            className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Back-fill…
          </Link>
          <Link
            href={auditHref('/audit/charts', { ...p, page: undefined })}
            className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Charts
          </Link>
          <ReportLinks params={p} />
        </div>
      </div>
      <AuditFilters base="/audit" params={p} machines={auditMachines(sqlite)} sources={sources} />
      {items.length === 0 && total > 0 ? (
        <EmptyState title="No events on this page">
          <Link
            href={auditHref('/audit', p, { page: undefined })}
            className="text-teal-700 hover:underline dark:text-teal-300"
          >
            Back to the newest events
          </Link>
        </EmptyState>
      ) : items.length === 0 ? (
        <EmptyState title={filters.length ? 'No events match these filters' : 'No audit events yet'}>
          {filters.length ? (
            <Link href={clearedHref('/audit', p.project)} className="text-teal-700 hover:underline dark:text-teal-300">
              Clear the filters
            </Link>
          ) : (
            'Every transition, back-fill, create and validator demotion is recorded here.'
          )}
        </EmptyState>
      ) : (
        <AuditTable items={items.map((e) => guardEvent(guard, e))} />
      )}
      <AuditPager params={p} page={page} pages={Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE))} />
    </div>
  );
}
