/**
 * The trigger words' automaton (trigger-automaton.ts) held to the regex it stands for (TRIGGER,
 * secrets-trigger.ts): its classes of units against the regex engine for every unit, its matches
 * and the lines selected against the regex's on generated text (docs/performance-validators.md).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineStarts } from './scan-text';
import { buildCorpus } from './corpus/build';
import { secretWordsOf, secretWordsOnceWorthIt, UNITS_BEFORE_AUTOMATA } from './secret-words';
import { secretCheck } from './secrets';
import { nextTriggerOf, nextTriggerPlain, TRIGGER_WORDS, triggerFound, wantedLines } from './secrets-trigger';
import {
  caseClass,
  JS_SPACES,
  triggerAutomaton,
  type TriggerMatches,
  variantsOf,
  recordTriggers,
} from './trigger-automaton';

const RUNS = { seed: 33, numRuns: 6000 };
const ALL_UNITS = Array.from({ length: 0x10000 }, (_, u) => String.fromCharCode(u)).join('');
const unitsMatching = (re: RegExp) => [...ALL_UNITS.matchAll(re)].map((m) => m.index);
const literalSource = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\=-]/g, '\\$&');

describe('trigger automaton: the units each element matches', () => {
  it('a letter of a word matches the units the regex flag `i` (no `u`) matches, for all 65,536 units', () => {
    const chars = new Set(TRIGGER_WORDS.replace(/\\[bs]|[?|]/g, ''));
    expect(chars.size).toBeGreaterThan(60);
    for (const ch of chars) expect(caseClass(ch), ch).toEqual(unitsMatching(new RegExp(literalSource(ch), 'gi')));
  });

  it('JS_SPACES are the units `\\s` matches', () => {
    expect(JS_SPACES).toEqual(unitsMatching(/\s/g));
  });

  it('reads `?`, `\\s` and `\\b` as the regex does and refuses any other syntax', () => {
    expect(variantsOf(String.raw`log\s?-?in`, 0).map((v) => v.literal)).toEqual([
      'log -in',
      'log in',
      'log\t-in',
      'log\tin',
      'log-in',
      'login',
    ]);
    expect(variantsOf(String.raw`\bpins?\b`, 1).map((v) => [v.literal, v.bounded])).toEqual([
      ['pins', true],
      ['pin', true],
    ]);
    for (const bad of ['a.b', 'a+', '[ab]', String.raw`a\d`, 'a|b', '(a)']) expect(() => variantsOf(bad, 0)).toThrow();
  });
});

/** nextTrigger's form from the one read (secret-words.ts). */
const nextTrigger = (t: string, from: number) => nextTriggerOf(secretWordsOf(t))(t, from);

/** The matches of `next` (nextTrigger or nextTriggerPlain) in `t`, as start:end:condition, searched on from `step`. */
function matchesOf(next: (t: string, from: number) => number, t: string, step: 'end' | 'next'): string[] {
  const out: string[] = [];
  for (let from = 0, at = next(t, 0); at !== -1; at = next(t, from)) {
    out.push(`${at}:${triggerFound.end}:${triggerFound.condition}`);
    from = step === 'end' ? triggerFound.end : at + 1;
  }
  return out;
}

// Text made of the words (literal forms), their parts and what borders them: other words' starts
// inside a word (`accountoken`, `rootoken`, `mot de passe`), the `\b` neighbours, every space `\s`
// takes, units that fold onto a word's letter (U+1C82) or look as if they did (ſ, the Kelvin sign,
// İ), upper and lower case per character.
const forms = TRIGGER_WORDS.split('|').flatMap((w) => variantsOf(w, 0).map((v) => v.literal));
const parts = [
  ...forms,
  ...forms.map((f) => f.slice(0, Math.max(1, f.length - 1))),
  ...forms.map((f) => f.slice(1)),
  'accoun',
  'rootoken',
  'useroot',
  'mot de pa',
  'pins',
  'xpw',
  'pw_',
  'pin9',
  'парᲂль',
  'ſ',
  '\u212a',
  'İ',
  'x',
  '_',
  '0',
  '-',
  '=',
  '`',
  '/',
  '|',
  '#',
  'api',
  'a1'.repeat(16),
  '\n',
  '\r\n',
  ...JS_SPACES.map((u) => String.fromCharCode(u)),
];
const mixedCase = (s: string, bits: number) =>
  Array.from(s, (ch, i) => ((bits >> (i % 31)) & 1 ? ch.toUpperCase() : ch.toLowerCase())).join('');
