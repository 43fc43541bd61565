/**
 * The trigger words (TRIGGER_WORDS, secrets-trigger.ts) as an automaton over UTF-16 units, for
 * speed only (docs/performance-validators.md, "Both scanners: fast paths"): the matches it
 * records (recordTriggers) are those `TRIGGER.exec(text)` finds from any `lastIndex` — the same
 * start, the same length — found with one table load per unit read (secret-words.ts), where the
 * regex tried its alternation at every position (the trigger pass reads every unit of every
 * file). TRIGGER_WORDS stays the rule: the words are read from it here, and a unit test holds
 * the two to the same matches.
 *
 * What the words may hold (anything else throws when the automaton is built): literal characters,
 * `\s`, a `?` after a character or `\s`, and `\b` at both ends of a word. The regex has the flag `i`
 * without `u`, so a letter matches the units that upper-case to the same unit (ECMAScript
 * Canonicalize; alternation.ts `canonical`), `\s` the units of JS_SPACES, and `\b` is a change
 * between [A-Za-z0-9_] and anything else.
 */
import { LazyAutomaton } from './lazy-automaton';

/** The units `\s` matches (WhiteSpace and LineTerminator); a unit test checks every unit against /\s/. */
export const JS_SPACES = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
  0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];

/**
 * Units the non-Unicode flag `i` makes equal to a word's letter besides the letter's upper- and
 * lower-case forms: U+1C82 (Cyrillic narrow o) upper-cases to О. Found by matching each letter of
 * the words against all 65,536 units; a unit test does that again, so a new word (or a new
 * Unicode version) that needs another entry fails it.
 */
const CASE_EXTRAS: Readonly<Record<string, readonly number[]>> = { о: [0x1c82] };

/** The units a literal character of a word matches under the non-Unicode flag `i`. */
export function caseClass(ch: string): number[] {
  const units = new Set<number>([ch.charCodeAt(0)]);
  for (const f of [ch.toUpperCase(), ch.toLowerCase()])
    if (f.length === 1 && canonical(f) === canonical(ch)) units.add(f.charCodeAt(0));
  for (const u of CASE_EXTRAS[ch] ?? []) units.add(u);
  return [...units].sort((x, y) => x - y);
}

/** A unit as the non-Unicode flag `i` compares it (ECMAScript Canonicalize; alternation.ts). */
function canonical(ch: string): string {
  const upper = ch.toUpperCase();
  if (upper.length !== 1) return ch;
  return ch.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128 ? ch : upper;
}

/** One way a word can match: its elements (each the units it accepts), the `\b` at its ends, its rank. */
interface Variant {
  elements: number[][];
  bounded: boolean;
  /** The regex's preference among matches at one start: the word's place in the list, then greedy `?` first. */
  rank: number;
  /** The word as this variant matches it (a space for `\s`): what triggerCondition reads. */
  literal: string;
}

const SPACE_OTHER = JS_SPACES.filter((u) => u !== 0x20);

/**
 * The variants of one TRIGGER_WORDS alternative: every choice of its `?` (present first, as the
 * regex backtracks), and `\s` as a space or one of the other spaces (apart, since a space is also a
 * literal of `mot de passe`, and a column is one class of units).
 */
export function variantsOf(word: string, index: number): Variant[] {
  let src = word;
  const bounded = src.startsWith('\\b') && src.endsWith('\\b');
  if (bounded) src = src.slice(2, -2);
  // Elements, each with the alternatives it may take ([] = left out); `\s` has two (space, others).
  const parts: Array<Array<{ units: number[]; ch: string } | null>> = [];
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    let options: Array<{ units: number[]; ch: string } | null>;
    if (ch === '\\') {
      if (src[i + 1] !== 's') throw new Error(`trigger automaton: "${word}" holds an escape other than \\s`);
      i++;
      options = [
        { units: [0x20], ch: ' ' },
        { units: SPACE_OTHER, ch: '\t' },
      ];
    } else if ('()[]{}.^$|*+?'.includes(ch)) {
      throw new Error(`trigger automaton: "${word}" holds the syntax character ${ch}`);
    } else options = [{ units: caseClass(ch), ch }];
    if (src[i + 1] === '?') {
      i++;
      options.push(null);
    }
    parts.push(options);
  }
  // Every combination, in the regex's order: the first part's options vary slowest.
  let combos: Array<Array<{ units: number[]; ch: string }>> = [[]];
  for (const options of parts) {
    const next: typeof combos = [];
    for (const c of combos) for (const o of options) next.push(o === null ? c : [...c, o]);
    combos = next;
  }
  return combos.map((c, k) => ({
    elements: c.map((o) => o.units),
    bounded,
    rank: index * 64 + k,
    literal: c.map((o) => o.ch).join(''),
  }));
}

