/**
 * The token detectors' hints (secrets-patterns.ts, `hint`) as one automaton over UTF-16 units,
 * for speed only (docs/performance-validators.md, "Both scanners: fast paths"): which hints a text
 * holds, as `text.includes(hint)` or `hint.test(text)` says for each, in one table load per unit,
 * where one regex alternation of every hint tried its alternatives at every position.
 *
 * A hint regex is read as alternatives (split on `|`; no group, no `|` inside a class) whose head —
 * literal characters and small classes (`gh[pousr]_`, `[fF][cdCD]`) — is spelled out into words
 * for the automaton; the rest (`[A-Z0-9]{8}` after `/B`) is tested where a word ends, by a sticky
 * regex. Anything the reading does not know throws when the automaton is built.
 */
import { LazyAutomaton } from './lazy-automaton';

/** A head spelled out into at most this many words; a bigger class ends the head. */
const MAX_SPELLINGS = 16;

/** One spelling of a hint's head: the units it is, the rest tested after it (null: none), the hint's index. */
interface HintWord {
  units: number[];
  rest: RegExp | null;
  hint: number;
}

/** The units of a class's body (`pousr`, `0-9a-fA-F`), or null for anything but literals and ranges. */
function classUnits(body: string): number[] | null {
  const units: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (body[i] === '\\' || body[i] === '^' || body[i] === '[') return null;
    if (body[i + 1] === '-' && i + 2 < body.length) {
      for (let u = c; u <= body.charCodeAt(i + 2); u++) units.push(u);
      i += 2;
    } else units.push(c);
  }
  return units;
}

/** The words of one alternative of a hint regex's source (or a literal hint, `literal`). */
export function hintWordsOf(source: string, literal: boolean, hint: number): HintWord[] {
  if (literal) return [{ units: Array.from(source, (ch) => ch.charCodeAt(0)), rest: null, hint }];
  let spellings: number[][] = [[]];
  let i = 0;
  while (i < source.length) {
    let units: number[] | null;
    let next: number;
    const ch = source[i]!;
    if (ch === '[') {
      const close = source.indexOf(']', i);
      units = close === -1 ? null : classUnits(source.slice(i + 1, close));
      next = close + 1;
    } else if (ch === '\\') {
      // An escaped punctuation character stands for itself (`\/`); a class escape (`\d`) does not.
      const e = source[i + 1] ?? '';
      units = /^[^A-Za-z0-9]$/.test(e) ? [e.charCodeAt(0)] : null;
      next = i + 2;
    } else if ('(){}.^$|*+?'.includes(ch)) {
      units = null;
      next = i + 1;
    } else {
      units = [ch.charCodeAt(0)];
      next = i + 1;
    }
    const quantified = next < source.length && '{*+?'.includes(source[next]!);
    if (units === null || quantified || spellings.length * units.length > MAX_SPELLINGS) break;
    spellings = spellings.flatMap((s) => units!.map((u) => [...s, u]));
    i = next;
  }
  if (spellings[0]!.length === 0) throw new Error(`hint automaton: "${source}" starts with no literal or small class`);
  const rest = i < source.length ? new RegExp(source.slice(i), 'y') : null;
  return spellings.map((units) => ({ units, rest, hint }));
}

export interface HintAutomaton {
  /** Per UTF-16 unit, its column (0: in no word); `units`: those in a column. */
  column: Uint8Array;
  units: readonly number[];
  /** Over the columns, the words (their indices) as sequences. */
  automaton: LazyAutomaton;
  /** Per word: its rest (null: none) and the bit of its hint. */
  rest: ReadonlyArray<RegExp | null>;
  bit: Int32Array;
}

/** The automaton of `hints` (a detector's hint per index, or undefined for none): bit i stands for hints[i]. */
export function hintAutomaton(hints: ReadonlyArray<string | RegExp | undefined>): HintAutomaton {
  const words = hints.flatMap((h, i) => {
    if (h === undefined) return [];
    if (typeof h === 'string') return hintWordsOf(h, true, i);
    if (h.flags !== '' || /[()]|\[[^\]]*\|/.test(h.source))
      throw new Error(`hint automaton: ${h} has flags or a group`);
    return h.source.split('|').flatMap((alt) => hintWordsOf(alt, false, i));
  });
  const column = new Uint8Array(0x10000);
  const inColumns: number[] = [];
  let columns = 1;
  const seqs = words.map((w) =>
    w.units.map((u) => {
      if (column[u] === 0) {
        if (columns > 255) throw new Error('hint automaton: more than 255 columns');
        column[u] = columns++;
        inColumns.push(u);
      }
      return column[u]!;
    }),
  );
  return {
    column,
    units: inColumns,
    automaton: new LazyAutomaton(seqs, columns),
    rest: words.map((w) => w.rest),
    bit: Int32Array.from(words, (w) => 1 << w.hint),
  };
}

/** Bit i set when hints[i] (of hintAutomaton's list) occurs in `text`. */
export function hintsIn(a: HintAutomaton, text: string): number {
  let present = 0;
  let state = 0;
  for (let i = 0; i < text.length; i++) {
    state = a.automaton.next(state, a.column[text.charCodeAt(i)]!);
    if (a.automaton.out[state]!.length > 0) present = recordHints(a, text, i, state, present);
  }
  return present;
}

/**
 * `present` with the bits of the hints whose words end at unit `i` of `text` (the automaton just
 * entered `state`) and whose rest, if any, follows there.
 */
export function recordHints(a: HintAutomaton, text: string, i: number, state: number, present: number): number {
  const { rest, bit } = a;
  for (const w of a.automaton.out[state]!) {
    if ((present & bit[w]!) !== 0) continue;
    const r = rest[w]!;
    if (r !== null) {
      r.lastIndex = i + 1;
      if (!r.test(text)) continue;
    }
    present |= bit[w]!;
  }
  return present;
}
