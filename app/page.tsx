import Link from 'next/link';
import { freshContext, indexRefreshing } from '@/lib/server';
import { overview } from '@/db/queries/overview';
import { StatCard, Section } from '@/components/ui/stat-card';
import { DemoNotice } from '@/components/demo-notice';
import { ReviewBanner } from '@/components/review-banner';
import { LiveRefresh } from '@/components/live-refresh';
import { indexSignature } from '@/db/queries/signature';
import { indexFindingsBySource, indexStatusBySource } from '@/lib/service/claude/index-file-scan';
import { IndexFindings } from '@/components/index-findings';
import { addRecordCounts, recordSourceSummaries } from '@/lib/service/records/read';
import { RecordsOverview } from '@/components/records/records-overview';
import { FirstHourSteps, OverviewActions } from '@/components/first-hour-steps';
import { firstHour } from '@/lib/service/index/first-hour';
import { ProjectLine } from '@/components/project-line';
import { scopedContext, USER_LEVEL } from '@/lib/service/project-filter';
import { pageProject } from '@/app/page-project';
import { MassChangeBanner } from '@/components/mass-change-banner';
import { pendingMassChanges } from '@/lib/service/versions/mass-notice';
import { deletedOutside } from '@/lib/service/versions/deleted-outside';
import { parseDone, ResultBanner } from '@/components/transition/result-banner';
import { rootsToShow } from '@/app/overview-roots';
import { TIERS, tierHint, tierTotals } from '@/lib/service/index/tier-totals';

