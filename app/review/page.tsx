import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { scopedContext } from '@/lib/service/project-filter';
import { pageProject } from '@/app/page-project';
import { inboxView, type InboxItem } from '@/lib/service/index/inbox';
import { clearedHref } from '@/lib/web/url-state';
import { inboxHref, parseInboxParams, toInboxQuery } from '@/lib/web/inbox-url';
import type { Sort } from '@/db/queries/memories';
import { InboxFilters } from '@/components/inbox/inbox-filters';
import { InboxTable, type InboxRow, type SortHeader } from '@/components/inbox/inbox-table';
import { LastDone } from '@/components/inbox/last-done';
import { InboxPane } from '@/components/inbox/inbox-pane';
import { EmptyState } from '@/components/ui/empty-state';
import { LiveRefresh } from '@/components/live-refresh';
import { indexSignature } from '@/db/queries/signature';
import { daysSince, memoryHref } from '@/components/format';
import { title } from '@/components/title';
import { Pager } from '@/components/ui/pager';
import { recordHref } from '@/lib/web/record-url';
import { ageBaseMs, flagWord } from '@/db/queries/record-rows';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Review' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const COLUMNS: { label: string; sort: Sort | null }[] = [
  { label: 'Name', sort: 'name' },
  { label: 'Tier', sort: null },
  { label: 'Type', sort: 'type' },
  { label: 'Age (d)', sort: 'created' },
  { label: 'Findings', sort: 'findings' },
];

function tags(m: InboxItem): InboxRow['tags'] {
  const out: InboxRow['tags'] = [];
  if (m.classes.credential) out.push({ label: 'credential', tone: 'red' });
  if (m.validateExit === 1 || m.validateExit === 2)
    out.push({ label: m.validateExit === 1 ? 'structure' : 'format', tone: 'red' });
  if (m.classes.personal) out.push({ label: 'personal', tone: 'amber' });
  if (m.injectionExit !== 0) out.push({ label: 'injection', tone: 'violet' });
  if (m.validateExit === 3) out.push({ label: 'warning', tone: 'slate' });
  // The always/never density: advice, never counted as an injection flag (docs/validators.md "Hints").
  if (m.findingChecks.split(' ').includes('hint')) out.push({ label: 'hint', tone: 'slate' });
  // The origin's flags (docs/origin.md "In the index").
  if (m.originFlags.includes('untrusted-origin')) out.push({ label: 'untrusted origin', tone: 'amber' });
  if (m.originFlags.includes('user-requested')) out.push({ label: 'user-requested', tone: 'slate' });
  // A record's flags, named by their queue (the one filter word; db/queries/record-rows.ts).
  for (const f of m.recordFlags ?? [])
    out.push({ label: flagWord(f), tone: f === 'conflict' || f === 'write-rule' ? 'amber' : 'slate' });
  if (m.findingCount > 0) out.push({ label: `${m.findingCount}`, tone: 'slate' });
  return out;
}

export default async function ReviewPage({ searchParams }: Props) {
  const raw = await searchParams;
  const p = parseInboxParams(raw);
  // The project filter (docs/roots.md "The Claude Code home"): that project's roots only.
  const { ctx, ids } = scopedContext(freshContext(), await pageProject(raw.project));
  const now = ctx.now();
  const q = { ...toInboxQuery(p), sources: ids };
  const view = inboxView(ctx, q, p.sel);
  const size = q.limit!;
  const page = p.page ?? 1;
  const pages = Math.max(1, Math.ceil(view.total / size));
  const selectedKey = view.pane?.item.key ?? null;
  const rows: InboxRow[] = view.items.map((m) => {
    return {
      key: m.key,
      id: m.id,
      href: inboxHref(p, { sel: m.key }),
      // A record's detail is its record page (docs/review-inbox.md "Records in the inbox").
      detailHref: m.kind === 'record' ? recordHref(m.id) : memoryHref(m.source, m.filename),
      record: m.kind === 'record',
      name: title(m.name) || m.filename,
      description: title(m.description, 160),
      relPath: m.relPath,
      tier: m.tier,
      type: m.type,
      layout: m.layout,
      age: ((d) => (d === null ? null : Math.max(0, d)))(daysSince(ageBaseMs(m), now)),
      flagged: !!m.flagged,
      // The single Promote's refusal (flaggedReason): the bulk Promote is off while such a row is ticked.
      flaggedWhy: m.flagged || null,
      tags: tags(m),
      note:
        m.kind === 'record'
          ? null
          : m.conflict
            ? 'conflict: also in another folder'
            : m.error
              ? m.error
              : m.indexed === false
                ? 'not named in MEMORY.md: not loaded'
                : null,
    };
  });
  const sort = p.sort ?? 'name';
  const dir = p.dir ?? 'asc';
  const headers: SortHeader[] = COLUMNS.map((c) => ({
    label: c.label,
    href: c.sort
      ? inboxHref(p, { sort: c.sort, dir: sort === c.sort && dir === 'asc' ? 'desc' : 'asc', page: undefined })
      : null,
    state: c.sort && sort === c.sort ? (dir === 'asc' ? 'ascending' : 'descending') : 'none',
  }));
  const filtered = Object.keys(p).some((k) => !['sort', 'dir', 'page', 'sel', 'size'].includes(k));
  return (
    <div>
      <LiveRefresh since={indexSignature(ctx.handle.sqlite)} />
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Review</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          {view.total.toLocaleString('en-US')} {view.total === 1 ? 'memory' : 'memories'}
          {filtered ? ' match' : ' need a decision'} · press{' '}
          <kbd className="rounded border px-1 font-mono text-xs">?</kbd> for keys
        </p>
      </div>
      <InboxFilters params={p} facets={view.facets} />
      {rows.length === 0 ? (
        <>
          {filtered ? null : <LastDone />}
          <EmptyState title={filtered ? 'No memories match these filters' : 'Nothing to review'}>
            {filtered ? (
              <Link
                href={clearedHref('/review', p.project)}
                className="text-teal-700 hover:underline dark:text-teal-300"
              >
                Clear the filters
              </Link>
            ) : (
              <>
                No inferred memories past observation, no stale verified memories, no quarantine.{' '}
                <Link href="/" className="text-teal-700 hover:underline">
                  Back to the overview
                </Link>
              </>
            )}
          </EmptyState>
        </>
      ) : (
        <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div>
            <InboxTable rows={rows} selected={selectedKey} headers={headers} />
            <Pager
              page={page}
              pages={pages}
              total={view.total}
              size={size}
              href={(n) => inboxHref(p, { page: n, sel: undefined })}
              className="mt-3"
            />
          </div>
          {view.pane ? (
            <div className="xl:sticky xl:top-4 xl:self-start">
              <InboxPane pane={view.pane} />
            </div>
          ) : null}
        </div>
      )}
    </div>
  );
}
