import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { batchInfo } from '@/lib/service/batch-info';
import { eventsOfBatch } from '@/db/queries/batches';
import { guardEvent, textGuard } from '@/lib/report/redact';
import { AuditTable } from '@/components/audit-table';
import { UndoBatchButton } from '@/components/undo-batch-button';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Batch' };

const KIND: Record<string, string> = { audit: 'Audit', backfill: 'Back-fill', transition: 'Transition', undo: 'Undo' };

/** A batch's result: what it did, and Undo (docs/batches.md). */
export default async function BatchPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = freshContext();
  const info = batchInfo(ctx, id);
  const events = eventsOfBatch(ctx.handle.sqlite, id);
  if (!info && events.length === 0) notFound();
  const guard = textGuard(ctx.owner());
  const changed = events.length;
  return (
    <div>
      <p className="text-sm text-slate-600 dark:text-slate-400"><Link href="/audit" className="hover:underline">Audit history</Link> / batch</p>
      <h1 className="text-2xl font-semibold tracking-tight">
        {KIND[info?.kind ?? ''] ?? 'Batch'} batch <span className="font-mono text-lg">{id}</span>
      </h1>
      <div role="status" className="mt-2 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/40 dark:text-emerald-100">
        {changed} {changed === 1 ? 'file' : 'files'} changed{info ? ` · ${info.at.replace('T', ' ').replace('Z', ' UTC')} · ${info.actor}` : ''}
        {info?.undoes ? (
          <> · undid batch <Link href={`/batches/${encodeURIComponent(info.undoes)}`} className="font-mono underline">{info.undoes}</Link></>
        ) : null}
      </div>
      {info?.undoneBy.length ? (
        <p className="mt-2 text-sm">
          Undone by {info.undoneBy.map((u, i) => (
            <span key={u}>{i ? ', ' : ''}<Link href={`/batches/${encodeURIComponent(u)}`} className="font-mono text-teal-700 hover:underline dark:text-teal-300">{u}</Link></span>
          ))}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        {info ? <UndoBatchButton batch={id} files={changed} /> : <span className="text-sm text-slate-600">No undo record for this batch in the configured roots.</span>}
        <span className="text-xs text-slate-600 dark:text-slate-400">
          Undo puts every file of this batch back to its exact bytes and place before it, MEMORY.md included, unless a file changed since. It is recorded as a batch of its own.
        </span>
      </div>
      <div className="mt-6">
        <AuditTable items={events.map((e) => guardEvent(guard, e))} />
      </div>
    </div>
  );
}
