import type { BatchKind } from '@/lib/service/batches/batch-store';

/** One word per batch kind, for the list and a batch's page (docs/batches.md). */
export const BATCH_KIND: Record<BatchKind, string> = {
  audit: 'Audit',
  backfill: 'Back-fill',
  bulk: 'Bulk change',
  transition: 'Transition',
  repair: 'Repair',
  undo: 'Undo',
  records: 'Record change',
  recover: 'Recover',
};
