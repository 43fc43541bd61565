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

export function LiveRefresh({ intervalMs = 3_000 }: { intervalMs?: number }) {
  const router = useRouter();
  const { data } = useQuery({
    queryKey: queryKeys.index,
    queryFn: async () => {
      const r = await pollIndex({});
      return r.ok ? r.data : null;
    },
    refetchInterval: intervalMs,
  });
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (!data) return;
    if (seen.current !== null && seen.current !== data) router.refresh();
    seen.current = data;
  }, [data, router]);
  return null;
}
