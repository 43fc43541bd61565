'use client';
import Link from 'next/link';
import type { Ref } from 'react';
import type { ReviewItem } from '@/lib/service/review-queue';
import { TierBadge, FindingBadges } from './tier-badge';
import { memoryHref } from './format';

const KIND: Record<ReviewItem['kind'], string> = {
  promote: 'Observation over: promote or demote',
  reaffirm: 'Stale: re-affirm or demote',
  quarantine: 'Quarantined: restore, or archive when due',
};
const LABEL: Record<string, string> = { promote: 'Promote (p)', reaffirm: 'Re-affirm (r)', restore: 'Restore (r)', demote: 'Demote (d)', archive: 'Archive (a)' };
const SHOWN: Record<ReviewItem['kind'], string[]> = { promote: ['promote', 'demote'], reaffirm: ['reaffirm', 'demote'], quarantine: ['restore', 'archive'] };

export function ReviewCard({ item, active, ref, onFocus, onAction }: { item: ReviewItem; active: boolean; ref: Ref<HTMLLIElement>; onFocus: () => void; onAction: (a: string) => void }) {
  return (
    <li
      ref={ref}
      tabIndex={0}
      onFocus={onFocus}
      aria-current={active ? 'true' : undefined}
      aria-label={`${item.name}, ${item.tier}`}
      className={`rounded-lg border bg-white p-4 shadow-sm outline-none dark:bg-slate-900 ${active ? 'border-teal-600 ring-2 ring-teal-600/30' : 'border-slate-200 dark:border-slate-800'}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <TierBadge tier={item.tier} />
        <span className="text-xs text-slate-600 dark:text-slate-400">{KIND[item.kind]}</span>
        <FindingBadges checks={item.findingChecks} />
      </div>
      <Link href={memoryHref(item.source, item.filename)} className="mt-1 block font-medium text-teal-800 hover:underline dark:text-teal-300">
        {item.name}
      </Link>
      <p className="text-sm text-slate-700 dark:text-slate-300">{item.description}</p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {item.facts.join(' · ')}
        {item.reason ? ` · reason: ${item.reason}` : ''}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        {SHOWN[item.kind].map((name) => {
          const a = item.actions.find((x) => x.action === name);
          if (!a) return null;
          return (
            <button
              key={name}
              type="button"
              tabIndex={-1}
              disabled={!a.allowed}
              title={a.allowed ? undefined : a.reason}
              onClick={() => onAction(name)}
              className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-600 dark:bg-slate-800"
            >
              {LABEL[name]}
            </button>
          );
        })}
        {item.actions.filter((a) => SHOWN[item.kind].includes(a.action) && !a.allowed).map((a) => (
          <span key={a.action} className="self-center text-xs text-slate-500 dark:text-slate-400">{a.action}: {a.reason}</span>
        ))}
      </div>
    </li>
  );
}
