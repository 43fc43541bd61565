import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { scopedContext } from '@/lib/service/project-filter';
import { pageProject } from '@/app/page-project';
import { listRecords } from '@/lib/service/records/read';
import { clearedHref } from '@/lib/web/url-state';
import { parseRecordParams, recordsHref, toRecordFilter, RECORD_PAGE_SIZE } from '@/lib/web/record-url';
import { RecordFilters } from '@/components/records/record-filters';
import { RecordsTable, type RecordRow } from '@/components/records/records-table';
import { ReadProblems, type ProblemGroup } from '@/components/records/read-problems';
import { RecordsLiveRefresh } from '@/components/records/records-live-refresh';
import { detailString, findingChecks, locationText, masker } from '@/components/records/record-view';
import { EmptyState } from '@/components/ui/empty-state';
import { recordRootsToken } from './token';
import { title } from '@/components/title';
import { Pager } from '@/components/ui/pager';
import { recordFindingKinds } from '@/db/queries/record-rows';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Records' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function RecordsPage({ searchParams }: Props) {
  const raw = await searchParams;
  const p = parseRecordParams(raw);
  // The project filter (docs/roots.md "The Claude Code home"): that project's record roots only.
  const { ctx } = scopedContext(freshContext(), await pageProject(raw.project));
  const token = recordRootsToken(ctx);
  const mask = masker(ctx.owner());
  const { items, total, problems, warnings } = listRecords(ctx, toRecordFilter(p));
  const shapes = new Map(ctx.recordSources.map((s) => [s.id, s.shape ?? '']));
  const rows: RecordRow[] = items.map((r) => ({
    id: r.id,
    layout: r.layout,
    shape: [
      detailString(r.detail.shape) ?? shapes.get(r.source),
      detailString(r.detail.category) ?? detailString(r.detail.type),
    ]
      .filter(Boolean)
      .join(' · '),
    key: mask(r.key),
    title: title(mask(r.title)),
    location: locationText(r),
    tier: r.tier,
    native: r.native,
    flags: r.flags,
    flagReasons: Object.fromEntries(Object.entries(r.flagReasons).map(([k, v]) => [k, mask(v ?? '')])),
    checks: findingChecks(r),
  }));
  const groups: ProblemGroup[] = ctx.recordSources.map((s) => ({
    source: s.id,
    root: s.root,
    label: s.label,
    problems: problems
      .filter((x) => x.source === s.id)
      .map((x) => ({ file: x.file, line: x.line, problem: mask(x.problem) })),
    warnings: warnings.filter((w) => w.source === s.id).map((w) => mask(w.warning)),
  }));
  const page = p.page ?? 1;
  const pages = Math.max(1, Math.ceil(total / RECORD_PAGE_SIZE));
  const filtered = Object.keys(p).some((k) => k !== 'page');
  const conflicts =
    p.queue !== 'contradictions' && p.flag !== 'conflict' && items.some((r) => r.flags.includes('conflict'));
  return (
    <div>
      <RecordsLiveRefresh since={token} />
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Records</h1>
        <Link
          href="/records/staleness"
          className="ml-auto rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Staleness
        </Link>
        <Link
          href="/records/conflicts"
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Contradictions
        </Link>
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          {total.toLocaleString('en-US')} {total === 1 ? 'record' : 'records'}
          {filtered ? ' match' : ''}
        </p>
      </div>
      <p className="mb-4 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        Stores read as records: canonical-file project memory, codeclone&apos;s governed records (read-only) and
        consolidation records. Each row shows the tier memtrust gives it beside the state the store itself writes.
      </p>
      <ReadProblems groups={groups} />
      <RecordFilters
        params={p}
        sources={ctx.recordSources.map((s) => ({ id: s.id, root: s.root }))}
        kinds={recordFindingKinds(
          ctx.handle.sqlite,
          ctx.recordSources.map((s) => s.id),
        )}
      />
      {conflicts ? (
        <p className="mb-3 text-sm">
          <Link href="/records/conflicts" className="text-teal-700 hover:underline dark:text-teal-300">
            Contradicting records are waiting: compare them side by side
          </Link>
        </p>
      ) : null}
      {ctx.recordSources.length === 0 ? (
        <EmptyState title="No record roots configured">
          Add a canonical <code>.claude/memory/</code>, a codeclone store or a folder of <code>*.memory.jsonl</code>{' '}
          files under{' '}
          <Link href="/settings" className="text-teal-700 hover:underline dark:text-teal-300">
            Settings
          </Link>
          .
        </EmptyState>
      ) : rows.length === 0 ? (
        <EmptyState title={filtered ? 'No records match these filters' : 'No records in these roots'}>
          {filtered ? (
            <Link
              href={clearedHref('/records', p.project)}
              className="text-teal-700 hover:underline dark:text-teal-300"
            >
              Clear the filters
            </Link>
          ) : (
            'Records appear here as soon as the stores hold some.'
          )}
        </EmptyState>
      ) : (
        <RecordsTable rows={rows} />
      )}
      <Pager page={page} pages={pages} href={(n) => recordsHref(p, { page: n })} />
    </div>
  );
}
