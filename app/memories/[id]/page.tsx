import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext, readOriginsSoon } from '@/lib/server';
import { memoryDetail } from '@/lib/service/index/memory-detail';
import { parseMemoryId } from '@/lib/core/memory-id';
import { TierBadge } from '@/components/tier-badge';
import { TransitionControls } from '@/components/transition/transition-controls';
import { memoryVerbs } from '@/components/transition/verbs';
import { flaggedReason } from '@/lib/service/write/preview';
import { indexFileView } from '@/lib/service/claude/index-file';
import { IndexFileView } from '@/components/index-file-view';
import { HistoryTimeline } from '@/components/history-timeline';
import { FindingList } from '@/components/finding-list';
import { MemoryBody } from '@/components/memory-body';
import { EmptyState } from '@/components/ui/empty-state';
import { LiveRefresh } from '@/components/live-refresh';
import { indexSignature } from '@/db/queries/signature';
import { lastAfterSha } from '@/db/queries/history';
import { OriginCard } from '@/components/origin-card';
import { ProjectLine } from '@/components/project-line';
import { versionsView } from '@/lib/service/versions/version-view';
import { VersionsSummary } from '@/components/versions/versions-card';
import { versionsHref } from '@/components/versions/version-format';
import { title } from '@/components/title';
import { groupFindings, lineList } from '@/lib/validators/finding-groups';
import { findRecord } from '@/lib/service/records/read';
import { RecordDetail } from '@/app/records/record-detail';
import { parseDone } from '@/components/transition/result-banner';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Memory' };

const VALIDATE_EXIT: Record<string, number> = { PASS: 0, 'FAIL-STRUCT': 1, 'FAIL-FORMAT': 2, 'WARN-SEMANTIC': 3 };

