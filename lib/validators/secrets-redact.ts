/**
 * The redaction convention: text inside `<redacted>…</redacted>` is never a
 * finding (docs/credentials.md).
 *
 * Redacted spans are blanked (each character becomes a space, newlines stay)
 * instead of cut out, so every other offset and line number is unchanged and a
 * secret half inside a redaction cannot join with text outside it. A span may
 * cover part of a line or several lines. An opening tag without a closing one
 * redacts nothing: an unfinished redaction must not hide the rest of the file.
 */

const OPEN = '<redacted>';
const CLOSE = '</redacted>';
const OPEN_ANY_CASE = /<redacted>/i;

/** [start, end) ranges of redacted text, tags included, in order. */
export function redactedRanges(text: string): Array<[number, number]> {
  // No tag without a `<`, nor without an opening tag in any case: most files stop here,
  // before the lower-cased copy. (Only ASCII letters fold under the non-Unicode `i` flag,
  // and no other character lower-cases to a letter of the tag without changing the length.)
  if (!text.includes('<') || !OPEN_ANY_CASE.test(text)) return [];
  // Tags are matched case-insensitively: `<REDACTED>` is the same convention.
  const lower = text.toLowerCase();
  // Lower-casing can change length for a few characters (e.g. U+0130); offsets
  // must match the original, so fall back to exact-case matching then.
  const haystack = lower.length === text.length ? lower : text;
  const ranges: Array<[number, number]> = [];
  let from = 0;
  for (;;) {
    const open = haystack.indexOf(OPEN, from);
    if (open === -1) break;
    const close = haystack.indexOf(CLOSE, open + OPEN.length);
    if (close === -1) break;
    const end = close + CLOSE.length;
    ranges.push([open, end]);
    from = end;
  }
  return ranges;
}

/** `text` with every redacted range replaced by spaces (newlines kept). */
export function blankRedacted(text: string): string {
  const ranges = redactedRanges(text);
  if (ranges.length === 0) return text;
  const parts: string[] = [];
  let pos = 0;
  for (const [start, end] of ranges) {
    parts.push(text.slice(pos, start), text.slice(start, end).replace(/[^\n]/g, ' '));
    pos = end;
  }
  parts.push(text.slice(pos));
  return parts.join('');
}

/** What a kept redaction shows instead of its text. */
export const REDACTED_SHOWN = '<redacted>…</redacted>';

/**
 * `text` as it may be shown: the inside of every redaction is hidden (CONTRACT §3 "Repair
 * and restore": a value kept inside `<redacted>` is never shown in clear afterwards). An
 * empty redaction (a removed value) stays as it is.
 */
export function hideRedacted(text: string): string {
  const ranges = redactedRanges(text);
  if (ranges.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [a, b] of ranges) {
    const empty = b - a === OPEN.length + CLOSE.length;
    out += text.slice(at, a) + (empty ? text.slice(a, b) : REDACTED_SHOWN);
    at = b;
  }
  return out + text.slice(at);
}
