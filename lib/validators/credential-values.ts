/**
 * The credential values a text holds, as the secret check finds them (class `credential`;
 * personal data is not a credential): the one place that turns findings into values, for
 * value propagation (the salted hashes the index keeps; docs/credentials.md §8) and for the
 * purge of copies that held a removed credential (lib/service/batches/copy-purge.ts;
 * docs/batches.md). The values live in memory only, for the caller's comparison.
 */
import { findingValue, KNOWN_VALUE_CODE, normalValue, propagatable, valueScope } from './known-values';
import { secretCandidates } from './secrets';
import { findingClass, type OwnerIdentity } from './types';

export interface CredentialValue {
  /** The value in its normal form (normalValue), a URL's password only. */
  value: string;
  /** true: a detector found it here; false: an occurrence of a value known from elsewhere. */
  own: boolean;
  /** Whether it is propagated (valueScope `everywhere`: never a private key block or a bare key of hex or one case, never a short or plain word). */
  propagated: boolean;
}

/** Every credential value of `text`, each (value, own) once, in text order. */
export function credentialValues(text: string, owner: OwnerIdentity): CredentialValue[] {
  const out: CredentialValue[] = [];
  const seen = new Set<string>();
  const candidates = secretCandidates(text, owner);
  // This text's own values that stay in it (valueScope `text`): their repetitions here are no known value of elsewhere.
  const local = new Set<string>();
  for (const c of candidates) {
    const v = findingClass(c.code) === 'credential' ? valueScope(text, c) : null;
    if (v !== null && v.scope === 'text') local.add(v.value);
  }
  for (const c of candidates) {
    if (findingClass(c.code) !== 'credential') continue;
    const own = c.code !== KNOWN_VALUE_CODE;
    const raw = findingValue(text, c);
    const value = c.code === 'secret.private-key' ? raw : normalValue(raw);
    if (value === '') continue;
    const key = `${own ? 1 : 0}${value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // An occurrence of this text's own joined words (`change-me`) is masked here, never propagated.
    // A known value's occurrence is recorded as such; a value found here only if its finding propagates.
    out.push({
      value,
      own,
      propagated: own ? valueScope(text, c)?.scope === 'everywhere' : !local.has(value) && propagatable(value),
    });
  }
  return out;
}

/**
 * Whether every credential value of `copy` is still in the text its file holds today (`now`,
 * read only when the copy holds a value).
 */
export function valuesStillHeld(copy: string, now: () => string, owner: OwnerIdentity): boolean {
  const values = credentialValues(copy, owner);
  if (values.length === 0) return true;
  const text = now();
  return values.every((v) => text.includes(v.value));
}