const FIELD_LABELS: [string, string][] = [
  ['name', 'Name'],
  ['description', 'Description'],
  ['type', 'Type'],
  ['trust-level', 'Trust level'],
  ['created-at', 'Created'],
  ['last-verified', 'Last verified'],
  ['source-machine', 'Source machine'],
  ['quarantined-at', 'Quarantined at'],
  ['quarantined-by', 'Quarantined by'],
  ['quarantine-reason', 'Quarantine reason'],
];

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">{title}</h2>
      {children}
    </section>
  );
}

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function MemoryPage({ params, searchParams }: Props) {
  const { id } = await params;
  const ref = parseMemoryId(decodeURIComponent(id));
  const ctx = freshContext();
  // One detail page for every layout: a record's id or key opens its record detail here too
  // (docs/dashboard.md "Pages"; a memory's id never names a record, the sources differ).
  if (!ref || !ctx.sources.some((s) => s.id === ref.source)) {
    const rec = findRecord(ctx, decodeURIComponent(id));
    if (rec.ok || rec.code === 'ambiguous')
      return <RecordDetail id={decodeURIComponent(id)} done={parseDone(await searchParams)} />;
  }
  // An index file (MEMORY.md) is not a memory: it gets its own view.
  if (ref && ref.filename.toLowerCase() === 'memory.md') {
    const ix = indexFileView(ctx, ref.source, ref.filename);
    if (ix.ok) return <IndexFileView view={ix.view} />;
  }
  // The origin from the transcript cache only: a transcript not read yet is read in the
  // background and the card fills in when it is (docs/origin.md "In the dashboard").
  const r = ref ? memoryDetail(ctx, ref.filename, ref.source, { originCacheOnly: true }) : null;
  if (!r?.ok) {
    // A memory deleted outside memtrust is gone from the index but its versions are kept.
    const kept = ref ? versionsView(ctx, `${ref.source}:${ref.filename}`) : null;
    // A file that is there but is never read (a symlink, a path out of its root) is listed
    // with its problem; its page says so instead of "not found" (docs/security.md).
    const refused = r && !r.ok && r.code === 'path-escape';
    return (
      <EmptyState title={refused ? 'This file is refused' : 'Memory not found'}>
        {r && !r.ok ? r.message : 'This link does not name a memory.'}
        {refused ? '. memtrust never reads it: replace it with a regular file inside the root, or remove it.' : null}{' '}
        {kept?.ok ? (
          <Link href={versionsHref(kept.value.id)} className="mr-2 text-teal-700 underline dark:text-teal-300">
            Its kept versions and Recover
          </Link>
        ) : null}
        <Link href="/tiers/all" className="text-teal-700 hover:underline dark:text-teal-300">
          Browse all memories
        </Link>
      </EmptyState>
    );
  }
  const d = r.detail;
  if (d.origin.status === 'unknown' && d.origin.reading)
    readOriginsSoon(d.origin.transcript ? [d.origin.transcript] : []);
  const lastSha = lastAfterSha(ctx.handle.sqlite, d.source, d.filename);
  const externalEdit =
    lastSha && lastSha !== d.sha256
      ? `The file changed after the last recorded event (modified ${d.mtime.slice(0, 16).replace('T', ' ')} UTC).`
      : null;
  const versions = versionsView(ctx, d.id);
  const extra = Object.entries(d.fields).filter(([k]) => !FIELD_LABELS.some(([f]) => f === k));
  return (
    <div className="space-y-6">
      <LiveRefresh since={indexSignature(ctx.handle.sqlite)} />
      <div>
        <nav className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          <Link href={`/tiers/${d.tier}`} className="hover:underline">
            {d.tier}
          </Link>{' '}
          / {d.filename}
        </nav>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
            {title(d.fields.name) || d.filename}
          </h1>
          <TierBadge tier={d.tier} />
        </div>
        <p className="mt-1 break-all font-mono text-xs text-slate-500 dark:text-slate-400">
          {d.root}/{d.relPath}
        </p>
        <ProjectLine project={ctx.sources.find((s) => s.id === d.source)?.project} />
        {d.conflictWith ? (
          <p
            role="alert"
            className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
          >
            Conflict: the same file also exists at {d.conflictWith}. Transitions are blocked until one copy is removed.
          </p>
        ) : null}
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Lifecycle">
            <ul className="mb-4 list-disc space-y-1 pl-5 text-sm">
              {d.lifecycle.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
            {d.tier === 'quarantined' ? (
              <p className="mb-3 text-xs text-slate-600 dark:text-slate-400">
                Quarantined memories are read-only: restore one before editing it, or use Repair and restore to fix the
                blocking lines and restore in one step (the quarantined file itself is never edited).
              </p>
            ) : null}
            <TransitionControls
              key={d.id}
              id={d.id}
              label={d.fields.name ?? d.filename}
              engine="memory"
              verbs={memoryVerbs(d.actions, flaggedReason(d.findings, VALIDATE_EXIT[d.verdicts.validate] ?? 0))}
              repair={d.tier === 'quarantined'}
            />
            {(d.tier === 'verified' || d.tier === 'inferred') && d.editBlocked ? (
              <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">Edit: {d.editBlocked}</p>
            ) : d.tier === 'verified' || d.tier === 'inferred' ? (
              <Link
                href={`/memories/${encodeURIComponent(d.id)}/edit`}
                className="mt-3 inline-block text-sm text-teal-700 hover:underline dark:text-teal-300"
              >
                Edit this memory (the tier stays)
              </Link>
            ) : null}
          </Card>
          <Card title="Memory">
            {d.bodyTruncated ? (
              <p className="mb-2 text-xs text-amber-800 dark:text-amber-300">
                This file is large: only its beginning is shown.
              </p>
            ) : null}
            {d.binary ? (
              <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="binary-body">
                A binary file ({d.size.toLocaleString('en-US')} bytes, a NUL byte in its first 8 KiB): its bytes are not
                shown. It cannot pass validation as it is: demote it to quarantine, or replace it with a Markdown
                memory.
              </p>
            ) : (
              <MemoryBody text={d.body} reveal={{ id: d.id, sha: d.sha256 }} />
            )}
          </Card>
          <Card title="Validator findings">
            <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
              validate {d.verdicts.validate} · secret-check {d.verdicts.secret} · injection-check {d.verdicts.injection}
            </p>
            <FindingList findings={d.findings} />
          </Card>
        </div>
        <div className="space-y-6">
          <Card title="Frontmatter">
            {/* The same finding on many lines is one note with its count and lines (lib/validators/finding-groups.ts). */}
            {groupFindings(d.findings.filter((f) => f.label === 'FAIL-STRUCT' || f.label === 'FAIL-FORMAT')).map(
              (g) => (
                <p
                  key={`${g.label}|${g.code}|${g.messages[0]}`}
                  role="note"
                  className="mb-2 rounded-md bg-red-50 px-2 py-1 text-xs text-red-900 dark:bg-red-950 dark:text-red-100"
                >
                  {g.messages[0]}
                  {g.count > 1 ? ` × ${g.count}` : ''}
                  {g.lines.length ? ` (${g.lines.length === 1 ? 'line' : 'lines'} ${lineList(g.lines)})` : ''}
                </p>
              ),
            )}
            <dl className="space-y-2 text-sm">
              {FIELD_LABELS.filter(([k]) => d.fields[k] !== undefined).map(([k, label]) => (
                <div key={k}>
                  <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
                  <dd className="break-words">{d.fields[k]}</dd>
                </div>
              ))}
              {d.created.fromMtime ? (
                <div data-testid="created-from-mtime">
                  <dt className="text-xs text-slate-500 dark:text-slate-400">Created</dt>
                  <dd className="break-words">
                    {d.created.at.slice(0, 10)}{' '}
                    <span className="text-xs text-slate-500 dark:text-slate-400">
                      (file modified time: no created-at yet; the first change writes it)
                    </span>
                  </dd>
                </div>
              ) : null}
              {extra.map(([k, v]) => (
                <div key={k}>
                  <dt className="font-mono text-xs text-slate-500 dark:text-slate-400">{k}</dt>
                  <dd className="break-words">{v}</dd>
                </div>
              ))}
            </dl>
          </Card>
          <Card title="Origin">
            <OriginCard id={d.id} origin={d.origin} />
          </Card>
          <Card title="Versions">
            <VersionsSummary id={d.id} versions={versions.ok ? versions.value.versions : []} />
          </Card>
          <Card title="History">
            <HistoryTimeline events={d.history} externalEdit={externalEdit} />
          </Card>
        </div>
      </div>
    </div>
  );
}
