import type { Metadata } from 'next';
import { ReviewQueue } from '@/components/review-queue';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Review' };

export default function ReviewPage() {
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Review</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600 dark:text-slate-400">
        Inferred memories past their 7-day observation, stale verified memories, and quarantine. Press <kbd className="rounded border px-1 font-mono text-xs">?</kbd> for keyboard shortcuts.
      </p>
      <ReviewQueue />
    </div>
  );
}
