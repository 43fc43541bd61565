/**
 * Validator findings grouped (docs/review-inbox.md "Findings grouped"): one row per
 * kind and message with its count and the lines it sits on — a memory with 60
 * private addresses is one row "× 60", never 60 identical lines. Messages are
 * already masked by the validators, so equal masks group together.
 */
import { FindingClassBadge } from '@/components/finding-class-badge';
import { groupFindings, lineList, type FindingLike } from '@/lib/validators/finding-groups';

const TONE: Record<string, string> = {
  'FAIL-STRUCT': 'text-red-800 dark:text-red-300',
  'FAIL-FORMAT': 'text-red-800 dark:text-red-300',
  'SECRET-DETECTED': 'text-red-800 dark:text-red-300',
  'WARN-SEMANTIC': 'text-amber-800 dark:text-amber-300',
  FLAGGED: 'text-violet-800 dark:text-violet-300',
};

/** `passed`: what to say when nothing was found — the checks that actually ran. */
export function FindingList({
  findings,
  passed = 'All three validators pass.',
}: {
  findings: readonly FindingLike[];
  passed?: string;
}) {
  if (findings.length === 0) return <p className="text-sm text-emerald-800 dark:text-emerald-300">{passed}</p>;
  const groups = groupFindings(findings);
  return (
    <ul className="space-y-1.5 text-sm" aria-label="Findings by kind">
      {groups.map((g) => (
        <li key={`${g.label}|${g.code}|${g.messages[0]}`} className="flex gap-2">
          <span className={`w-36 shrink-0 font-mono text-xs ${TONE[g.label] ?? ''}`}>{g.label}</span>
          <span className="min-w-0">
            {g.cls ? <FindingClassBadge cls={g.cls} /> : null}
            <span>{g.messages[0]}</span>
            {g.count > 1 ? (
              <span
                className="ml-1 rounded bg-slate-100 px-1 text-xs font-medium tabular-nums dark:bg-slate-800"
                role="img"
                aria-label={`${g.count} times`}
              >
                × {g.count}
              </span>
            ) : null}
            {g.lines.length ? (
              <span className="text-slate-500 dark:text-slate-400">
                {' '}
                · {g.lines.length === 1 ? 'line' : 'lines'} {lineList(g.lines)}
              </span>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
