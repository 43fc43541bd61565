/**
 * quarantine-reason is one readable frontmatter line. Reasons come from people and from
 * validator findings, so they may carry newlines, terminal escapes or bidi controls that
 * would forge extra YAML lines or hide text in a listing: all are neutralised here.
 */
import { onFirstUse } from '../core/on-first-use';
import { REASON_MAX_CODE_POINTS } from './tiers';

// Control characters and line/paragraph separators become spaces so words stay apart.
const BREAKING = onFirstUse(() => /[\p{Cc}\p{Zl}\p{Zp}]/gu);
// Format characters (zero-width, bidi overrides, tag characters) are invisible: drop them.
const INVISIBLE = onFirstUse(() => /\p{Cf}/gu);

const SAFE_LINE = /^[!-~]+(?: [!-~]+)*$/;

/** Any text as one safe line of at most `max` code points (an ellipsis marks a cut). */
export function oneLine(raw: string, max: number): string {
  // Printable ASCII words with single spaces (most filenames and names): nothing to change.
  if (raw.length <= max && SAFE_LINE.test(raw)) return raw;
  const flat = raw.replace(BREAKING(), ' ').replace(INVISIBLE(), '').replace(/\s+/gu, ' ').trim();
  if (flat.length <= max) return flat; // never more code points than UTF-16 units
  const points = Array.from(flat);
  if (points.length <= max) return flat;
  return `${points
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/** quarantine-reason: one line, at most 200 code points. */
export function sanitiseReason(raw: string): string {
  return oneLine(raw, REASON_MAX_CODE_POINTS);
}

export interface CheckExits {
  /** validate exit: 0 PASS, 1 FAIL-STRUCT, 2 FAIL-FORMAT, 3 WARN-SEMANTIC. */
  validateExit: number;
  /** secret-check exit: 0 CLEAN, 1 SECRET-DETECTED. */
  secretExit: number;
}

/** validate exit 1 or 2, or secret-check exit 1 (docs/trust-model.md). Anything else never demotes. */
export function isHardFailure(c: CheckExits): boolean {
  return c.validateExit === 1 || c.validateExit === 2 || c.secretExit === 1;
}

/** Restore needs validate 0 or 3 (warnings pass) and a clean secret check; injection is advisory. */
export function checksPass(c: CheckExits): boolean {
  return (c.validateExit === 0 || c.validateExit === 3) && c.secretExit === 0;
}

const VALIDATE_LABEL: Record<number, string> = { 0: 'PASS', 1: 'FAIL-STRUCT', 2: 'FAIL-FORMAT', 3: 'WARN-SEMANTIC' };

/** "validate FAIL-FORMAT (exit 2); secret-check SECRET-DETECTED (exit 1)" — the failing parts only. */
export function describeFailure(c: CheckExits): string {
  const parts: string[] = [];
  if (c.validateExit !== 0 && c.validateExit !== 3) {
    parts.push(`validate ${VALIDATE_LABEL[c.validateExit] ?? 'error'} (exit ${c.validateExit})`);
  }
  if (c.secretExit !== 0) {
    parts.push(`secret-check ${c.secretExit === 1 ? 'SECRET-DETECTED' : 'error'} (exit ${c.secretExit})`);
  }
  return parts.join('; ');
}
