'use client';
/**
 * The inbox rows of one page: selection checkboxes, the selected row (in the URL as
 * `sel`), and the keyboard: j/k move, o opens the memory, x toggles the checkbox,
 * p/r/d/a ask the preview pane's transition panel to open its diff preview (nothing
 * acts before Confirm, and the pane refuses promote for a flagged memory with the reason),
 * ? shows the keys and Escape closes them.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { rememberDone } from './last-done';
import { ResultBanner, type TransitionResult } from '../transition/result-banner';
import { TierBadge } from '../tier-badge';
import { TRANSITION_DONE_EVENT, TRANSITION_EVENT } from '../transition/events';
import { BulkSeam } from './bulk-seam';
import { MaskedText } from '@/components/records/masked-text';

export interface InboxRow {
  key: string;
  id: string;
  href: string;
  detailHref: string;
  name: string;
  description: string | null;
  relPath: string;
  tier: string;
  type: string | null;
  layout: string;
  /** A record of a record root (its bulk actions go through the record batch path, lib/service/records/bulk.ts). */
  record?: boolean;
  age: number | null;
  flagged: boolean;
  /**
   * Why the single Promote refuses this memory (a credential finding or a hard failure),
   * or null. The row can still be ticked — to demote or archive it in bulk — but the bulk
   * Promote is disabled while it is selected (docs/review-inbox.md "Bulk actions").
   */
  flaggedWhy: string | null;
  tags: { label: string; tone: 'red' | 'amber' | 'violet' | 'slate' }[];
  note: string | null;
}

export interface SortHeader {
  label: string;
  href: string | null;
  state: 'ascending' | 'descending' | 'none';
}

/** How a row names its layout (docs/records.md). */
export const LAYOUT_LABEL: Record<string, string> = {
  'trust-root': 'trust root',
  'claude-code': 'Claude Code',
  canonical: 'canonical',
  governed: 'governed',
  consolidation: 'consolidation',
};

const TONE = {
  red: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  amber: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  violet: 'bg-violet-100 text-violet-900 dark:bg-violet-950 dark:text-violet-100',
  slate: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
};

