/** The lazily made automaton (lazy-automaton.ts) against looking for each sequence at every position. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LazyAutomaton } from './lazy-automaton';

/** Every start:index of a sequence of `seqs` in `text` (columns), by the automaton. */
function occurrences(seqs: number[][], text: number[]): string[] {
  const a = new LazyAutomaton(seqs, 6);
  const found: string[] = [];
  let s = 0;
  text.forEach((col, i) => {
    s = a.next(s, col);
    for (const k of a.out[s]!) found.push(`${i + 1 - seqs[k]!.length}:${k}`);
  });
  return found.sort();
}

/** The same by comparing at every position. */
function naive(seqs: number[][], text: number[]): string[] {
  const found: string[] = [];
  seqs.forEach((w, k) => {
    for (let at = 0; at + w.length <= text.length; at++)
      if (w.every((c, j) => text[at + j] === c)) found.push(`${at}:${k}`);
  });
  return found.sort();
}

describe('lazy automaton', () => {
  // Columns 1–5 (0: in no sequence), short sequences, so they share prefixes and suffixes and overlap.
  const seq = fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 });
  const seqs = fc.uniqueArray(seq, { minLength: 1, maxLength: 10, selector: (s) => s.join(',') });
  const text = fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 60 });

  it('reports every occurrence of every sequence, overlapping ones included', () => {
    fc.assert(
      fc.property(seqs, text, (ss, t) => {
        expect(occurrences(ss, t)).toEqual(naive(ss, t));
      }),
      { seed: 33, numRuns: 5000 },
    );
  });

  it('reports a sequence ending inside another (its fall-back) and a repeated one', () => {
    expect(occurrences([[1, 2, 3], [2, 3], [3]], [1, 2, 3])).toEqual(['0:0', '1:1', '2:2']);
    expect(occurrences([[1, 1]], [1, 1, 1])).toEqual(['0:0', '1:0']);
  });
});
