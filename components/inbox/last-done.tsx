'use client';
/**
 * The last decision's confirmation, with its batch's Undo, kept across the refresh that
 * empties the inbox: the table that shows it unmounts when its last row is decided, and a
 * decision must never pass without its "done" line (docs/review-inbox.md).
 */
import { useEffect, useState } from 'react';
import { ResultBanner, type TransitionResult } from '../transition/result-banner';

const KEY = 'memtrust:last-done';
/** Long enough to outlive the refresh, short enough never to greet a later visit. */
const FRESH_MS = 60_000;

export function rememberDone(result: TransitionResult): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ ...result, at: Date.now() }));
  } catch {
    // No storage (private mode): the table's own line still shows while it is mounted.
  }
}

export function LastDone() {
  const [result, setResult] = useState<TransitionResult | null>(null);
  useEffect(() => {
    try {
      const raw = sessionStorage.getItem(KEY);
      // Shown once: a later visit, after its Undo perhaps, must not offer that Undo again.
      sessionStorage.removeItem(KEY);
      const v = JSON.parse(raw ?? 'null') as (Partial<TransitionResult> & { at?: number }) | null;
      if (v?.message && typeof v.at === 'number' && Date.now() - v.at < FRESH_MS)
        setResult({
          ok: true,
          message: v.message,
          batch: typeof v.batch === 'string' ? v.batch : null,
          files: typeof v.files === 'number' ? v.files : undefined,
        });
    } catch {
      // A value someone else wrote: nothing to show.
    }
  }, []);
  return result ? <ResultBanner result={result} className="mb-2" /> : null;
}
