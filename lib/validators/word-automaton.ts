/**
 * A set of ASCII words as an Aho–Corasick automaton with every transition filled in
 * (docs/performance-validators.md, "injection-check: fast paths"): one table load per character finds every
 * occurrence of every word, overlapping ones included, with no regex call and no string
 * made per match. Pure; built once per word list.
 *
 * `foldCase` makes upper-case ASCII letters read as their lower-case forms, so the bytes of an
 * ASCII file are read as its lower-cased text would be.
 */
import { trieOf } from './trie';

export interface WordAutomaton {
  readonly words: readonly string[];
  /**
   * The transitions, one row of `columns` entries per state. An entry is the next state's row
   * start times two, plus one when a word ends in that state: a step is one load, one shift
   * and one add, and the test for a word ending is on the value already loaded.
   */
  readonly delta: Int32Array;
  /** A character's or a byte's column, for 0–255 (column 0: in no word; so is every character beyond). */
  readonly column: Uint8Array;
  /** Per row start, the range of `outWords` with the words ending in that state. */
  readonly outFrom: Int32Array;
  readonly outTo: Int32Array;
  readonly outWords: Int32Array;
}

export function wordAutomaton(words: readonly string[], foldCase: boolean): WordAutomaton {
  const column = new Uint8Array(256);
  let columns = 1;
  for (const w of words)
    for (let i = 0; i < w.length; i++) {
      const c = w.charCodeAt(i);
      // Beyond ASCII a character would need a map lookup per character of the text: not supported.
      if (c >= 128) throw new Error(`word automaton: "${w}" holds a character beyond ASCII`);
      if (foldCase && c >= 65 && c <= 90) throw new Error(`word automaton: "${w}" holds an upper-case letter`);
      if (column[c] === 0) column[c] = columns++;
    }
  if (foldCase) for (let c = 65; c <= 90; c++) column[c] = column[c + 32]!;

  // The trie: per state its children by column, and the words that end there.
  const { children, own } = trieOf(
    words.map((w) => Array.from({ length: w.length }, (_, i) => column[w.charCodeAt(i)]!)),
  );

  // Breadth first, so a state's fall-back (its longest proper suffix that is a state) is done first.
  const states = children.length;
  const next = new Int32Array(states * columns);
  const fallBack = new Int32Array(states);
  const out: number[][] = new Array(states);
  out[0] = [];
  const queue = [0];
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    for (let col = 1; col < columns; col++) {
      const child = children[s]!.get(col);
      const viaFallBack = s === 0 ? 0 : next[fallBack[s]! * columns + col]!;
      if (child === undefined) {
        next[s * columns + col] = viaFallBack;
        continue;
      }
      next[s * columns + col] = child;
      fallBack[child] = viaFallBack;
      out[child] = [...own[child]!, ...out[viaFallBack]!];
      queue.push(child);
    }
  }

  const delta = next.map((t) => t * columns * 2 + (out[t]!.length > 0 ? 1 : 0));
  const outFrom = new Int32Array(states * columns);
  const outTo = new Int32Array(states * columns);
  const outWords: number[] = [];
  out.forEach((o, s) => {
    if (o.length === 0) return;
    outFrom[s * columns] = outWords.length;
    outWords.push(...o);
    outTo[s * columns] = outWords.length;
  });
  return { words, delta, column, outFrom, outTo, outWords: Int32Array.from(outWords) };
}
