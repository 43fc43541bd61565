import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { EmptyState } from '@/components/ui/empty-state';
import { ConflictPair } from '@/components/records/conflict-pair';
import { conflictPairs, conflictSide } from '@/components/records/conflicts';
import { ResultBanner, parseDone } from '@/components/transition/result-banner';
import { RecordsLiveRefresh } from '@/components/records/records-live-refresh';
import { locationText, masker } from '@/components/records/record-view';
import { recordRootsToken } from '../token';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Contradictions' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ConflictsPage({ searchParams }: Props) {
  const done = parseDone(await searchParams);
  const ctx = freshContext();
  const token = recordRootsToken(ctx);
  const mask = masker(ctx.owner());
  const pairs = conflictPairs(ctx);
  return (
    <div className="space-y-6">
      <RecordsLiveRefresh since={token} />
      <div>
        <nav className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          <Link href="/records" className="hover:underline">
            Records
          </Link>{' '}
          / contradictions
        </nav>
        {done ? <ResultBanner result={done} className="mb-4" /> : null}
        <div className="flex items-baseline justify-between gap-4">
          <h1 className="text-2xl font-semibold tracking-tight">Contradictions</h1>
          <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
            {pairs.length} {pairs.length === 1 ? 'pair' : 'pairs'}
          </p>
        </div>
        <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
          Records that contradict each other, side by side with their evidence. Keep the one that holds: it becomes
          active and the other expires, as one batch.
        </p>
      </div>
      {pairs.length === 0 ? (
        <EmptyState title="No contradictions">
          Records marked as contradicting each other appear here.{' '}
          <Link href="/records" className="text-teal-700 hover:underline dark:text-teal-300">
            Browse all records
          </Link>
        </EmptyState>
      ) : (
        pairs.map(([a, b]) => (
          <ConflictPair
            key={`${a.id} ${b.id}`}
            a={conflictSide(ctx, a, b, mask, locationText(a))}
            b={conflictSide(ctx, b, a, mask, locationText(b))}
            returnTo="/records/conflicts"
          />
        ))
      )}
    </div>
  );
}
