/** A record's flags beside its tier, each with its reason as the tooltip and for screen readers. */
import type { RecordFlag } from '@/lib/sources/record';
import { flagWord } from '@/db/queries/record-rows';

const TONE: Record<string, string> = {
  stale: 'bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-200',
  suspect: 'bg-orange-50 text-orange-900 ring-orange-600/30 dark:bg-orange-950 dark:text-orange-200',
  conflict: 'bg-red-50 text-red-800 ring-red-600/30 dark:bg-red-950 dark:text-red-200',
  inbox: 'bg-sky-50 text-sky-900 ring-sky-600/30 dark:bg-sky-950 dark:text-sky-200',
  'pending-human': 'bg-violet-50 text-violet-900 ring-violet-600/30 dark:bg-violet-950 dark:text-violet-200',
  'write-rule': 'bg-rose-50 text-rose-900 ring-rose-600/30 dark:bg-rose-950 dark:text-rose-200',
  expired: 'bg-slate-100 text-slate-700 ring-slate-500/30 dark:bg-slate-800 dark:text-slate-200',
};

/** `reasons` are already masked by the page. */
export function FlagBadges({
  flags,
  reasons,
}: {
  flags: readonly RecordFlag[];
  reasons: Partial<Record<string, string>>;
}) {
  if (flags.length === 0) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {flags.map((f) => (
        <span
          key={f}
          data-flag={f}
          title={reasons[f] ?? f}
          className={`inline-flex cursor-help items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONE[f] ?? TONE.expired}`}
        >
          {flagWord(f)}
          {reasons[f] ? <span className="sr-only">: {reasons[f]}</span> : null}
        </span>
      ))}
    </span>
  );
}

export function NativeState({ native }: { native: string }) {
  return (
    <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200">
      {native || '—'}
    </span>
  );
}
