/**
 * Text helpers shared by the secret and injection scanners (pure, no I/O).
 *
 * Both scanners match over the whole decoded file at once, so a finding knows
 * only its character offset; `lineAt` turns that into the 1-based line the
 * contract asks for. Lines are split on LF only, like `memory-file/split.ts`,
 * so a CR before LF (CRLF files) never shifts a line number.
 */

import { indexLines, lineOf } from '../memory-file/lines';

// Lossy on purpose: a file with broken UTF-8 must still be scanned, not rejected.
// The default (ignoreBOM: false) drops one leading BOM, which is not content.
const decoder = new TextDecoder('utf-8');

export function decodeLossy(bytes: Buffer): string {
  return decoder.decode(bytes);
}

/** Offsets where each line starts; index 0 is line 1 (the one line index of memory-file/lines.ts). */
export function lineStarts(text: string): number[] {
  return indexLines(text).starts;
}

/** 1-based line of `offset`, by binary search over `starts` from `lineStarts`. */
export function lineAt(starts: readonly number[], offset: number): number {
  return lineOf({ starts }, offset) + 1;
}

/**
 * `re.exec(text)` from `from`, as if the regex had tried every position, for a global
 * regex every match of which holds `anchor` (a literal, or a regex for a set of
 * literals) no more than `maxBefore` characters after the match start. No match can
 * then start earlier than `maxBefore` before the first occurrence of the anchor, so the
 * regex is started there: costly patterns (a lookbehind and a bounded run at every
 * position) skip the text that cannot hold a match. docs/performance-validators.md.
 */
export function execNear(
  re: RegExp,
  text: string,
  from: number,
  anchor: string | RegExp,
  maxBefore: number,
): RegExpExecArray | null {
  let at: number;
  if (typeof anchor === 'string') at = text.indexOf(anchor, from);
  else {
    anchor.lastIndex = from;
    at = anchor.exec(text)?.index ?? -1;
  }
  if (at === -1) return null;
  re.lastIndex = Math.max(from, at - maxBefore);
  return re.exec(text);
}

export function tooLargeMessage(size: number): string {
  return `file too large to scan (${size} bytes, limit 1 MiB): not known to be clean`;
}

/** A set of ASCII characters as a lookup table over char codes 0–127. */
export function asciiSet(chars: string): Uint8Array {
  const set = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) {
    const c = chars.charCodeAt(i);
    if (c >= 128) throw new Error(`asciiSet: not ASCII: ${chars[i]}`);
    set[c] = 1;
  }
  return set;
}

/**
 * Does `text` hold `min` consecutive characters of `set`, as the regex `[…]{min}` (the same
 * ASCII class) would say? It looks at the last position a run starting at `i` must cover
 * and jumps past it when that is not in the set, as encodedBlobStarts does, so ordinary
 * prose costs about one look per `min` characters. docs/performance-validators.md.
 */
export function hasRun(text: string, set: Uint8Array, min: number): boolean {
  const n = text.length;
  // Invariant: no run of `min` starts before `i`, and `i` is 0 or follows a character outside the set.
  let i = 0;
  while (i + min <= n) {
    const j = i + min - 1;
    let c = text.charCodeAt(j);
    if (c >= 128 || set[c] !== 1) {
      i = j + 1;
      continue;
    }
    let start = j;
    while (start > i) {
      c = text.charCodeAt(start - 1);
      if (c >= 128 || set[c] !== 1) break;
      start--;
    }
    let end = j + 1;
    while (end < n && end - start < min) {
      c = text.charCodeAt(end);
      if (c >= 128 || set[c] !== 1) break;
      end++;
    }
    if (end - start >= min) return true;
    i = end + 1;
  }
  return false;
}

/**
 * Is the UTF-16 unit `c` one `\s` matches (ECMAScript WhiteSpace and LineTerminator)? For
 * gates that look at one character before running a regex that starts with `\s`.
 */
export function isJsSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
