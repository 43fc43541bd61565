import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { listBatches, type BatchRow } from '@/lib/service/batches/batch-list';
import { scopedContext } from '@/lib/service/project-filter';
import { pageProject } from '@/app/page-project';
import { BATCH_KIND } from '@/components/batch-kind';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Batches' };

const PAGE = 50;

function stateText(r: BatchRow): string {
  if (r.state === 'undone') return `undone by ${r.undoneBy.at(-1)}`;
  if (r.state === 'no-undo') return 'can no longer be undone';
  return r.kind === 'undo' ? 'stands (Redo on its page)' : 'can be undone';
}

/** Every batch, newest first, with whether Undo still applies (docs/batches.md "The list of batches"). */
export default async function BatchesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = await searchParams;
  const { ctx } = scopedContext(freshContext(), await pageProject(raw.project));
  const all = listBatches(ctx);
  const page = Math.max(1, Number.parseInt(String(raw.page ?? '1'), 10) || 1);
  const rows = all.slice((page - 1) * PAGE, page * PAGE);
  const href = (p: number) => {
    const q = new URLSearchParams();
    if (typeof raw.project === 'string') q.set('project', raw.project);
    if (p > 1) q.set('page', String(p));
    const s = q.toString();
    return s ? `/batches?${s}` : '/batches';
  };
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Batches</h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        Every change memtrust made as one batch — audits, back-fills, transitions, repairs, recoveries and undos —
        newest first. A batch can be undone while its copies are kept ({ctx.config.undoRetentionDays} days,
        undoRetentionDays) and no undo of it stands.
      </p>
      {all.length === 0 ? (
        <p className="mt-6 text-sm text-slate-700 dark:text-slate-300">No batches yet in the configured roots.</p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Batches, newest first</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-300">
              <tr>
                {['Batch', 'Kind', 'When (UTC)', 'Actor', 'Files', 'Undo'].map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {rows.map((r) => (
                <tr key={r.id} className="align-top">
                  <td className="px-3 py-2 whitespace-nowrap">
                    <Link
                      href={`/batches/${encodeURIComponent(r.id)}`}
                      className="font-mono text-xs text-teal-800 hover:underline dark:text-teal-300"
                    >
                      {r.id}
                    </Link>
                  </td>
                  <td className="px-3 py-2">
                    {BATCH_KIND[r.kind] ?? r.kind}
                    {r.undoes ? (
                      <>
                        {' '}
                        of <span className="font-mono text-xs">{r.undoes}</span>
                      </>
                    ) : null}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{r.at.slice(0, 16).replace('T', ' ')}</td>
                  <td className="px-3 py-2">{r.actor}</td>
                  <td className="px-3 py-2 tabular-nums">{r.files}</td>
                  <td className="px-3 py-2 text-slate-700 dark:text-slate-300">{stateText(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {all.length > PAGE ? (
        <nav aria-label="Pages" className="mt-4 flex items-center gap-3 text-sm">
          {page > 1 ? <Link href={href(page - 1)}>← Newer</Link> : null}
          <span>
            {(page - 1) * PAGE + 1}–{Math.min(page * PAGE, all.length)} of {all.length}
          </span>
          {page * PAGE < all.length ? <Link href={href(page + 1)}>Older →</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
