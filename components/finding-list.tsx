/**
 * Validator findings grouped (docs/review-inbox.md "Findings grouped"): one row per
 * kind and message with its count and the lines it sits on — a memory with 60
 * private addresses is one row "× 60", never 60 identical lines. Messages are
 * already masked by the validators, so equal masks group together.
 */
import { FindingClassBadge } from '@/components/finding-class-badge';

const TONE: Record<string, string> = {
  'FAIL-STRUCT': 'text-red-800 dark:text-red-300',
  'FAIL-FORMAT': 'text-red-800 dark:text-red-300',
  'SECRET-DETECTED': 'text-red-800 dark:text-red-300',
  'WARN-SEMANTIC': 'text-amber-800 dark:text-amber-300',
  FLAGGED: 'text-violet-800 dark:text-violet-300',
};

export interface FindingLike {
  check: string;
  code: string;
  label: string;
  line?: number | null;
  message: string;
  /** Secret findings: credential or personal data (lib/validators/types.ts). */
  class?: 'credential' | 'personal' | null;
}

export interface FindingGroup {
  code: string;
  label: string;
  count: number;
  lines: number[];
  messages: string[];
  cls: 'credential' | 'personal' | null;
}

const RANK: Record<string, number> = { 'FAIL-STRUCT': 0, 'SECRET-DETECTED': 1, 'FAIL-FORMAT': 2, FLAGGED: 3, 'WARN-SEMANTIC': 4 };

export function groupFindings(findings: readonly FindingLike[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const f of findings) {
    const k = `${f.label}|${f.code}|${f.class ?? ''}|${f.message}`;
    const g = groups.get(k) ?? { code: f.code, label: f.label, count: 0, lines: [], messages: [], cls: f.class ?? null };
    g.count++;
    if (f.line != null && !g.lines.includes(f.line)) g.lines.push(f.line);
    if (!g.messages.includes(f.message)) g.messages.push(f.message);
    groups.set(k, g);
  }
  return [...groups.values()]
    .map((g) => ({ ...g, lines: g.lines.sort((a, b) => a - b) }))
    .sort((a, b) => (RANK[a.label] ?? 9) - (RANK[b.label] ?? 9) || a.code.localeCompare(b.code) || (a.lines[0] ?? 0) - (b.lines[0] ?? 0));
}

function lineList(lines: number[]): string {
  if (lines.length === 0) return '';
  const shown = lines.slice(0, 12).join(', ');
  return lines.length > 12 ? `${shown} and ${lines.length - 12} more` : shown;
}

export function FindingList({ findings }: { findings: readonly FindingLike[] }) {
  if (findings.length === 0) return <p className="text-sm text-emerald-800 dark:text-emerald-300">All three validators pass.</p>;
  const groups = groupFindings(findings);
  return (
    <ul className="space-y-1.5 text-sm" aria-label="Findings by kind">
      {groups.map((g) => (
        <li key={`${g.label}|${g.code}|${g.messages[0]}`} className="flex gap-2">
          <span className={`w-36 shrink-0 font-mono text-xs ${TONE[g.label] ?? ''}`}>{g.label}</span>
          <span className="min-w-0">
            {g.cls ? <FindingClassBadge cls={g.cls} /> : null}
            <span>{g.messages[0]}</span>
            {g.count > 1 ? <span className="ml-1 rounded bg-slate-100 px-1 text-xs font-medium tabular-nums dark:bg-slate-800" aria-label={`${g.count} times`}>× {g.count}</span> : null}
            {g.lines.length ? <span className="text-slate-500 dark:text-slate-400"> · {g.lines.length === 1 ? 'line' : 'lines'} {lineList(g.lines)}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
