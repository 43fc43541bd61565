/**
 * Unicode tricks for injection-check (docs/validators.md).
 *
 * Invisible and bidirectional controls are looked for in the text as decoded,
 * before anything is stripped: once normalised they would be gone, and hiding
 * text from the human reader is exactly what they are for. Matching of the
 * phrase categories then runs on a copy with those characters removed and
 * NFKC applied, so `ig\u200Bnore` or full-width `ｓｙｓｔｅｍ:` cannot slip past.
 */
import type { Finding } from './types';
import { lineAt } from './scan-text';

/**
 * Always flagged: zero-width and directional marks U+200B–U+200F, embeddings and
 * overrides U+202A–U+202E, isolates U+2066–U+2069, U+FEFF (a leading BOM was
 * already dropped by the decoder, so any left is mid-file), tag characters.
 */
const FLAGGED = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu;

/**
 * Removed before matching. The contract names the zero-width set
 * (U+200B–U+200D, U+2060, U+FEFF); the other flagged controls and the soft
 * hyphen are removed too, because left in place they could still split a
 * phrase such as "ignore all previous instructions" without being seen; so
 * are variation selectors (flagged on their own in injection-additions.ts).
 */
const STRIPPED =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: variation selectors are listed to be removed one by one, not to combine with a neighbour
  /[\u00AD\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** One finding per line that holds any flagged character, listing which ones. */
export function invisibleFindings(raw: string, starts: readonly number[]): Finding[] {
  // Most files hold none: no map until one is found.
  let perLine: Map<number, { count: number; tags: boolean; kinds: Set<string> }> | undefined;
  FLAGGED.lastIndex = 0;
  for (let m = FLAGGED.exec(raw); m !== null; m = FLAGGED.exec(raw)) {
    perLine ??= new Map();
    const line = lineAt(starts, m.index);
    const cp = m[0].codePointAt(0) ?? 0;
    const entry = perLine.get(line) ?? { count: 0, tags: false, kinds: new Set<string>() };
    entry.count++;
    if (cp >= 0xe0000) entry.tags = true;
    // A handful of distinct code points is enough to identify the trick.
    if (entry.kinds.size < 5) entry.kinds.add(hex(cp));
    perLine.set(line, entry);
  }
  if (perLine === undefined) return [];
  return [...perLine].map(([line, e]) => ({
    check: 'injection',
    code: 'injection.invisible-characters',
    label: 'FLAGGED',
    line,
    message:
      `invisible or bidirectional control characters${e.tags ? ' or Unicode tag characters' : ''}: ` +
      `${e.count} (${[...e.kinds].join(', ')})`,
  }));
}

/**
 * Every character FLAGGED, STRIPPED or the variation-selector pass (injection-additions.ts)
 * can match, as UTF-16 units: a file without one skips those passes (a unit test checks
 * every code point). Without the `u` flag the supplementary ranges are their lead surrogate.
 */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each unit is listed to be found alone, never to combine with a neighbour
export const HIDDEN_ANY = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF\uFE00-\uFE0F\uDB40]/;

/**
 * The text the phrase categories are matched against; line structure is unchanged.
 * `hidden` false says the caller found no HIDDEN_ANY character: nothing to strip.
 */
export function normaliseForMatching(raw: string, hidden = true): string {
  // Strip first so a removed character cannot block an NFKC composition around it.
  return (hidden ? raw.replace(STRIPPED, '') : raw).normalize('NFKC');
}
