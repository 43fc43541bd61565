import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { parseMemoryId } from '@/lib/core/memory-id';
import { versionDiff, versionsView } from '@/lib/service/versions/version-view';
import { versionsEnabled } from '@/lib/service/versions/version-store';
import { history } from '@/db/queries/history';
import { guardEvent, textGuard } from '@/lib/report/redact';
import { EmptyState } from '@/components/ui/empty-state';
import { HistoryTimeline } from '@/components/history-timeline';
import { parseDone, ResultBanner } from '@/components/transition/result-banner';
import { VersionList } from '@/components/versions/version-list';
import { VersionDiffView } from '@/components/versions/version-diff';
import { RecoverButton } from '@/components/versions/recover-button';
import { versionsHref } from '@/components/versions/version-format';
import { memoryHref } from '@/components/format';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Versions' };

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const SHA = /^[0-9a-f]{6,64}$/;
const one = (v: string | string[] | undefined) => (typeof v === 'string' && SHA.test(v) ? v : undefined);

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5 dark:border-slate-800 dark:bg-slate-900">
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">{title}</h2>
      {children}
    </section>
  );
}

/** A memory's kept versions, a diff of any two, Recover at one (docs/versions.md, "Versions in the dashboard"). */
export default async function VersionsPage({ params, searchParams }: Props) {
  const { id } = await params;
  const raw = await searchParams;
  const ref = parseMemoryId(decodeURIComponent(id));
  const ctx = freshContext();
  const r = ref ? versionsView(ctx, `${ref.source}:${ref.filename}`) : null;
  if (!r?.ok) {
    return (
      <EmptyState title="No kept versions">
        {r && !r.ok ? r.message : 'This link does not name a memory.'}
        {versionsEnabled() ? '' : ' Keeping versions is off: start memtrust with MEMTRUST_VERSIONS=on.'}{' '}
        <Link href="/deleted" className="text-teal-700 underline dark:text-teal-300">
          Deleted memories
        </Link>
      </EmptyState>
    );
  }
  const v = r.value;
  const kept = v.versions.filter((x) => x.kept && x.sha && !x.deleted);
  // Without a pick: the last two kept versions, the change most likely asked about.
  const a = one(raw.a) ?? kept.at(-2)?.sha?.slice(0, 12);
  const b = one(raw.b) ?? kept.at(-1)?.sha?.slice(0, 12);
  const diff = a && b && kept.length >= 2 ? versionDiff(ctx, v.id, a, b) : null;
  const guard = textGuard(ctx.owner());
  const events = history(ctx.handle.db, { memory: v.filename, source: v.source }).map((e) => guardEvent(guard, e));
  const done = parseDone(raw);
  const last = v.versions.at(-1);
  return (
    <div className="space-y-6">
      <div>
        <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          {v.deleted ? (
            <Link href="/deleted" className="hover:underline">
              deleted
            </Link>
          ) : (
            <Link href={memoryHref(v.source, v.filename)} className="hover:underline">
              {v.filename}
            </Link>
          )}{' '}
          / versions
        </nav>
        <h1 className="break-words text-2xl font-semibold tracking-tight">Versions of {v.filename}</h1>
        <p className="mt-1 break-all font-mono text-xs text-slate-500 dark:text-slate-400">
          {v.root}/{last?.rel}
        </p>
        {v.deleted ? (
          <div
            role="status"
            className="mt-3 flex flex-wrap items-center gap-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100"
          >
            <span>
              Deleted{last?.who === 'outside' ? ' outside memtrust' : ''}: Recover puts back its last kept version and
              its MEMORY.md line.
            </span>
            <RecoverButton id={v.id} name={v.filename} />
          </div>
        ) : null}
        {done ? <ResultBanner result={done} /> : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Card title="Kept versions">
            <VersionList id={v.id} versions={v.versions} a={a} b={b} action={versionsHref(v.id)} />
          </Card>
          <Card title="Diff">
            {diff?.ok ? (
              <VersionDiffView diff={diff.value} />
            ) : (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                {diff ? diff.message : 'One kept version only: nothing to compare yet.'}
              </p>
            )}
          </Card>
        </div>
        <div className="min-w-0">
          <Card title="History">
            <HistoryTimeline events={events} externalEdit={null} />
          </Card>
        </div>
      </div>
    </div>
  );
}
