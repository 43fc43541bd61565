import Link from 'next/link';
import type { Metadata } from 'next';
import { BatchPlanView } from '@/components/batch-plan';
import { applyAuditBatch, loadAuditPlan } from '@/app/batch-actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Run audit' };

/** The dashboard's audit button: the plan first, then one confirmed batch (docs/batches.md). */
export default function RunAuditPage() {
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Run audit</h1>
      <p className="mt-1 mb-6 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        Every memory with a hard validator failure (structure, format or a secret) would be demoted to quarantine by the
        actor
        <span className="font-mono"> validator</span>. Nothing changes until you apply the plan below.{' '}
        <Link href="/audit" className="text-teal-700 underline dark:text-teal-300">
          Audit history
        </Link>
      </p>
      <BatchPlanView name="audit" load={loadAuditPlan} apply={applyAuditBatch} verb="Demote" />
    </div>
  );
}