const text = fc
  .array(fc.tuple(fc.constantFrom(...parts), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.boolean()), {
    maxLength: 16,
  })
  .map((p) => p.map(([w, bits, asIs]) => (asIs ? w : mixedCase(w, bits))).join(''));

describe('trigger automaton: the matches of TRIGGER', () => {
  it('finds what TRIGGER finds, match by match, searched on from each end or each start', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(matchesOf(nextTrigger, t, 'end')).toEqual(matchesOf(nextTriggerPlain, t, 'end'));
        expect(matchesOf(nextTrigger, t, 'next')).toEqual(matchesOf(nextTriggerPlain, t, 'next'));
      }),
      RUNS,
    );
  });

  it('selects the lines the regex selects (wantedLines without the words)', () => {
    fc.assert(
      fc.property(text, (t) => {
        const starts = lineStarts(t);
        expect(wantedLines(t, starts, secretWordsOf(t))).toEqual(wantedLines(t, starts));
      }),
      RUNS,
    );
  });

  it('the cases the rules turn on: `\\b`, greedy `?`, a space of `\\s`, a folded unit, a word inside a word', () => {
    const at = (t: string) => matchesOf(nextTrigger, t, 'end');
    for (const t of [
      'pins pin pinx xpw pw_ pw',
      'log\u3000in LOG-IN',
      'парᲂль',
      'mot de passe',
      'accountoken',
      'k\u212ay',
    ])
      expect(at(t), t).toEqual(matchesOf(nextTriggerPlain, t, 'end'));
    expect(at('pins pin pinx xpw pw')).toEqual(['0:4:0', '5:8:0', '18:20:0']);
    expect(at('accountoken')).toEqual(['0:7:1']);
  });

  it('the comparison has teeth: an automaton that ignores `\\b` finds what TRIGGER does not', () => {
    const startsIn = (a: ReturnType<typeof triggerAutomaton>, t: string) => {
      const m: TriggerMatches = { start: [], end: [], variant: [] };
      let state = 0;
      for (let i = 0; i < t.length; i++) {
        state = a.automaton.next(state, a.column[t.charCodeAt(i)]!);
        if (a.automaton.out[state]!.length > 0) recordTriggers(a, t, i, state, m);
      }
      return m.start;
    };
    const words = TRIGGER_WORDS.split('|');
    expect(startsIn(triggerAutomaton(words), 'xpw pw')).toEqual([4]);
    expect(startsIn(triggerAutomaton(words.map((w) => w.replace(/\\b/g, ''))), 'xpw pw')).toEqual([1, 4]);
    expect(nextTriggerPlain('xpw', 0)).toBe(-1);
  });
});

describe('secret check with and without the automata', () => {
  it('gives the same verdicts before the process builds them (regexes) and after', () => {
    const owner = { emails: ['nobody@example.invalid'], homeUser: 'nobody-at-all' };
    const files = [
      ...buildCorpus({ set: 'tuning', positiveFiles: 150, cleanFiles: 150 }),
      ...buildCorpus({ set: 'holdout', positiveFiles: 60, cleanFiles: 60 }),
    ].map((f) => Buffer.from(f.text));
    let units = 0;
    for (const b of files) units += b.length;
    expect(units).toBeLessThan(UNITS_BEFORE_AUTOMATA / 2);
    const before = files.map((b) => JSON.stringify(secretCheck(b, owner)));
    // Past the threshold: from here on the check reads its texts by the automata.
    const filler = 'x'.repeat(1 << 20);
    while (secretWordsOnceWorthIt(filler) === undefined);
    const after = files.map((b) => JSON.stringify(secretCheck(b, owner)));
    expect(after).toEqual(before);
    expect(before.filter((v) => v.includes('SECRET-DETECTED')).length).toBeGreaterThan(100);
  });
});
