/**
 * What the records pages render of a record: every piece of its text masked on the
 * server (docs/credentials.md "Nothing unmasked"), so neither the page source
 * nor a client component's props ever hold a value the validators flag.
 */
import 'server-only';
import type { RecordView } from '@/lib/service/records/read';
import type { OwnerIdentity } from '@/lib/validators/types';
import { maskValues } from '@/lib/validators/mask-inline';

export type Masker = (s: string) => string;

export function masker(owner: OwnerIdentity): Masker {
  return (s) => maskValues(s, owner).text;
}

/** Any detail value as display text: strings masked, the rest as compact JSON, masked too. */
export function detailText(v: unknown, mask: Masker): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return mask(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map((x) => detailText(x, mask)).join(', ');
  // An evidence or link object: its plain values in order (`code · src/cache/bus.py · L10-40`).
  const parts = Object.entries(v as Record<string, unknown>)
    .filter(
      ([k, x]) =>
        x !== null &&
        x !== undefined &&
        x !== '' &&
        typeof x !== 'object' &&
        !/^(id|digest|createdAt|createdBy|otherExists)$/.test(k),
    )
    .map(([k, x]) => (k === 'quote' ? `“${String(x)}”` : String(x)));
  return mask(parts.length ? parts.join(' · ') : JSON.stringify(v));
}

export function detailList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === null || v === undefined || v === '' ? [] : [v];
}

export function detailString(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
}

/** The kinds of finding a record has, as the tables' finding badges take them. */
export function findingChecks(r: Pick<RecordView, 'findings'>): string {
  return [...new Set(r.findings.map((f) => f.check))].join(' ');
}

/** A record's location as `file:line–endLine` (just the file when it is not a text file). */
export function locationText(r: Pick<RecordView, 'location'>): string {
  const { file, line, endLine } = r.location;
  if (!line) return file;
  return endLine && endLine !== line ? `${file}:${line}–${endLine}` : `${file}:${line}`;
}
