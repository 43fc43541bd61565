import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type WordAutomaton, wordAutomaton } from './word-automaton';

/** Every [start, word index] the automaton reports, walking `text` as hint-words walks it. */
function occurrences(a: WordAutomaton, text: string): string[] {
  const found: string[] = [];
  let s = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    s = a.delta[(s >> 1) + (c < 256 ? a.column[c]! : 0)]!;
    if ((s & 1) === 0) continue;
    const row = s >> 1;
    for (let k = a.outFrom[row]!; k < a.outTo[row]!; k++) {
      const wi = a.outWords[k]!;
      found.push(`${i + 1 - a.words[wi]!.length}:${wi}`);
    }
  }
  return found.sort();
}

/** The same by looking for each word at every position. */
function naive(words: readonly string[], text: string): string[] {
  const found: string[] = [];
  words.forEach((w, wi) => {
    for (let at = text.indexOf(w); at !== -1; at = text.indexOf(w, at + 1)) found.push(`${at}:${wi}`);
  });
  return found.sort();
}

describe('word automaton', () => {
  // A small alphabet, so words share prefixes and suffixes and overlap in the text.
  const word = fc.stringMatching(/^[abc<|&]{1,6}$/);
  const words = fc.uniqueArray(word, { minLength: 1, maxLength: 12 });
  const text = fc.stringMatching(/^[abcABC<|& \n\u00e9\u4e00]{0,80}$/);
  // The words themselves, glued together and to noise, so most runs find some.
  const noise = fc.constantFrom('a', 'B', 'c', ' ', '\n', '\u00e9', '\u4e00', '<');
  const wordsAndText = words.chain((ws) =>
    fc.tuple(
      fc.constant(ws),
      fc.array(fc.oneof(fc.constantFrom(...ws), noise), { maxLength: 24 }).map((a) => a.join('')),
    ),
  );

  it('finds every occurrence of every word, overlapping ones included', () => {
    let seen = 0;
    fc.assert(
      fc.property(wordsAndText, ([ws, t]) => {
        const got = occurrences(wordAutomaton(ws, false), t);
        expect(got).toEqual(naive(ws, t));
        seen += got.length;
      }),
      { numRuns: 2000, seed: 20261128 },
    );
    expect(seen).toBeGreaterThan(5_000); // not vacuous
  });

  it('folding case reads upper-case ASCII letters as the lower-cased text would be read', () => {
    fc.assert(
      fc.property(wordsAndText, text, ([ws, t], more) => {
        const mixed = (t + more).replace(/[abc]/g, (c, at: number) => (at % 3 === 0 ? c.toUpperCase() : c));
        expect(occurrences(wordAutomaton(ws, true), mixed)).toEqual(naive(ws, mixed.toLowerCase()));
      }),
      { numRuns: 1000, seed: 20261129 },
    );
    // Only ASCII letters fold: the Kelvin sign lower-cases to k, but is in no word here.
    expect(occurrences(wordAutomaton(['k'], true), 'K\u212Ak')).toEqual(['0:0', '2:0']);
  });

  it('refuses words it cannot read correctly', () => {
    expect(() => wordAutomaton(['caf\u00e9'], false)).toThrow(/beyond ASCII/);
    expect(() => wordAutomaton(['System'], true)).toThrow(/upper-case/);
    expect(wordAutomaton(['System'], false).words).toEqual(['System']);
  });
});
