'use client';
/**
 * The seed's /memory-review as a page, usable entirely from the keyboard:
 * j/k move, p promote, r re-affirm or restore, d demote (asks why), a archive,
 * ? shows the keys. After an action the next item is focused.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import Link from 'next/link';
import { loadReviewQueue, transitionMemory } from '@/app/actions';
import { queryKeys } from '@/lib/query-keys';
import type { ReviewItem } from '@/lib/service/review-queue';
import { ReviewCard } from './review-card';
import { EmptyState } from './ui/empty-state';

type Pending = { item: ReviewItem; action: string } | null;

const MOVES = new Set(['demote', 'restore', 'archive']);

export function ReviewQueue() {
  const qc = useQueryClient();
  const { data, isLoading, error } = useQuery({
    queryKey: queryKeys.review,
    queryFn: async () => {
      const r = await loadReviewQueue({});
      if (!r.ok) throw new Error(r.message);
      return r.data;
    },
    refetchInterval: 5_000,
  });
  const items = data ?? [];
  // The active item is tracked by id: rows move between groups and leave the queue after actions.
  const [activeId, setActiveId] = useState<string | null>(null);
  const [pendingFocus, setPendingFocus] = useState(false);
  const [confirm, setConfirm] = useState<Pending>(null);
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [help, setHelp] = useState(false);
  const [busy, setBusy] = useState(false);
  const refs = useRef<(HTMLLIElement | null)[]>([]);
  const found = items.findIndex((x) => x.id === activeId);
  const cursor = found >= 0 ? found : 0;

  const focus = useCallback(
    (i: number) => {
      const item = items[i];
      if (!item) return;
      setActiveId(item.id);
      refs.current[i]?.focus();
    },
    [items],
  );

  useEffect(() => {
    if (!pendingFocus) return;
    setPendingFocus(false);
    refs.current[cursor]?.focus();
  }, [pendingFocus, cursor, items]);

  const run = useCallback(
    async (item: ReviewItem, action: string, why?: string) => {
      setBusy(true);
      const at = items.findIndex((x) => x.id === item.id);
      const nextId = (items[at + 1] ?? items[at - 1])?.id ?? null;
      const r = await transitionMemory({ id: item.id, action: action as never, reason: why, expectSha: item.sha256, opId: crypto.randomUUID() });
      setConfirm(null);
      setReason('');
      setMessage(r.ok ? { ok: true, text: r.data.message } : { ok: false, text: r.message });
      // Resolves once the queue has been fetched again; then the next item gets focus.
      await qc.invalidateQueries();
      if (r.ok) setActiveId(nextId);
      setPendingFocus(true);
      setBusy(false);
    },
    [qc, items],
  );

  const request = useCallback(
    (item: ReviewItem, action: string) => {
      const a = item.actions.find((x) => x.action === action);
      if (!a) return;
      if (!a.allowed) {
        setMessage({ ok: false, text: `${action} is not available: ${a.reason ?? ''}` });
        return;
      }
      setMessage(null);
      if (MOVES.has(action)) setConfirm({ item, action });
      else void run(item, action);
    },
    [run],
  );

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (confirm || e.metaKey || e.ctrlKey || e.altKey) return;
      const t = e.target as HTMLElement;
      if (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT') return;
      const item = items[cursor];
      if (e.key === '?') return setHelp((h) => !h);
      if (e.key === 'j') return focus(Math.min(cursor + 1, items.length - 1));
      if (e.key === 'k') return focus(Math.max(cursor - 1, 0));
      if (!item || busy) return;
      if (e.key === 'p') request(item, 'promote');
      else if (e.key === 'r') request(item, item.tier === 'quarantined' ? 'restore' : 'reaffirm');
      else if (e.key === 'd') request(item, 'demote');
      else if (e.key === 'a') request(item, 'archive');
      else return;
      e.preventDefault();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [items, cursor, confirm, busy, focus, request]);

  if (isLoading) return <div className="space-y-3" aria-busy="true">{[0, 1, 2].map((i) => <div key={i} className="h-24 animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800" />)}</div>;
  if (error) return <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">Could not load the review queue: {(error as Error).message}</p>;

  return (
    <div>
      {message ? (
        <p role={message.ok ? 'status' : 'alert'} className={`mb-4 rounded-md px-3 py-2 text-sm ${message.ok ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100' : 'bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100'}`}>
          {message.text}
        </p>
      ) : null}
      {help ? (
        <div role="dialog" aria-label="Keyboard shortcuts" className="mb-4 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow dark:border-slate-700 dark:bg-slate-900">
          <p className="font-medium">Keyboard shortcuts</p>
          <ul className="mt-2 grid grid-cols-2 gap-1">
            <li><kbd className="font-mono">j</kbd> / <kbd className="font-mono">k</kbd> next / previous</li>
            <li><kbd className="font-mono">p</kbd> promote</li>
            <li><kbd className="font-mono">r</kbd> re-affirm (verified) or restore (quarantined)</li>
            <li><kbd className="font-mono">d</kbd> demote (asks why)</li>
            <li><kbd className="font-mono">a</kbd> archive (day 91+)</li>
            <li><kbd className="font-mono">?</kbd> show / hide this help</li>
          </ul>
        </div>
      ) : null}
      {confirm ? (
        <form
          role="dialog"
          aria-label={`Confirm ${confirm.action}`}
          className="mb-4 rounded-lg border border-teal-300 bg-teal-50 p-4 text-sm dark:border-teal-800 dark:bg-teal-950"
          onSubmit={(e) => {
            e.preventDefault();
            void run(confirm.item, confirm.action, confirm.action === 'demote' ? reason : undefined);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setConfirm(null);
          }}
        >
          <p className="font-medium">
            {confirm.action === 'demote' ? 'Demote' : confirm.action === 'restore' ? 'Restore' : 'Archive'} “{confirm.item.name}”? This moves the file.
          </p>
          {confirm.action === 'demote' ? (
            <label className="mt-2 block">
              Reason
              <input autoFocus required maxLength={300} value={reason} onChange={(e) => setReason(e.target.value)} className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 dark:border-slate-600 dark:bg-slate-900" />
            </label>
          ) : null}
          <div className="mt-3 flex gap-2">
            <button type="submit" autoFocus={confirm.action !== 'demote'} disabled={busy} className="rounded-md bg-teal-700 px-3 py-1.5 font-medium text-white hover:bg-teal-800 disabled:opacity-50">
              Confirm
            </button>
            <button type="button" onClick={() => setConfirm(null)} className="rounded-md px-3 py-1.5 hover:bg-white/60">Cancel</button>
          </div>
        </form>
      ) : null}
      {items.length === 0 ? (
        <EmptyState title="Nothing to review">
          No inferred memories past observation, no stale verified memories, no quarantine. <Link href="/" className="text-teal-700 hover:underline">Back to the overview</Link>
        </EmptyState>
      ) : (
        <ul aria-label="Review queue" className="space-y-3">
          {items.map((item, i) => (
            <ReviewCard key={item.id} item={item} active={i === cursor} ref={(el) => { refs.current[i] = el; }} onFocus={() => setActiveId(item.id)} onAction={(a) => request(item, a)} />
          ))}
        </ul>
      )}
    </div>
  );
}
