'use client';
/**
 * Refreshes a records page when a record root changes outside memtrust (codeclone
 * writes its governed store, an editor saves a JSONL file): the roots' change token
 * (app/records/actions.ts) polled like the index (components/live-refresh.tsx).
 */
import { pollRecordRoots } from '@/app/records/actions';
import { useRefreshOnChange } from '@/components/live-refresh';
import { queryKeys } from '@/lib/web/query-keys';

export function RecordsLiveRefresh({ since, intervalMs = 3_000 }: { since: string; intervalMs?: number }) {
  useRefreshOnChange(since, queryKeys.recordRoots, pollRecordRoots, intervalMs);
  return null;
}
