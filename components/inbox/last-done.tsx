'use client';
/**
 * The last decision's confirmation, kept across the refresh that empties the inbox: the
 * table that shows it unmounts when its last row is decided, and a decision must never
 * pass without its "done" line (docs/review-inbox.md).
 */
import { useEffect, useState } from 'react';

const KEY = 'memtrust:last-done';
/** Long enough to outlive the refresh, short enough never to greet a later visit. */
const FRESH_MS = 60_000;

export function rememberDone(message: string): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ message, at: Date.now() }));
  } catch {
    // No storage (private mode): the table's own line still shows while it is mounted.
  }
}

export function LastDone() {
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    try {
      const v = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { message?: string; at?: number } | null;
      if (v?.message && typeof v.at === 'number' && Date.now() - v.at < FRESH_MS) setMessage(v.message);
    } catch {
      // A value someone else wrote: nothing to show.
    }
  }, []);
  return message ? (
    <p
      role="status"
      className="mb-2 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
    >
      {message}
    </p>
  ) : null;
}