export interface TriggerAutomaton {
  /** Per UTF-16 unit, its column (0: in no word); `units`: those in a column. */
  column: Uint8Array;
  units: readonly number[];
  /** Over the columns, the variants (their indices) as sequences. */
  automaton: LazyAutomaton;
  /** Per variant: its length, whether `\b` bounds it, its rank, its literal form. */
  length: Int32Array;
  bounded: Uint8Array;
  rank: Int32Array;
  literal: readonly string[];
  /** The longest variant: a match starts at most this many units before it ends. */
  maxLength: number;
}

/** The automaton of `words` (TRIGGER_WORDS split on `|`). */
export function triggerAutomaton(words: readonly string[]): TriggerAutomaton {
  const variants = words.flatMap((w, i) => variantsOf(w, i));
  // Columns: one per distinct class of units (the classes of different letters never share a
  // unit; the unit test checks it). The column table covers every unit, as unitClass does.
  const column = new Uint8Array(0x10000);
  const columnOf = new Map<string, number>();
  const inColumns: number[] = [];
  let columns = 1;
  const seqs = variants.map((v) =>
    v.elements.map((units) => {
      const key = units.join(',');
      let col = columnOf.get(key);
      if (col === undefined) {
        col = columns++;
        if (col > 255) throw new Error('trigger automaton: more than 255 columns');
        columnOf.set(key, col);
        for (const u of units) {
          if (column[u] !== 0) throw new Error(`trigger automaton: unit ${u} in two classes`);
          column[u] = col;
          inColumns.push(u);
        }
      }
      return col;
    }),
  );
  return {
    column,
    units: inColumns,
    automaton: new LazyAutomaton(seqs, columns),
    length: Int32Array.from(variants, (v) => v.elements.length),
    bounded: Uint8Array.from(variants, (v) => (v.bounded ? 1 : 0)),
    rank: Int32Array.from(variants, (v) => v.rank),
    literal: variants.map((v) => v.literal),
    maxLength: Math.max(...variants.map((v) => v.elements.length)),
  };
}

/** `\w` without `u`: what `\b` tells apart. */
const isWordUnit = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/**
 * The trigger words' matches of a text, one per start, in increasing order of start: what
 * `TRIGGER.exec` finds from any `lastIndex` is the first of them starting at or after it (a regex
 * search from `lastIndex` sees no word starting before it, and at one start takes the alternative
 * it prefers). Filled by recordTriggers as the automaton reports words ending.
 */
export interface TriggerMatches {
  start: number[];
  end: number[];
  /** Per match, its variant (TriggerAutomaton's tables; triggerCondition's input is its literal). */
  variant: number[];
}

/**
 * Records the words of `a` ending at unit `i` of `text` (the automaton just entered `state`) in `m`:
 * a `\b`-bounded word only when the units around it are no word units (read from the whole text,
 * as the regex's look-behind reads it), and at a start already recorded only the variant the regex
 * prefers (lower rank). Matches end in increasing order and start at most maxLength before their
 * end, so one is put in place by stepping back over the few that start later.
 */
export function recordTriggers(a: TriggerAutomaton, text: string, i: number, state: number, m: TriggerMatches): void {
  const { length, bounded, rank } = a;
  for (const v of a.automaton.out[state]!) {
    const start = i + 1 - length[v]!;
    if (
      bounded[v] === 1 &&
      ((start > 0 && isWordUnit(text.charCodeAt(start - 1))) ||
        (i + 1 < text.length && isWordUnit(text.charCodeAt(i + 1))))
    )
      continue;
    let at = m.start.length;
    while (at > 0 && m.start[at - 1]! > start) at--;
    if (at > 0 && m.start[at - 1] === start) {
      if (rank[m.variant[at - 1]!]! > rank[v]!) {
        m.end[at - 1] = i + 1;
        m.variant[at - 1] = v;
      }
      continue;
    }
    m.start.splice(at, 0, start);
    m.end.splice(at, 0, i + 1);
    m.variant.splice(at, 0, v);
  }
}
