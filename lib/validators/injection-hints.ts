/**
 * The hint words of injection-check's phrases, found in one pass over the lower-cased text
 * (docs/performance-validators.md, "Third round"). Both phrase lists (injection-patterns.ts
 * and injection-additions.ts) skip a phrase whose hint words are absent; they used to scan
 * the text once each, and the two scans were about a third of the check on the credentials
 * corpus. One alternation of all their words, grouped by first character, stepped on by
 * one position after each match, finds every place any of them starts: each match is the
 * longest word starting there, and every other word starting there is a prefix of it.
 */
import { groupedAlternation } from './alternation';
import { ADDED_HINT_WORDS, ADDED_WORD_BITS } from './injection-additions';
import { PHRASE_HINT_WORDS, PHRASE_WORD_BIT } from './injection-patterns';

/**
 * The one- and two-character words that start with a character no longer word starts with
 * (`<`, `&`, `{`, `<|`) are looked up with `includes`: left in the alternation they make the
 * engine try it at positions it would otherwise pass over. `rm` starts where `remove` and
 * `restore` do, so it costs the scan nothing, while a search for it stops at every `r`.
 */
const SHORT = 3;
const WORDS = [...new Set([...PHRASE_HINT_WORDS, ...ADDED_HINT_WORDS])];
const startsLongWord = (c: string) => WORDS.some((w) => w.length >= SHORT && w[0] === c);
const inScan = (w: string) => w.length >= SHORT || startsLongWord(w[0]!);
const LONG = WORDS.filter(inScan).sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
const SHORT_PHRASE_WORDS = PHRASE_HINT_WORDS.filter((w) => !inScan(w));
const RUN = new RegExp(
  groupedAlternation(
    LONG.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    false,
  ),
  'g',
);
const PHRASE = new Set(PHRASE_HINT_WORDS);
const ADDED = new Set(ADDED_HINT_WORDS);
/**
 * For each word the scan can return, the words starting where it starts (its prefixes): the
 * phrase words among them, and the longest added word among them, if any. One map, so a
 * match costs one lookup.
 */
/** The longest added word starting where `w` does, with its bits and length, or null. */
function addedAt(w: string): { lo: number; hi: number; length: number } | null {
  const added = LONG.find((v) => w.startsWith(v) && ADDED.has(v));
  if (added === undefined) return null;
  const bits = ADDED_WORD_BITS.get(added)!;
  return { lo: bits.lo, hi: bits.hi, length: added.length };
}
const AT = new Map(
  LONG.map((w) => [
    w,
    {
      phraseBits: LONG.filter((v) => w.startsWith(v) && PHRASE.has(v)).reduce((m, v) => m | PHRASE_WORD_BIT.get(v)!, 0),
      added: addedAt(w),
    },
  ]),
);

export interface HintWords {
  /** Phrase hint words in the text, as bits (PHRASE_WORD_BIT): what `lower.includes(w)` says for each. */
  phraseBits: number;
  /**
   * Added hint words in the text and in the body, as bits (ADDED_WORD_BITS), as a scan of the
   * added words alone finds them: leftmost, longest, not overlapping. The body's are the
   * text's when `bodyStart` is null.
   */
  allLo: number;
  allHi: number;
  bodyLo: number;
  bodyHi: number;
}

/**
 * `lower` is the lower-cased text; `bodyStart` where the body starts in it, or null to
 * count the whole text as body. A hint word holds no line break and the body starts at a
 * line, so no word straddles `bodyStart`.
 */
export function hintWordsOf(lower: string, bodyStart: number | null): HintWords {
  let phraseBits = 0;
  let allLo = 0;
  let allHi = 0;
  let bodyLo = 0;
  let bodyHi = 0;
  // Where the next added word may start: the added words' own scan steps over each match.
  let addedFrom = 0;
  RUN.lastIndex = 0;
  for (let m = RUN.exec(lower); m !== null; m = RUN.exec(lower)) {
    const at = AT.get(m[0]); // every match is one of LONG
    if (at !== undefined) {
      phraseBits |= at.phraseBits;
      const added = at.added;
      if (added !== null && m.index >= addedFrom) {
        allLo |= added.lo;
        allHi |= added.hi;
        if (bodyStart === null || m.index >= bodyStart) {
          bodyLo |= added.lo;
          bodyHi |= added.hi;
        }
        addedFrom = m.index + added.length;
      }
    }
    RUN.lastIndex = m.index + 1; // step on by one: a word may start inside this one
  }
  for (const w of SHORT_PHRASE_WORDS) {
    if (lower.includes(w)) phraseBits |= PHRASE_WORD_BIT.get(w)!;
  }
  return { phraseBits, allLo, allHi, bodyLo, bodyHi };
}

/** For the tests: the added hint words hintWordsOf found, in the whole text and in the body, as sets. */
export function addedWordsOf(lower: string, bodyStart: number | null): { all: Set<string>; inBody: Set<string> } {
  const h = hintWordsOf(lower, bodyStart);
  const has = (lo: number, hi: number) => (w: string) => {
    const b = ADDED_WORD_BITS.get(w)!;
    return (lo & b.lo) !== 0 || (hi & b.hi) !== 0;
  };
  return {
    all: new Set(ADDED_HINT_WORDS.filter(has(h.allLo, h.allHi))),
    inBody: new Set(ADDED_HINT_WORDS.filter(has(h.bodyLo, h.bodyHi))),
  };
}

/** The phrase hint words that occur in `lower`: what `lower.includes(w)` says for each. */
export function hintWordsIn(lower: string): Set<string> {
  const bits = hintWordsOf(lower, null).phraseBits;
  return new Set(PHRASE_HINT_WORDS.filter((w) => (bits & PHRASE_WORD_BIT.get(w)!) !== 0));
}
