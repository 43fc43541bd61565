import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { batchInfo } from '@/lib/service/batches/batch-info';
import { eventsOfBatch } from '@/db/queries/batches';
import { guardEvent, textGuard } from '@/lib/report/redact';
import { TierBadge } from '@/components/tier-badge';
import { memoryHref } from '@/components/format';
import { TEXT_WITHHELD } from '@/lib/report/redact';
import { UndoBatchButton } from '@/components/undo-batch-button';
import { BATCH_KIND } from '@/components/batch-kind';
import { listBatches } from '@/lib/service/batches/batch-list';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Batch' };

/** A batch's result: what it did, and Undo (docs/batches.md). */
export default async function BatchPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const ctx = freshContext();
  // Batches applied with this one (a bulk selection's records, docs/review-inbox.md "Bulk actions"), each with its Undo.
  const alsoRaw = (await searchParams).also;
  const also = (typeof alsoRaw === 'string' ? alsoRaw.split(',') : [])
    .filter((a) => a && a !== id)
    .slice(0, 20)
    .map((a) => ({ id: a, info: batchInfo(ctx, a) }))
    .filter((a) => a.info);
  const info = batchInfo(ctx, id);
  const events = eventsOfBatch(ctx.handle.sqlite, id);
  if (!info && events.length === 0) notFound();
  const guard = textGuard(ctx.owner());
  const changed = events.length;
  // Undo only where it can still apply: not once an undo of this batch stands (docs/batches.md).
  const undone = info ? listBatches(ctx).find((r) => r.id === id)?.state === 'undone' : false;
  return (
    <div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        <Link href="/audit" className="hover:underline">
          Audit history
        </Link>{' '}
        / batch
      </p>
      <h1 className="text-2xl font-semibold tracking-tight">
        {info?.kind === 'undo' && info.undoes ? (
          <>
            Undo of batch <span className="font-mono text-lg">{info.undoes}</span>
          </>
        ) : (
          <>
            {(info && BATCH_KIND[info.kind]) ?? 'Batch'} batch <span className="font-mono text-lg">{id}</span>
          </>
        )}
      </h1>
      <div
        role="status"
        className="mt-2 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/40 dark:text-emerald-100"
      >
        Done: {changed} {changed === 1 ? 'file' : 'files'} changed
        {info ? ` · ${info.at.replace('T', ' ').replace('Z', ' UTC')} · ${info.actor}` : ''}
        {info?.indexChanged
          ? ` · ${info.indexChanged} ${info.kind === 'undo' ? 'restored' : 'changed (its copy from before is saved)'}`
          : ''}
        {info?.undoes ? (
          <>
            {' '}
            · undid batch{' '}
            <Link href={`/batches/${encodeURIComponent(info.undoes)}`} className="font-mono underline">
              {info.undoes}
            </Link>
          </>
        ) : null}
      </div>
      {info?.undoneBy.length ? (
        <p className="mt-2 text-sm">
          Undone by{' '}
          {info.undoneBy.map((u, i) => (
            <span key={u}>
              {i ? ', ' : ''}
              <Link
                href={`/batches/${encodeURIComponent(u)}`}
                className="font-mono text-teal-700 hover:underline dark:text-teal-300"
              >
                {u}
              </Link>
            </span>
          ))}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        {info?.noUndo ? (
          <span role="note" className="text-sm text-slate-700 dark:text-slate-300">
            This batch can no longer be undone: {info.noUndo}.
          </span>
        ) : info && undone ? (
          <span role="note" className="text-sm text-slate-700 dark:text-slate-300">
            Undone: an undo of this batch stands, so there is nothing to undo.
          </span>
        ) : info ? (
          <UndoBatchButton
            batch={id}
            files={changed}
            primary
            label={info.kind === 'undo' && info.undoes ? `Redo batch ${info.undoes}` : undefined}
          />
        ) : (
          <span className="text-sm text-slate-600">No undo record for this batch in the configured roots.</span>
        )}
        <span className="text-xs text-slate-600 dark:text-slate-400">
          Undo puts every file of this batch back to its exact bytes and place before it, MEMORY.md included, unless a
          file changed since. It is recorded as a batch of its own.
        </span>
      </div>
      {also.length ? (
        <ul className="mt-3 space-y-2 text-sm" data-testid="batch-also">
          {also.map((a) => {
            const gone = listBatches(ctx).find((r) => r.id === a.id)?.state === 'undone';
            return (
              <li key={a.id} className="flex flex-wrap items-center gap-3">
                <span>
                  Applied with it:{' '}
                  <Link
                    href={`/batches/${encodeURIComponent(a.id)}`}
                    className="font-mono text-teal-700 hover:underline dark:text-teal-300"
                  >
                    {a.id}
                  </Link>{' '}
                  ({a.info!.kind === 'records' ? 'records' : a.info!.kind})
                </span>
                {a.info!.noUndo ? (
                  <span className="text-slate-600 dark:text-slate-300">can no longer be undone: {a.info!.noUndo}</span>
                ) : gone ? (
                  <span className="text-slate-600 dark:text-slate-300">undone</span>
                ) : (
                  <UndoBatchButton batch={a.id} label={`Undo ${a.id}`} />
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
      <div className="mt-6 overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Files changed by this batch</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-300">
            <tr>
              {['Memory', 'Action', 'From → to', 'Actor', 'Reason'].map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {events.map((raw) => {
              const e = guardEvent(guard, raw);
              return (
                <tr key={`${e.source}:${e.id}`} className="align-top">
                  <td className="px-3 py-2 whitespace-nowrap">
                    {e.memory === TEXT_WITHHELD ? (
                      <span className="italic text-slate-500">{e.memory}</span>
                    ) : (
                      <Link
                        href={memoryHref(e.source, e.memory)}
                        className="font-mono text-xs text-teal-800 hover:underline dark:text-teal-300"
                      >
                        {e.memory}
                      </Link>
                    )}
                  </td>
                  <td className="px-3 py-2">{e.action}</td>
                  <td className="px-3 py-2 whitespace-nowrap">
                    {e.from ? (
                      <TierBadge tier={e.from} />
                    ) : (
                      <span className="text-slate-500 dark:text-slate-400">none</span>
                    )}{' '}
                    <span role="img" aria-label="to">
                      →
                    </span>{' '}
                    {e.to ? (
                      <TierBadge tier={e.to} />
                    ) : (
                      <span className="text-slate-500 dark:text-slate-400">none</span>
                    )}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{e.actor}</td>
                  <td className="px-3 py-2 text-slate-700 dark:text-slate-300">{e.reason ?? '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
        The findings behind each demotion are on the{' '}
        <Link href="/audit" className="text-teal-700 underline dark:text-teal-300">
          audit history
        </Link>
        .
      </p>
    </div>
  );
}
