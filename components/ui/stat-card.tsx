import Link from 'next/link';

const TONES = {
  verified: 'border-l-verified',
  inferred: 'border-l-inferred',
  quarantined: 'border-l-quarantined',
  archived: 'border-l-archived',
  neutral: 'border-l-slate-300 dark:border-l-slate-600',
} as const;

export type Tone = keyof typeof TONES;

/** A number with its label; links to the table filtered to exactly those memories. */
export function StatCard({
  label,
  value,
  href,
  tone = 'neutral',
  hint,
}: {
  label: string;
  value: number;
  href?: string;
  tone?: Tone;
  hint?: string;
}) {
  const body = (
    <>
      <div className="text-sm text-slate-600 dark:text-slate-400">{label}</div>
      <div className="mt-1 text-3xl font-semibold tabular-nums">{value.toLocaleString('en-US')}</div>
      {hint ? <div className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</div> : null}
    </>
  );
  const cls = `block rounded-lg border border-slate-200 border-l-4 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900 ${TONES[tone]}`;
  return href ? (
    <Link href={href} className={`${cls} hover:bg-slate-50 dark:hover:bg-slate-800`}>
      {body}
    </Link>
  ) : (
    <div className={cls}>{body}</div>
  );
}

export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="mt-8">
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">{title}</h2>
      {children}
    </section>
  );
}
