/**
 * The words of the Queue filter (docs/dashboard.md "Words"), one list for the review
 * inbox, the tier tabs and the records page: a memory queue, or a record-only queue
 * (a record flag; db/queries/record-rows.ts RECORD_QUEUES).
 */
export const QUEUE_LABEL: Record<string, string> = {
  inbox: 'Needs a decision',
  any: 'Everything',
  review: 'Review queue',
  due: 'Inferred, observation over',
  observing: 'Inferred, still observing',
  stale: 'Verified, stale',
  passive: 'Quarantine day 0–30',
  'quarantine-audit': 'Quarantine day 31–90',
  'archive-candidates': 'Quarantine day 91+',
  conflicts: 'Conflicts (one memory in two folders)',
  backfill: 'No trust-level',
  contradictions: 'Contradictions (records)',
  suspect: 'Suspect (target gone)',
  candidate: 'Candidate (pending file)',
  'pending-human': 'Pending a person',
  'write-rule': 'Breaks a write rule',
  expired: 'Expired',
};

/** `[value, label]` pairs of some queue values, for a select. */
export function queueOptions(values: readonly string[]): [string, string][] {
  return values.map((v) => [v, QUEUE_LABEL[v] ?? v]);
}
