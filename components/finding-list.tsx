import type { Finding } from '@/lib/validators/types';
import { FindingClassBadge } from '@/components/finding-class-badge';

const TONE: Record<string, string> = {
  'FAIL-STRUCT': 'text-red-800 dark:text-red-300',
  'FAIL-FORMAT': 'text-red-800 dark:text-red-300',
  'SECRET-DETECTED': 'text-red-800 dark:text-red-300',
  'WARN-SEMANTIC': 'text-amber-800 dark:text-amber-300',
  FLAGGED: 'text-violet-800 dark:text-violet-300',
};

/** Validator findings with line numbers; messages are already masked by the validators. */
export function FindingList({ findings }: { findings: Finding[] }) {
  if (findings.length === 0) return <p className="text-sm text-emerald-800 dark:text-emerald-300">All three validators pass.</p>;
  return (
    <ul className="space-y-1 text-sm">
      {findings.map((f, i) => (
        <li key={i} className="flex gap-2">
          <span className={`w-36 shrink-0 font-mono text-xs ${TONE[f.label] ?? ''}`}>{f.label}</span>
          <span>
            {f.class ? <FindingClassBadge cls={f.class} /> : null}
            {f.message}
            {f.line ? <span className="text-slate-500 dark:text-slate-400"> · line {f.line}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
