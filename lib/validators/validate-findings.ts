/** Finding constructors and the exit-code ranking for the `validate` check (docs/validators.md). */
import type { Finding, ValidateLabel, Verdict } from './types';

const EXIT: Record<ValidateLabel, number> = { PASS: 0, 'FAIL-STRUCT': 1, 'FAIL-FORMAT': 2, 'WARN-SEMANTIC': 3 };
/** Structural outranks format outranks warnings; exit codes alone do not sort that way. */
const RANK: Record<ValidateLabel, number> = { 'FAIL-STRUCT': 0, 'FAIL-FORMAT': 1, 'WARN-SEMANTIC': 2, PASS: 3 };

function make(label: ValidateLabel, code: string, message: string, line?: number): Finding {
  return line === undefined
    ? { check: 'validate', code, label, message }
    : { check: 'validate', code, label, message, line };
}

export const struct = (code: string, message: string, line?: number) => make('FAIL-STRUCT', code, message, line);
export const format = (code: string, message: string, line?: number) => make('FAIL-FORMAT', code, message, line);
export const warn = (code: string, message: string, line?: number) => make('WARN-SEMANTIC', code, message, line);

function rank(f: Finding): number {
  return RANK[f.label as ValidateLabel] ?? 3;
}

/** Worst finding decides; findings are ordered worst first, then by line, for stable output. */
export function verdictOf(findings: Finding[]): Verdict {
  const ordered = findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f) - rank(b.f) || (a.f.line ?? 0) - (b.f.line ?? 0) || a.i - b.i)
    .map(({ f }) => f);
  const worst = (ordered[0]?.label as ValidateLabel | undefined) ?? 'PASS';
  return { check: 'validate', exit: EXIT[worst], label: worst, findings: ordered };
}
