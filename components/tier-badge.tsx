const STYLE: Record<string, string> = {
  verified: 'bg-emerald-50 text-emerald-800 ring-emerald-600/30 dark:bg-emerald-950 dark:text-emerald-200',
  inferred: 'bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-200',
  quarantined: 'bg-red-50 text-red-800 ring-red-600/30 dark:bg-red-950 dark:text-red-200',
  archived: 'bg-slate-100 text-slate-700 ring-slate-500/30 dark:bg-slate-800 dark:text-slate-200',
};

export function TierBadge({ tier }: { tier: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLE[tier] ?? STYLE.archived}`}
    >
      {tier}
    </span>
  );
}

const FINDING: Record<string, { label: string; cls: string }> = {
  validate: { label: 'format', cls: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200' },
  secret: { label: 'secret', cls: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200' },
  injection: { label: 'injection', cls: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-200' },
};

export function FindingBadges({ checks }: { checks: string }) {
  const list = checks.split(' ').filter(Boolean);
  if (list.length === 0) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {list.map((c) => (
        <span key={c} className={`rounded px-1.5 py-0.5 text-xs ${FINDING[c]?.cls ?? ''}`}>
          {FINDING[c]?.label ?? c}
        </span>
      ))}
    </span>
  );
}