const TIER_LABELS = { verified: 'Verified', inferred: 'Inferred', quarantined: 'Quarantined', archived: 'Archived' };

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function OverviewPage({ searchParams }: Props) {
  // The project filter (docs/roots.md "The Claude Code home"): that project's roots and numbers only.
  const query = await searchParams;
  // Rendered from the index as it is while the server's first scan runs (docs/freshness.md, "The dashboard's first scan").
  const { ctx, filter, ids } = scopedContext(freshContext({ mayLag: true }), await pageProject(query.project));
  const refreshing = indexRefreshing();
  // Memories another program deleted (docs/versions.md, "Versions in the dashboard").
  const deleted = deletedOutside(ctx, ids, { names: false }).length;
  const done = parseDone(query);
  const now = ctx.now();
  const o = overview(ctx.handle.sqlite, now, ids);
  const projects = new Map([...ctx.sources, ...ctx.recordSources].map((s) => [s.id, s.project]));
  // As the index has it (every root is ranked by it below; lib/service/claude/index-file-scan.ts).
  const indexes = indexStatusBySource(ctx.handle.sqlite, ctx.sources);
  // MEMORY.md is loaded into every session: its findings show on the root's section (docs/claude-code-folders.md).
  const indexFindings = indexFindingsBySource(
    ctx.handle.sqlite,
    ctx.sources.map((s) => s.id),
  );
  const refused = new Map(ctx.sources.filter((s) => s.refused).map((s) => [s.id, s]));
  // A home of 200 projects is 220 roots: the ones that need attention first, the rest behind a link.
  const roots = rootsToShow(
    o.bySource,
    (s) =>
      (refused.has(s.source) || s.error ? 4 : 0) +
      (indexFindings.get(s.source)?.length ? 2 : 0) +
      (indexes.get(s.source)?.cut ? 1 : 0),
    query.roots === 'all',
  );
  const allRootsHref = `/?${new URLSearchParams({ ...(typeof query.project === 'string' ? { project: query.project } : {}), roots: 'all' })}`;
  // Roots read as records (docs/records.md): their layout, shape and record count; the records pages list them.
  const recordRoots = recordSourceSummaries(ctx);
  const recordTotal = recordRoots.reduce((n, r) => n + r.count, 0);
  // With only record roots the memory cards would all read 0: they show once a memory root is read.
  const memoryCards = o.bySource.length > 0 || recordRoots.length === 0;
  const tiers = tierTotals(o.tiers, recordRoots);
  const bothKinds = o.bySource.length > 0 && recordRoots.length > 0;
  // The order that works on a root nobody has reviewed (docs/transition-ui.md "First hour").
  const first = firstHour(ctx);
  return (
    <div>
      {/* A poll answers once the scan is done: a page rendered before it refreshes then, whatever changed. */}
      <LiveRefresh since={`${indexSignature(ctx.handle.sqlite)}${refreshing ? ' refreshing' : ''}`} />
      {ctx.config.demo ? <DemoNotice root={ctx.config.roots[0]!} /> : null}
      <MassChangeBanner
        changes={pendingMassChanges(ctx.config.dbPath, ctx.config.roots).map(
          ({ batch, root, at, deleted, rewritten }) => ({
            batch,
            root,
            at,
            deleted,
            rewritten,
          }),
        )}
      />
      {done ? <ResultBanner result={done} className="mb-6" /> : null}
      {/* The steps say when to review; a banner pushing to review before the back-fill would skip them. */}
      {first.show ? null : <ReviewBanner count={o.dueForReview} />}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Overview</h1>
        <OverviewActions f={first} />
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {[
          memoryCards
            ? `${o.total.toLocaleString('en-US')} memories in ${o.bySource.length} ${o.bySource.length === 1 ? 'root' : 'roots'}`
            : null,
          o.lastScanMs ? `indexed ${new Date(o.lastScanMs).toISOString().replace('T', ' ').slice(0, 16)} UTC` : null,
          recordRoots.length
            ? `${recordTotal.toLocaleString('en-US')} records in ${recordRoots.length} record ${recordRoots.length === 1 ? 'root' : 'roots'}`
            : null,
          filter ? (filter === USER_LEVEL ? 'user-level roots' : `project ${filter}`) : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {refreshing ? (
        <p role="status" className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Refreshing the index: a change since it was last indexed shows here when the refresh ends.
        </p>
      ) : null}
      <FirstHourSteps f={first} />

      {/* One card per tier over memories and records: the tab it opens lists both (docs/dashboard.md "Overview"). */}
      <Section title="Tiers">
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4" data-testid="tier-cards">
          {TIERS.map((t) => (
            <StatCard
              key={t}
              label={TIER_LABELS[t]}
              value={tiers[t].total}
              hint={tierHint(tiers[t], bothKinds)}
              tone={t}
              href={`/tiers/${t}`}
            />
          ))}
        </div>
      </Section>

      {memoryCards ? (
        <>
          <Section title="Needs attention">
            <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              <StatCard
                label="Stale verified"
                value={o.staleVerified}
                hint="last verified more than 90 days ago"
                href="/tiers/verified?status=stale"
              />
              <StatCard
                label="Inferred awaiting review"
                value={o.dueForReview}
                hint="observation period over"
                href="/tiers/inferred?status=due"
              />
              <StatCard
                label="Inferred still observing"
                value={o.observing}
                hint="less than 7 days old"
                href="/tiers/inferred?status=observing"
              />
              <StatCard
                label="Conflicts"
                value={o.conflicts}
                hint="same file in memories/ and quarantine/"
                href="/tiers/all?status=conflicts"
              />
              {deleted > 0 ? (
                <StatCard
                  label="Deleted outside memtrust"
                  value={deleted}
                  hint="kept versions: recover them"
                  href="/deleted"
                />
              ) : null}
            </div>
          </Section>

          <Section title="Quarantine retention">
            <div className="grid grid-cols-3 gap-4">
              <StatCard
                label="Passive (day 0–30)"
                value={o.quarantine.passive}
                tone="quarantined"
                href="/tiers/quarantined?status=passive"
              />
              <StatCard
                label="Audit candidates (day 31–90)"
                value={o.quarantine.audit}
                tone="quarantined"
                href="/tiers/quarantined?status=audit"
              />
              <StatCard
                label="Archive candidates (day 91+)"
                value={o.quarantine.archive}
                tone="quarantined"
                href="/tiers/quarantined?status=archive"
              />
            </div>
          </Section>

          <Section title="Validator verdicts">
            <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              <StatCard label="Structure: pass" value={o.verdicts.validate.PASS} href="/tiers/all?verdict=pass" />
              <StatCard
                label="Structure errors (FAIL-STRUCT)"
                value={o.verdicts.validate['FAIL-STRUCT']}
                href="/tiers/all?verdict=fail-struct"
              />
              <StatCard
                label="Format errors (FAIL-FORMAT)"
                value={o.verdicts.validate['FAIL-FORMAT']}
                href="/tiers/all?verdict=fail-format"
              />
              <StatCard
                label="Warnings (WARN-SEMANTIC)"
                value={o.verdicts.validate['WARN-SEMANTIC']}
                href="/tiers/all?verdict=warn"
              />
              <StatCard
                label="Secrets detected"
                value={o.verdicts.secret['SECRET-DETECTED']}
                href="/tiers/all?finding=secret"
                // Credentials apart from personal data (home paths, e-mail, private addresses): on a
                // real home most findings are personal, and the credentials are the ones to remove.
                hint={
                  first.credentials
                    ? `${first.credentials.toLocaleString('en-US')} with a credential in clear`
                    : 'none with a credential'
                }
              />
              <StatCard
                label="Injection flagged"
                value={o.verdicts.injection.FLAGGED}
                href="/tiers/all?finding=injection"
              />
              <StatCard
                label="Untrusted origin"
                value={o.origins.untrusted}
                hint="written right after reading outside content"
                href="/tiers/all?flag=untrusted-origin"
              />
              <StatCard
                label="User-requested"
                value={o.origins.userRequested}
                hint="the user's own message asked for it"
                href="/tiers/all?flag=user-requested"
              />
              <StatCard
                label="Without trust-level"
                value={o.needsBackfill}
                hint="back-fill candidates"
                href="/tiers/all?status=backfill"
              />
            </div>
          </Section>
        </>
      ) : null}
      {recordRoots.length ? (
        <RecordsOverview counts={addRecordCounts(recordRoots.map((r) => r.counts))} total={recordTotal} />
      ) : null}

      <p className="mt-6 text-sm">
        <Link href="/context" className="font-medium text-teal-700 hover:underline dark:text-teal-300">
          Context X-ray →
        </Link>
        <span className="ml-2 text-slate-600 dark:text-slate-400">
          exactly what an assistant session gets from these roots: the index cut, what is loaded, withheld or over
          budget.
        </span>
      </p>

      <Section title="Roots">
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
          {roots.shown.map((s) => (
            <li key={s.source} className="px-4 py-3" data-testid={`root-${s.source}`}>
              <div className="flex items-center justify-between gap-4">
                <div className="min-w-0">
                  <div className="truncate font-mono text-xs">{s.root}</div>
                  <ProjectLine project={projects.get(s.source)} />
                  <div className="text-xs text-slate-500 dark:text-slate-400">
                    {ctx.config.demo ? (
                      <span className="mr-1 rounded bg-amber-100 px-1 font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100">
                        demo
                      </span>
                    ) : null}
                    {refused.has(s.source)
                      ? `not read (${refused.get(s.source)!.layout})`
                      : s.kind === 'claude-code'
                        ? 'Claude Code memory folder'
                        : 'trust-model root'}
                    {indexes.get(s.source)
                      ? ` · MEMORY.md ${indexes.get(s.source)!.lines} lines, ${indexes.get(s.source)!.bytes.toLocaleString('en-US')} bytes`
                      : ''}
                    {indexes.get(s.source) ? (
                      <>
                        {' '}
                        ·{' '}
                        <Link
                          href={`/memories/${encodeURIComponent(`${s.source}:MEMORY.md`)}`}
                          className="text-teal-700 hover:underline dark:text-teal-300"
                        >
                          open MEMORY.md
                        </Link>
                      </>
                    ) : null}
                    {indexes.get(s.source)?.cut ? (
                      <span className="ml-1 font-medium text-amber-800 dark:text-amber-300">
                        — over the 200-line / 25 KB load limit: the assistant sees only the beginning
                      </span>
                    ) : null}
                  </div>
                </div>
                {refused.has(s.source) ? null : s.error ? (
                  <span
                    role="status"
                    className="rounded bg-red-50 px-2 py-1 text-xs text-red-800 dark:bg-red-950 dark:text-red-200"
                  >
                    {s.error}
                  </span>
                ) : (
                  <Link
                    href={`/tiers/all?source=${encodeURIComponent(s.source)}`}
                    className="whitespace-nowrap tabular-nums text-teal-700 hover:underline dark:text-teal-300"
                  >
                    {s.count.toLocaleString('en-US')} files
                  </Link>
                )}
              </div>
              {refused.has(s.source) ? (
                <p
                  role="status"
                  className="mt-2 rounded bg-red-50 px-3 py-2 text-xs text-red-900 dark:bg-red-950 dark:text-red-100"
                >
                  {refused.get(s.source)!.refused}
                </p>
              ) : null}
              {indexFindings.get(s.source)?.length ? <IndexFindings findings={indexFindings.get(s.source)!} /> : null}
            </li>
          ))}
          {roots.hidden > 0 ? (
            <li className="px-4 py-3 text-xs text-slate-600 dark:text-slate-300" data-testid="roots-more">
              {roots.shown.length} of {o.bySource.length} roots: those that need attention first, then the largest.{' '}
              <Link href={allRootsHref} className="text-teal-700 hover:underline dark:text-teal-300">
                Show all {o.bySource.length} roots
              </Link>
            </li>
          ) : null}
          {recordRoots.map((r) => (
            <li key={r.source} className="px-4 py-3" data-testid={`root-${r.source}`}>
              <div className="flex items-center justify-between gap-4">
                <div className="min-w-0">
                  <div className="truncate font-mono text-xs">{r.root}</div>
                  <ProjectLine project={projects.get(r.source)} />
                  <div className="text-xs text-slate-500 dark:text-slate-400">
                    {r.label} · layout {r.layout}, {r.shape}
                    {r.problems ? ` · ${r.problems} unreadable ${r.problems === 1 ? 'entry' : 'entries'}` : ''}
                  </div>
                </div>
                {r.error ? (
                  <span
                    role="status"
                    className="rounded bg-red-50 px-2 py-1 text-xs text-red-800 dark:bg-red-950 dark:text-red-200"
                  >
                    {r.error}
                  </span>
                ) : (
                  <Link
                    href={`/records?source=${encodeURIComponent(r.source)}`}
                    className="whitespace-nowrap tabular-nums text-teal-700 hover:underline dark:text-teal-300"
                  >
                    {r.count.toLocaleString('en-US')} records
                  </Link>
                )}
              </div>
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}
