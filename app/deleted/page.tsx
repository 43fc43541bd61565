import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { scopedContext } from '@/lib/service/project-filter';
import { pageProject } from '@/app/page-project';
import { deletedOutside } from '@/lib/service/versions/deleted-outside';
import { versionsEnabled } from '@/lib/service/versions/version-store';
import { EmptyState } from '@/components/ui/empty-state';
import { LiveRefresh } from '@/components/live-refresh';
import { indexSignature } from '@/db/queries/signature';
import { parseDone, ResultBanner } from '@/components/transition/result-banner';
import { RecoverButton } from '@/components/versions/recover-button';
import { MaskedText } from '@/components/records/masked-text';
import { bytes, versionsHref, when } from '@/components/versions/version-format';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Deleted outside memtrust' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Memories another program deleted (docs/versions.md, "Versions in the dashboard"), each with Recover. */
export default async function DeletedPage({ searchParams }: Props) {
  const raw = await searchParams;
  const { ctx, ids } = scopedContext(freshContext(), await pageProject(raw.project));
  const source = typeof raw.source === 'string' && ctx.sources.some((s) => s.id === raw.source) ? raw.source : null;
  const items = deletedOutside(ctx, source ? [source] : ids);
  const done = parseDone(raw);
  const roots = ctx.sources.filter((s) => !s.error);
  return (
    <div>
      <LiveRefresh since={indexSignature(ctx.handle.sqlite)} />
      <h1 className="text-2xl font-semibold tracking-tight">Deleted outside memtrust</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
        {items.length} {items.length === 1 ? 'memory' : 'memories'} another program deleted (an assistant, a
        consolidation run, an editor, a sync). memtrust kept their last version: Recover puts one back, with its
        MEMORY.md line, as one batch you can undo.{' '}
        <Link href="/audit?actor=outside" className="text-teal-700 underline dark:text-teal-300">
          Every change made outside memtrust
        </Link>
      </p>
      {versionsEnabled() ? null : (
        <p role="note" className="mt-2 text-sm text-amber-800 dark:text-amber-300">
          Keeping versions is off: start memtrust with MEMTRUST_VERSIONS=on to keep them (docs/versions.md).
        </p>
      )}
      {done ? <ResultBanner result={done} className="mt-4" /> : null}
      {roots.length > 1 ? (
        <form method="get" action="/deleted" className="mt-4 flex flex-wrap items-end gap-2 text-sm">
          <label className="flex min-w-0 flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
            Root
            <select
              name="source"
              defaultValue={source ?? ''}
              className="max-w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
            >
              <option value="">every root</option>
              {roots.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.root}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="rounded-md bg-teal-700 px-3 py-1.5 font-medium text-white hover:bg-teal-800">
            Apply
          </button>
        </form>
      ) : null}
      <div className="mt-4">
        {items.length === 0 ? (
          <EmptyState title="Nothing deleted outside memtrust">
            A memory another program deletes shows here, with its last kept version.{' '}
            <Link href="/" className="text-teal-700 underline dark:text-teal-300">
              Back to the overview
            </Link>
          </EmptyState>
        ) : (
          <ul
            aria-label="Deleted memories"
            className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
          >
            {items.map((d) => (
              <li
                key={d.id}
                data-testid={`deleted-${d.filename}`}
                className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
              >
                <div className="min-w-0 flex-1 basis-64">
                  <Link
                    href={versionsHref(d.id)}
                    className="font-medium text-teal-700 hover:underline dark:text-teal-300"
                  >
                    <MaskedText text={d.name} />
                  </Link>
                  <div className="break-all font-mono text-xs text-slate-500 dark:text-slate-400">
                    {d.root}/{d.rel}
                  </div>
                </div>
                <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
                  <div>
                    <dt className="sr-only">Deleted</dt>
                    <dd>deleted {when(d.deletedAt)}</dd>
                  </div>
                  <div>
                    <dt className="sr-only">Who</dt>
                    <dd>by outside</dd>
                  </div>
                  <div>
                    <dt className="sr-only">Size</dt>
                    <dd>{bytes(d.size)}</dd>
                  </div>
                  {d.redacted ? (
                    <div>
                      <dt className="sr-only">Note</dt>
                      <dd className="text-amber-800 dark:text-amber-300">credential values removed from the copy</dd>
                    </div>
                  ) : null}
                </dl>
                {d.size === null ? (
                  <span className="text-xs text-slate-500">no kept version</span>
                ) : (
                  <RecoverButton id={d.id} name={d.filename} />
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