export function InboxTable({
  rows,
  selected,
  headers,
}: {
  rows: InboxRow[];
  selected: string | null;
  headers: SortHeader[];
}) {
  const router = useRouter();
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [help, setHelp] = useState(false);
  const [done, setDone] = useState<TransitionResult | null>(null);
  // Marks hydration: the keys work from here on (e2e waits for it).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const refs = useRef<Map<string, HTMLTableRowElement>>(new Map());
  const at = rows.findIndex((r) => r.key === selected);

  const go = (i: number) => {
    const r = rows[i];
    if (!r) return;
    router.replace(r.href, { scroll: false });
    refs.current.get(r.key)?.focus();
  };

  useEffect(() => {
    if (selected) refs.current.get(selected)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  useEffect(() => {
    function onDone(e: Event) {
      const d = (e as CustomEvent<{ id: string; message?: string; batch?: string | null; files?: number }>).detail;
      const id = d?.id;
      if (d?.message) {
        // The pane that applied it moves on to the next row: its result, and the batch's Undo, show here.
        const result = { ok: true, message: d.message, batch: d.batch ?? null, files: d.files };
        setDone(result);
        rememberDone(result);
      }
      const i = rows.findIndex((r) => r.id === id);
      if (i === -1) return;
      const next = rows[i + 1] ?? rows[i - 1];
      if (next) router.replace(next.href, { scroll: false });
    }
    window.addEventListener(TRANSITION_DONE_EVENT, onDone);
    return () => window.removeEventListener(TRANSITION_DONE_EVENT, onDone);
  }, [rows, router]);

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const t = e.target as HTMLElement;
      // Typing in a field or a dialog is never a shortcut (checkboxes are not typing).
      if (
        t.closest('input:not([type="checkbox"]):not([type="radio"]), textarea, select, [role="dialog"]') &&
        e.key !== 'Escape'
      )
        return;
      if (e.key === 'Escape') {
        if (help) {
          setHelp(false);
          e.preventDefault();
        }
        return;
      }
      if (e.key === '?') {
        setHelp((h) => !h);
        e.preventDefault();
        return;
      }
      const cur = rows[at];
      if (e.key === 'j') go(at < 0 ? 0 : Math.min(at + 1, rows.length - 1));
      else if (e.key === 'k') go(at < 0 ? 0 : Math.max(at - 1, 0));
      else if (!cur) return;
      else if (e.key === 'o') router.push(cur.detailHref);
      else if (e.key === 'x') toggle(cur.key);
      else if (e.key === 'p') fire(cur.id, 'promote');
      else if (e.key === 'r') fire(cur.id, cur.tier === 'quarantined' ? 'restore' : 'reaffirm');
      else if (e.key === 'd') fire(cur.id, 'demote');
      else if (e.key === 'a') fire(cur.id, 'archive');
      else return;
      e.preventDefault();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  function fire(id: string, action: string) {
    window.dispatchEvent(new CustomEvent(TRANSITION_EVENT, { detail: { id, action } }));
  }

  function toggle(key: string) {
    setChecked((s) => {
      const n = new Set(s);
      if (n.has(key)) n.delete(key);
      else n.add(key);
      return n;
    });
  }

  const allChecked = rows.length > 0 && rows.every((r) => checked.has(r.key));
  // Selected rows the single Promote refuses: the bulk Promote is not offered while any is ticked.
  const flaggedSelected = rows.filter((r) => r.flaggedWhy && checked.has(r.key)).length;
  return (
    <div data-inbox-ready={ready ? '' : undefined}>
      {help ? (
        <div
          role="dialog"
          aria-label="Keyboard shortcuts"
          className="mb-3 rounded-lg border border-slate-200 bg-white p-3 text-sm shadow dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="flex items-baseline justify-between">
            <p className="font-medium">Keyboard shortcuts</p>
            <button type="button" onClick={() => setHelp(false)} className="text-xs text-slate-600 hover:underline">
              Close (Esc)
            </button>
          </div>
          <ul className="mt-2 grid grid-cols-2 gap-1 text-xs">
            <li>
              <kbd className="font-mono">j</kbd> / <kbd className="font-mono">k</kbd> next / previous row
            </li>
            <li>
              <kbd className="font-mono">o</kbd> open the memory page
            </li>
            <li>
              <kbd className="font-mono">x</kbd> select / unselect the row
            </li>
            <li>
              <kbd className="font-mono">p</kbd> promote (preview, then confirm)
            </li>
            <li>
              <kbd className="font-mono">r</kbd> re-affirm or restore (preview, then confirm)
            </li>
            <li>
              <kbd className="font-mono">d</kbd> demote (asks why)
            </li>
            <li>
              <kbd className="font-mono">a</kbd> archive (day 91+)
            </li>
            <li>
              <kbd className="font-mono">?</kbd> show / hide, <kbd className="font-mono">Esc</kbd> close
            </li>
          </ul>
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
            A key never changes a file by itself: it opens the diff preview, and only Confirm writes. Promote is
            disabled for a memory with a credential finding or a hard validator failure.
          </p>
        </div>
      ) : null}
      {done ? <ResultBanner result={done} className="mb-2" /> : null}
      <BulkSeam selectedKeys={[...checked]} flaggedSelected={flaggedSelected} onClear={() => setChecked(new Set())} />
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <table className="w-full text-left text-sm" aria-label="Review inbox">
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-300">
            <tr>
              <th scope="col" className="w-8 px-2 py-2">
                <input
                  type="checkbox"
                  aria-label="Select all rows on this page"
                  checked={allChecked}
                  onChange={() => setChecked(allChecked ? new Set() : new Set(rows.map((r) => r.key)))}
                />
              </th>
              {headers.map((h) => (
                <th
                  key={h.label}
                  scope="col"
                  className="whitespace-nowrap px-2 py-2 font-medium"
                  aria-sort={h.href ? h.state : undefined}
                >
                  {h.href ? (
                    <Link href={h.href} scroll={false} className="hover:underline">
                      {h.label}
                      {h.state === 'ascending' ? ' ▲' : h.state === 'descending' ? ' ▼' : ''}
                    </Link>
                  ) : (
                    h.label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((r) => {
              const sel = r.key === selected;
              return (
                <tr
                  key={r.key}
                  ref={(el) => {
                    if (el) refs.current.set(r.key, el);
                    else refs.current.delete(r.key);
                  }}
                  tabIndex={sel ? 0 : -1}
                  aria-selected={sel}
                  aria-label={`${r.name}, ${r.tier}${r.flagged ? ', flagged' : ''}`}
                  onClick={(e) => {
                    if ((e.target as HTMLElement).closest('a, input, button')) return;
                    router.replace(r.href, { scroll: false });
                  }}
                  className={`cursor-pointer outline-none ${sel ? 'bg-teal-50 ring-2 ring-inset ring-teal-600/40 dark:bg-teal-950/40' : 'hover:bg-slate-50 dark:hover:bg-slate-800/40'}`}
                >
                  <td className="px-2 py-1.5">
                    <input
                      type="checkbox"
                      aria-label={`Select ${r.name}`}
                      checked={checked.has(r.key)}
                      onChange={() => toggle(r.key)}
                    />
                  </td>
                  <td className="max-w-xs px-2 py-1.5">
                    <Link
                      href={r.href}
                      scroll={false}
                      replace
                      className="block truncate font-medium text-teal-800 hover:underline dark:text-teal-300"
                    >
                      <MaskedText text={r.name} />
                    </Link>
                    {r.description ? (
                      <div className="truncate text-xs text-slate-600 dark:text-slate-300" title={r.description}>
                        {r.description}
                      </div>
                    ) : null}
                    <div className="truncate text-[11px] text-slate-500 dark:text-slate-400">
                      <span>{LAYOUT_LABEL[r.layout] ?? r.layout}</span> · <span className="font-mono">{r.relPath}</span>
                    </div>
                    {r.note ? (
                      <div className="truncate text-[11px] text-amber-800 dark:text-amber-300">{r.note}</div>
                    ) : null}
                  </td>
                  <td className="px-2 py-1.5">
                    <TierBadge tier={r.tier} />
                  </td>
                  <td className="px-2 py-1.5 text-xs">{r.type ?? '—'}</td>
                  <td className="px-2 py-1.5 text-xs tabular-nums">{r.age ?? '—'}</td>
                  <td className="px-2 py-1.5">
                    <div className="flex gap-1 whitespace-nowrap">
                      {r.tags.map((t) => (
                        <span key={t.label} className={`rounded px-1.5 py-0.5 text-[11px] font-medium ${TONE[t.tone]}`}>
                          {t.label}
                        </span>
                      ))}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
