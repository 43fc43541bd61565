/**
 * Inline masks (docs/credentials.md "Nothing unmasked"): the credential
 * and personal VALUES in a body are replaced where they stand, and the rest of
 * each line (a table row, a command, a sentence) stays readable.
 *
 * A mask reads `⟦credential #2 · 9 chars⟧`: its class, its number in the text
 * (1-based, in text order) and its length, never any of its characters. The
 * number is how the memory page asks for one value back (lib/service/write/reveal.ts),
 * on an explicit click, from the file itself. See docs/credentials.md.
 */
import { secretCandidates } from './secrets';
import { urlPassword } from './known-values';
import { findingClass, type FindingClass, type OwnerIdentity } from './types';

export interface MaskSpan {
  start: number;
  end: number;
  code: string;
  class: FindingClass;
}

export { MASK_PATTERN } from './mask-pattern';

export function maskText(cls: FindingClass, n: number, length: number): string {
  return `⟦${cls} #${n} · ${length} chars⟧`;
}

/** A private key's finding sits on its BEGIN line; the key material runs to the END line (or the end of the text). */
function keyBlock(text: string, start: number): [number, number] {
  const endMarker = text.indexOf('-----END', start);
  if (endMarker === -1) return [start, text.length];
  const close = text.indexOf('-----', endMarker + 8);
  return [start, close === -1 ? text.length : close + 5];
}

/** The spans to mask in `text`, in order, disjoint. */
export function maskSpans(text: string, owner: OwnerIdentity): MaskSpan[] {
  const spans: MaskSpan[] = [];
  let lastEnd = 0;
  for (const c of secretCandidates(text, owner)) {
    let [start, end] = [c.start, c.end];
    if (c.code === 'secret.url-credentials') [start, end] = urlPassword(text, start, end);
    if (c.code === 'secret.private-key') [start, end] = keyBlock(text, start);
    if (start < lastEnd) start = lastEnd;
    if (end <= start) continue;
    spans.push({ start, end, code: c.code, class: findingClass(c.code) });
    lastEnd = end;
  }
  return spans;
}

function chars(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** `text` with every secret value replaced by its mask; `masked` counts them. */
export function maskValues(text: string, owner: OwnerIdentity): { text: string; masked: number } {
  const spans = maskSpans(text, owner);
  if (spans.length === 0) return { text, masked: 0 };
  const parts: string[] = [];
  let pos = 0;
  spans.forEach((s, i) => {
    const value = text.slice(s.start, s.end);
    // A multi-line value (a key block) keeps its line count, so line numbers below it still match the findings.
    const breaks = value.split('\n').length - 1;
    parts.push(text.slice(pos, s.start), maskText(s.class, i + 1, chars(value)), '\n'.repeat(breaks));
    pos = s.end;
  });
  parts.push(text.slice(pos));
  return { text: parts.join(''), masked: spans.length };
}

/** The value behind mask number `n` (1-based) of `text`, or null. Only the reveal action calls this. */
export function unmaskedValue(text: string, owner: OwnerIdentity, n: number): string | null {
  const s = maskSpans(text, owner)[n - 1];
  return s ? text.slice(s.start, s.end) : null;
}
