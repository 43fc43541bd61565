/**
 * The hint automaton (hint-automaton.ts) read against what it stands for: each hint's
 * `includes` or `test`, on generated text (the detectors' own hints are in fast-paths.test.ts,
 * "hintsPresent").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hintAutomaton, hintsIn, hintWordsOf } from './hint-automaton';

const HINTS: Array<string | RegExp | undefined> = [
  'sk-',
  undefined,
  /gh[pousr]_|github_pat_/,
  /\/B[A-Z0-9]{3}|x[yz]{2}/,
  /[fF][cdCD][0-9a-f]{2}:/,
  'ab',
  /b[a-c]a/,
];
const expected = (text: string) =>
  HINTS.reduce<number>((mask, h, i) => {
    const holds = h === undefined ? false : typeof h === 'string' ? text.includes(h) : h.test(text);
    return holds ? mask | (1 << i) : mask;
  }, 0);

describe('hint automaton', () => {
  it('spells out a head of literals and small classes, and tests the rest where it ends', () => {
    expect(hintWordsOf('gh[pousr]_', false, 0).map((w) => String.fromCharCode(...w.units))).toEqual([
      'ghp_',
      'gho_',
      'ghu_',
      'ghs_',
      'ghr_',
    ]);
    const [slash] = hintWordsOf(String.raw`\/B[A-Z0-9]{8}`, false, 0);
    expect(String.fromCharCode(...slash!.units)).toBe('/B');
    expect(slash!.rest?.source).toBe('[A-Z0-9]{8}');
    expect(() => hintWordsOf(String.raw`\d+x`, false, 0)).toThrow();
  });

  it('says for each hint what includes/test says, on text dense in hints and their parts', () => {
    const a = hintAutomaton(HINTS);
    const piece = fc.constantFrom(
      'sk',
      '-',
      'gh',
      'p',
      'o',
      '_',
      'github_pat',
      '/B',
      'A1',
      'Z',
      'a',
      'x',
      'y',
      'z',
      'f',
      'F',
      'c',
      'D',
      '0f',
      ':',
      'b',
      'é',
      '\n',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (p) => {
        const text = p.join('');
        expect(hintsIn(a, text)).toBe(expected(text));
      }),
      { numRuns: 8000, seed: 33 },
    );
  });
});
