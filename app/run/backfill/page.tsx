import Link from 'next/link';
import type { Metadata } from 'next';
import { BatchPlanView } from '@/components/batch-plan';
import { applyBackfillBatch, loadBackfillPlan } from '@/app/batch-actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Back-fill trust levels' };

/** Back-fill from the dashboard: the plan first, then one batch (docs/batches.md). */
export default function RunBackfillPage() {
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Back-fill trust levels</h1>
      <p className="mt-1 mb-6 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        Memories without a trust-level get one from their type (user, feedback, project → verified; reference and
        unknown → inferred). Per-file overrides are available from the CLI (
        <span className="font-mono">memtrust backfill --tier FILE=TIER</span>).{' '}
        <Link href="/tiers/all?status=backfill" className="text-teal-700 underline dark:text-teal-300">
          The files
        </Link>
      </p>
      <BatchPlanView name="backfill" load={loadBackfillPlan} apply={applyBackfillBatch} verb="Back-fill" />
    </div>
  );
}
