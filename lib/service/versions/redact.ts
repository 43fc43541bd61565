/**
 * A version copy never holds a credential value (CONTRACT §2.5; docs/versions.md,
 * "Credentials"): each credential-class span the secret check finds is replaced by a fixed
 * marker before the bytes are stored. Newlines inside a value (a key block) are kept, so
 * line numbers of a stored version match the file's. Personal data is kept as it was: only
 * credential values are replaced.
 */
import { maskSpans } from '../../validators/mask-inline';
import type { OwnerIdentity } from '../../validators/types';

/** What stands where a credential value was, in every stored version. */
export const REDACTED = '⟦credential removed by memtrust⟧';

/** The bytes to store, and how many values were replaced. Bytes without a credential come back as they are. */
export function redactForVersion(bytes: Buffer, owner: OwnerIdentity): { bytes: Buffer; replaced: number } {
  const text = bytes.toString('utf8');
  // Not valid UTF-8: the secret check reads the same decoded text, so the spans still apply to it.
  const spans = maskSpans(text, owner).filter((s) => s.class === 'credential');
  if (spans.length === 0) return { bytes, replaced: 0 };
  const parts: string[] = [];
  let pos = 0;
  for (const s of spans) {
    const breaks = text.slice(s.start, s.end).split('\n').length - 1;
    parts.push(text.slice(pos, s.start), REDACTED, '\n'.repeat(breaks));
    pos = s.end;
  }
  parts.push(text.slice(pos));
  return { bytes: Buffer.from(parts.join(''), 'utf8'), replaced: spans.length };
}
