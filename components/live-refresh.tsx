'use client';
/**
 * Refreshes the server-rendered page when the index changes on disk (the
 * assistant writes a memory, a sync pulls, the CLI runs): polls a cheap
 * signature and calls router.refresh() when it moves.
 */
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { pollIndex } from '@/app/actions';
import { queryKeys } from '@/lib/query-keys';

/** `since`: the index signature the page was rendered from, so a change between render and first poll is not missed. */
export function LiveRefresh({ since, intervalMs = 3_000 }: { since: string; intervalMs?: number }) {
  const router = useRouter();
  const { data } = useQuery({
    queryKey: queryKeys.index,
    queryFn: async () => {
      const r = await pollIndex({});
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
