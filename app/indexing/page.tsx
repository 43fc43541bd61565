import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { firstIndexProgress } from '@/lib/server';
import { RefreshEvery } from '@/components/refresh-every';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Indexing' };

/**
 * Shown instead of every page while the first index of a large root runs in the background
 * (docs/first-index.md). Reads no index: it follows the child's progress lines, and sends
 * the browser to the overview once the index is there.
 */
export default function IndexingPage() {
  const job = firstIndexProgress();
  if (!job) redirect('/');
  const total = Math.max(job.total, 1);
  const pct = Math.min(100, Math.floor((job.done / total) * 100));
  const reading = job.done < job.total;
  const seconds = Math.floor((Date.now() - job.startedAt) / 1000);
  return (
    <div className="max-w-2xl">
      <RefreshEvery ms={1000} />
      <h1 className="text-2xl font-semibold tracking-tight">Indexing your memories</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        The first look at {job.files.toLocaleString('en-US')} memory files: each one is read and checked by the three
        validators once. Later starts read only what changed. This page moves on to the overview by itself.
      </p>
      <div
        className="mt-6 h-3 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
        role="progressbar"
        aria-label="Files read and checked"
        aria-valuemin={0}
        aria-valuemax={job.total}
        aria-valuenow={job.done}
      >
        <div className="h-full bg-teal-600" style={{ width: `${pct}%` }} />
      </div>
      <p className="mt-2 text-sm tabular-nums text-slate-700 dark:text-slate-300" data-testid="indexing-status">
        {reading
          ? `${job.done.toLocaleString('en-US')} of ${job.total.toLocaleString('en-US')} files read and checked (${pct} %)`
          : 'All files read and checked: building the search index and the history…'}{' '}
        <span className="text-slate-500">· {seconds} s</span>
      </p>
      <p className="mt-6 text-xs text-slate-500">
        <code className="font-mono">memtrust scan</code> does the work in the background, into the same index the CLI
        reads.
      </p>
    </div>
  );
}
