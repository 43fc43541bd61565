'use client';
/** The trust model's once-per-session prompt, dismissable for the rest of the browser session. */
import Link from 'next/link';
import { useEffect, useState } from 'react';

const KEY = 'memtrust.review-banner.dismissed';

export function ReviewBanner({ count }: { count: number }) {
  const [hidden, setHidden] = useState(true);
  useEffect(() => setHidden(sessionStorage.getItem(KEY) === '1'), []);
  if (count === 0 || hidden) return null;
  return (
    <div
      role="status"
      className="mb-6 flex items-center justify-between gap-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <span>
        You have {count} inferred {count === 1 ? 'memory' : 'memories'} awaiting review.{' '}
        <Link href="/review" className="font-medium underline">
          Review them
        </Link>{' '}
        to promote or demote.
      </span>
      <button
        type="button"
        onClick={() => {
          sessionStorage.setItem(KEY, '1');
          setHidden(true);
        }}
        className="rounded-md px-2 py-1 text-xs font-medium hover:bg-amber-100 dark:hover:bg-amber-900"
      >
        Dismiss
      </button>
    </div>
  );
}
