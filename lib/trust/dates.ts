/**
 * Strict UTC date handling for trust fields. Only the two forms the contract allows
 * are accepted (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SSZ`); `Date.parse` is never used
 * because it accepts local times and rolls 2026-02-30 over into March.
 */

export const DAY_MS = 86_400_000;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

export type TimestampKind = 'date' | 'datetime';
export interface Timestamp {
  date: Date;
  kind: TimestampKind;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeap(y) ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): Date | null {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  if (h > 23 || mi > 59 || s > 59) return null;
  const out = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 onto 1900–1999.
  out.setUTCFullYear(y, mo - 1, d);
  out.setUTCHours(h, mi, s, 0);
  return out;
}

/** `YYYY-MM-DD` → midnight UTC of that day; null for any other text or an impossible date. */
export function parseDate(text: string): Date | null {
  const m = DATE_RE.exec(text);
  if (!m) return null;
  return utc(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** `YYYY-MM-DDTHH:MM:SSZ` → that instant; null otherwise (no offsets, no fractions). */
export function parseDateTime(text: string): Date | null {
  const m = DATETIME_RE.exec(text);
  if (!m) return null;
  return utc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/** Either accepted form; a date-only value means midnight UTC. */
export function parseTimestamp(text: string | undefined | null): Timestamp | null {
  if (typeof text !== 'string') return null;
  const dt = parseDateTime(text);
  if (dt) return { date: dt, kind: 'datetime' };
  const d = parseDate(text);
  return d ? { date: d, kind: 'date' } : null;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function assertValid(d: Date): void {
  if (Number.isNaN(d.getTime())) throw new RangeError('invalid Date passed to the trust clock');
}

/** UTC date of `now` as `YYYY-MM-DD` ("today" in the contract). */
export function today(now: Date): string {
  assertValid(now);
  return `${pad(now.getUTCFullYear(), 4)}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())}`;
}

/** `now` as `YYYY-MM-DDTHH:MM:SSZ`; milliseconds are dropped, not rounded. */
export function isoNow(now: Date): string {
  const t = `${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())}`;
  return `${today(now)}T${t}Z`;
}

/** `YYYY-MM` of a date, UTC (archive folder names). */
export function monthOf(d: Date): string {
  return today(d).slice(0, 7);
}

/** `HH:MM` UTC, for "later today at 09:30 UTC". */
export function timeOfDay(d: Date): string {
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** Whole UTC calendar days from `from` to `to` (same UTC date = 0; negative if `to` is earlier). */
export function utcDaysBetween(from: Date, to: Date): number {
  assertValid(from);
  assertValid(to);
  return Math.floor(to.getTime() / DAY_MS) - Math.floor(from.getTime() / DAY_MS);
}

/** Midnight UTC of the day `d` falls on. */
export function startOfUtcDay(d: Date): Date {
  return new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
}

export function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * DAY_MS);
}

/** "1 day" / "3 days". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
