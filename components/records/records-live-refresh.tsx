'use client';
/**
 * Refreshes a records page when a record root changes outside memtrust (codeclone
 * writes its governed store, an editor saves a JSONL file): polls the roots' change
 * token (app/records/actions.ts) and calls router.refresh() when it moves, as
 * components/live-refresh.tsx does for the index.
 */
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { pollRecordRoots } from '@/app/records/actions';
import { queryKeys } from '@/lib/query-keys';

export function RecordsLiveRefresh({ since, intervalMs = 3_000 }: { since: string; intervalMs?: number }) {
  const router = useRouter();
  const { data } = useQuery({
    queryKey: queryKeys.recordRoots,
    queryFn: async () => {
      const r = await pollRecordRoots({});
      return r.ok ? r.data : null;
    },
    refetchInterval: intervalMs,
  });
  const seen = useRef(since);
  useEffect(() => {
    seen.current = since;
  }, [since]);
  useEffect(() => {
    if (!data || data === seen.current) return;
    seen.current = data;
    router.refresh();
  }, [data, router]);
  return null;
}
