'use client';
/**
 * Refreshes the server-rendered page when what it shows changes on disk (the
 * assistant writes a memory, a sync pulls, the CLI runs, codeclone writes its store):
 * polls a cheap signature and calls router.refresh() when it moves.
 */
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { pollContextIndex, pollIndex } from '@/app/actions';
import type { ActionResult } from '@/lib/core/action-result';
import { queryKeys } from '@/lib/web/query-keys';

/**
 * `since`: the signature the page was rendered from, so a change between render and the
 * first poll is not missed; `poll`: the server action answering the current signature.
 */
export function useRefreshOnChange(
  since: string,
  queryKey: readonly unknown[],
  poll: (input: Record<string, never>) => Promise<ActionResult<string>>,
  intervalMs: number,
): void {
  const router = useRouter();
  const { data } = useQuery({
    queryKey,
    queryFn: async () => {
      const r = await poll({});
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
}

/**
 * The index of the file-per-memory roots. `context`: the Context X-ray's tab, whose polls
 * also tell the server that it is still on screen (its plan is made ahead meanwhile).
 */
export function LiveRefresh({
  since,
  intervalMs = 3_000,
  context = false,
}: {
  since: string;
  intervalMs?: number;
  context?: boolean;
}) {
  useRefreshOnChange(
    since,
    context ? queryKeys.contextIndex : queryKeys.index,
    context ? pollContextIndex : pollIndex,
    intervalMs,
  );
  return null;
}
