/**
 * The hint words of injection-check's phrases, found in one pass over the lower-cased text
 * (docs/performance-validators.md, "injection-check: fast paths"). Both phrase lists
 * (injection-patterns.ts and injection-additions.ts) skip a phrase whose hint words are
 * absent; they used to scan the text once each, and the two scans were about a third of the
 * check on the credentials corpus. All their words are one automaton (word-automaton.ts):
 * one table step per character finds every occurrence of every word, overlapping ones
 * included, where the alternation it replaces made a regex call and a string per match.
 *
 * Building the automaton takes a few milliseconds, most of what a cold process spends on one
 * short memory (the guard: docs/performance.md, "The hooks"). So a process looks for the words
 * with indexOf until it has read SEARCH_BUDGET characters, and builds the automaton then:
 * both find every occurrence of every word (word-automaton.test.ts; hints.test.ts compares
 * the two ways), so the answer is the same either way.
 */
import { ADDED_HINT_WORDS, ADDED_WORD_BITS } from './injection-additions';
import { PHRASE_HINT_WORDS, PHRASE_WORD_BIT } from './injection-patterns';
import { type WordAutomaton, wordAutomaton } from './word-automaton';

const WORDS = [...new Set([...PHRASE_HINT_WORDS, ...ADDED_HINT_WORDS])];
const PHRASE = new Set(PHRASE_HINT_WORDS);
const ADDED = new Set(ADDED_HINT_WORDS);
/** Over the lower-cased text, or over an ASCII file's bytes: it folds ASCII case itself. Built on first need. */
let wordsAt: WordAutomaton | undefined;
/**
 * Characters looked through with indexOf before the automaton is built: a search is 5–15 times
 * slower per character than the automaton, whose building costs about as much as searching
 * this many characters.
 */
const SEARCH_BUDGET = 64 * 1024;
let searched = 0;
const WORD_LENGTH = Int32Array.from(WORDS, (w) => w.length);
const WORD_PHRASE_BIT = Int32Array.from(WORDS, (w) => (PHRASE.has(w) ? PHRASE_WORD_BIT.get(w)! : 0));
const WORD_ADDED = Uint8Array.from(WORDS, (w) => (ADDED.has(w) ? 1 : 0));
const WORD_ADDED_LO = Int32Array.from(WORDS, (w) => ADDED_WORD_BITS.get(w)?.lo ?? 0);
const WORD_ADDED_HI = Int32Array.from(WORDS, (w) => ADDED_WORD_BITS.get(w)?.hi ?? 0);

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
 * line, so no word straddles `bodyStart`. `asciiBytes`: the file's bytes when they are all
 * ASCII; the words are then found in them (the automaton folds case as toLowerCase does on
 * ASCII), which reads faster than the string's characters.
 */
export function hintWordsOf(lower: string, bodyStart: number | null, asciiBytes?: Uint8Array): HintWords {
  const search = wordsAt === undefined && searched + lower.length <= SEARCH_BUDGET;
  if (search) searched += lower.length;
  return hintWordsBy(search, lower, bodyStart, asciiBytes);
}

/** hintWordsOf by one way or the other: `search` looks for each word with indexOf, else the automaton. */
export function hintWordsBy(
  search: boolean,
  lower: string,
  bodyStart: number | null,
  asciiBytes?: Uint8Array,
): HintWords {
  const found: Found = { phraseBits: 0, added: null };
  if (search) searchWords(lower, found);
  else automatonWords(lower, asciiBytes, found);
  const { phraseBits, added } = found;
  if (added === null) return { phraseBits, allLo: 0, allHi: 0, bodyLo: 0, bodyHi: 0 };
  const a = addedBits(added, bodyStart);
  return { phraseBits, allLo: a.allLo, allHi: a.allHi, bodyLo: a.bodyLo, bodyHi: a.bodyHi };
}

/**
 * Every occurrence of every word, overlapping ones included, by indexOf on the lower-cased
 * text (an ASCII file's bytes read as that text: the automaton's case fold is toLowerCase's).
 */
function searchWords(lower: string, found: Found): void {
  for (let wi = 0; wi < WORDS.length; wi++) {
    const w = WORDS[wi]!;
    let at = lower.indexOf(w);
    if (at === -1) continue;
    found.phraseBits |= WORD_PHRASE_BIT[wi]!;
    if (WORD_ADDED[wi] !== 1) continue;
    if (found.added === null) found.added = [];
    for (; at !== -1; at = lower.indexOf(w, at + 1)) found.added.push(at, wi);
  }
}

function automatonWords(lower: string, asciiBytes: Uint8Array | undefined, found: Found): void {
  wordsAt ??= wordAutomaton(WORDS, true);
  const at = wordsAt;
  const { delta, column } = at;
  let s = 0;
  // One loop per input: a test of the input's kind on every character costs a fifth more.
  if (asciiBytes !== undefined) {
    const n = asciiBytes.length;
    for (let i = 0; i < n; i++) {
      s = delta[(s >> 1) + column[asciiBytes[i]!]!]!;
      if ((s & 1) !== 0) wordsEndAt(at, s >> 1, i + 1, found);
    }
  } else {
    const n = lower.length;
    for (let i = 0; i < n; i++) {
      const c = lower.charCodeAt(i);
      s = delta[(s >> 1) + (c < 128 ? column[c]! : 0)]!;
      if ((s & 1) !== 0) wordsEndAt(at, s >> 1, i + 1, found);
    }
  }
}

/** What the scan has found so far: the phrase words' bits, the added words as [start, word] pairs. */
interface Found {
  phraseBits: number;
  added: number[] | null;
}

/** Records the words of the state at `row`, which end at `end` (most texts hold a few added ones). */
function wordsEndAt(at: WordAutomaton, row: number, end: number, found: Found): void {
  const { outFrom, outTo, outWords } = at;
  for (let k = outFrom[row]!, to = outTo[row]!; k < to; k++) {
    const wi = outWords[k]!;
    found.phraseBits |= WORD_PHRASE_BIT[wi]!;
    if (WORD_ADDED[wi] === 1) {
      if (found.added === null) found.added = [];
      found.added.push(end - WORD_LENGTH[wi]!, wi);
    }
  }
}

/**
 * The added words as a scan of them alone finds them: the leftmost first, the longest of
 * those starting there, the next at or after its end. `found` holds [start, word] pairs.
 */
function addedBits(found: number[], bodyStart: number | null): Omit<HintWords, 'phraseBits'> {
  const pairs: Array<[number, number]> = [];
  for (let k = 0; k < found.length; k += 2) pairs.push([found[k]!, found[k + 1]!]);
  pairs.sort((a, b) => a[0] - b[0] || WORD_LENGTH[b[1]]! - WORD_LENGTH[a[1]]!);
  let allLo = 0;
  let allHi = 0;
  let bodyLo = 0;
  let bodyHi = 0;
  let from = 0;
  for (const [start, wi] of pairs) {
    if (start < from) continue;
    allLo |= WORD_ADDED_LO[wi]!;
    allHi |= WORD_ADDED_HI[wi]!;
    if (bodyStart === null || start >= bodyStart) {
      bodyLo |= WORD_ADDED_LO[wi]!;
      bodyHi |= WORD_ADDED_HI[wi]!;
    }
    from = start + WORD_LENGTH[wi]!;
  }
  return { allLo, allHi, bodyLo, bodyHi };
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
