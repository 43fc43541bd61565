'use client';
/**
 * Re-renders the server page every `ms` milliseconds: the first-index progress page
 * (docs/first-index.md), which has no index to poll yet and sends the browser on when done.
 */
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

export function RefreshEvery({ ms }: { ms: number }) {
  const router = useRouter();
  useEffect(() => {
    const t = setInterval(() => router.refresh(), ms);
    return () => clearInterval(t);
  }, [router, ms]);
  return null;
}
