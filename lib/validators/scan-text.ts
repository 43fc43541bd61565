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

/**
 * A file's text as both scanners read it: decoded once, with its line starts. Code that runs
 * the secret and the injection check on the same bytes (secret-and-injection.ts) decodes once and
 * hands both the same value; neither check changes it.
 */
export interface ScanText {
  readonly text: string;
  readonly starts: readonly number[];
}

export function scanTextOf(bytes: Buffer): ScanText {
  const text = decodeLossy(bytes);
  return { text, starts: lineStarts(text) };
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
 * position) skip the text that cannot hold a match
 * (docs/performance-validators.md, "Both scanners: fast paths").
 */
export function execNear(
  re: RegExp,
  text: string,
  from: number,
  anchor: string | RegExp,
  maxBefore: number,
  after?: RegExp,
): RegExpExecArray | null {
  let at: number;
  if (typeof anchor === 'string') {
    at = text.indexOf(anchor, from);
    // `after` (sticky): what every match holds right after its one occurrence of the anchor.
    // An occurrence without it holds no match, so the search starts near the first that has
    // it; a URL without a password is passed over at its `://`, not read by the regex to the
    // text's end (docs/performance-validators.md, "secret-check: fast paths").
    if (after !== undefined) {
      for (; at !== -1; at = text.indexOf(anchor, at + 1)) {
        after.lastIndex = at + anchor.length;
        if (after.test(text)) break;
      }
    }
  } else {
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
