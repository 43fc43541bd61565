/**
 * Where the secret check's findings sit in a text (character spans), for the
 * repair dialog's redactions and for masking a line inline. secretCheck's own
 * candidates (secretCandidates: every detector, prose and known values included,
 * redactions blanked, overlaps resolved), so a span here is exactly a finding
 * there; the repair result is re-checked with secretCheck.
 */
import type { SecretCandidate } from '../../validators/secrets-patterns';
import { secretCandidates } from '../../validators/secrets';
import { lineAt, lineStarts } from '../../validators/scan-text';
import type { OwnerIdentity } from '../../validators/types';

export interface SecretSpan {
  c: SecretCandidate;
  /** `code|masked message|ordinal`: stable when lines shift, never the value itself. */
  key: string;
  line: number;
}

export function secretSpans(text: string, owner: OwnerIdentity): SecretSpan[] {
  const starts = lineStarts(text);
  const found = secretCandidates(text, owner, starts);
  const seen = new Map<string, number>();
  return found.map((c) => {
    const base = `${c.code}|${c.message}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return { c, key: `${base}|${n}`, line: lineAt(starts, c.start) };
  });
}

/** `text` with each flagged value replaced by its masked description, e.g. «private IPv4 address 10.x.x.x». */
export function maskSecrets(text: string, owner: OwnerIdentity): string {
  let out = text;
  for (const { c } of [...secretSpans(text, owner)].sort((a, b) => b.c.start - a.c.start)) {
    out = `${out.slice(0, c.start)}«${c.message}»${out.slice(c.end)}`;
  }
  return out;
}
