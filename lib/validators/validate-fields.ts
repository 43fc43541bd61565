/** Required fields and per-field format rules of docs/validators.md. */
import type { FmError, ParsedFrontmatter } from '../memory-file';
import { format, struct, warn } from './validate-findings';
import { codePointLength } from './validate-text';
import type { Finding } from './types';
import { MEMORY_TYPES, TIERS as TRUST_LEVELS } from '../trust/tiers';

export const REQUIRED_FIELDS = ['name', 'description', 'type'] as const;
export const RECOMMENDED_FIELDS = ['source-machine', 'created-at', 'trust-level', 'last-verified'] as const;
/** The vocabulary is the trust model's (one list each, lib/trust/tiers.ts). */
export { MEMORY_TYPES, TIERS as TRUST_LEVELS } from '../trust/tiers';

const CREATED_AT = /^(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ)?$/;
/** ISO 8601 date or date-time with a zone (seconds and fractions optional). */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d))?$/;

/** The regexes check shape; this rejects 2026-02-30 and month 13. */
function realDate(m: RegExpMatchArray): boolean {
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function dateOk(value: string, shape: RegExp): boolean {
  const m = value.match(shape);
  return m !== null && realDate(m);
}

/** A field present but unusable (non-scalar) already has its format error; it is not "missing". */
function present(fm: ParsedFrontmatter, key: string): boolean {
  return key in fm.data || fm.errors.some((e: FmError) => e.key === key);
}

function lengthRule(
  out: Finding[],
  fm: ParsedFrontmatter,
  key: 'name' | 'description',
  min: number,
  max: number,
): void {
  const value = fm.data[key];
  if (typeof value !== 'string') return;
  if (/[\r\n\u2028\u2029\u0085]/.test(value))
    out.push(format(`${key}-newline`, `newline in ${key}`, fm.keyLines.get(key)));
  const n = codePointLength(value);
  if (n < min || n > max) {
    out.push(
      format(`${key}-length`, `${key} length invalid (${n} characters, expected ${min}–${max})`, fm.keyLines.get(key)),
    );
  }
}

function enumRule(out: Finding[], fm: ParsedFrontmatter, key: string, allowed: readonly string[]): void {
  const value = fm.data[key];
  if (typeof value === 'string' && !allowed.includes(value)) {
    out.push(format(`${key}-invalid`, `${key} invalid (expected one of: ${allowed.join(', ')})`, fm.keyLines.get(key)));
  }
}

function dateRule(out: Finding[], fm: ParsedFrontmatter, key: string, shape: RegExp, expected: string): void {
  const value = fm.data[key];
  if (typeof value === 'string' && !dateOk(value, shape)) {
    out.push(format(`${key}-invalid`, `${key} invalid (expected ${expected})`, fm.keyLines.get(key)));
  }
}

/** `recommend`: seed 000's recommended fields are asked for (trust-model roots and the drop-in CLI only). */
export function checkFields(fm: ParsedFrontmatter, recommend = true): Finding[] {
  const out: Finding[] = [];
  for (const key of REQUIRED_FIELDS) {
    if (!present(fm, key)) out.push(struct('missing-required-field', `missing required field: ${key}`));
  }
  lengthRule(out, fm, 'name', 2, 100);
  lengthRule(out, fm, 'description', 1, 256);
  enumRule(out, fm, 'type', MEMORY_TYPES);
  enumRule(out, fm, 'trust-level', TRUST_LEVELS);
  dateRule(out, fm, 'created-at', CREATED_AT, 'YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ');
  dateRule(out, fm, 'last-verified', ISO_DATE_TIME, 'an ISO 8601 date or date-time');
  dateRule(out, fm, 'quarantined-at', ISO_DATE_TIME, 'an ISO 8601 date or date-time');
  if (!recommend) return out;
  for (const key of RECOMMENDED_FIELDS) {
    if (!present(fm, key)) out.push(warn('missing-recommended-field', `missing recommended field: ${key}`));
  }
  return out;
}
