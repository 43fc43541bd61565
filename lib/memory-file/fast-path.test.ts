/**
 * The fast path must agree with the YAML path on everything it accepts, and must
 * decline (null) whatever it cannot read exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSimpleFrontmatter } from './fast-path';
import { parseFrontmatterDoc } from './frontmatter';

const plain = (x: ReturnType<typeof parseFrontmatterDoc>['parsed']) => ({
  data: { ...x.data },
  keys: x.keys,
  keyLines: [...x.keyLines],
  errors: x.errors,
});

const key = fc.oneof(
  fc.constantFrom(
    'name',
    'description',
    'type',
    'trust-level',
    'created-at',
    'last-verified',
    'source-machine',
    'quarantine-reason',
    'originSessionId',
    '__proto__',
    'constructor',
    'x_y',
    'modified',
  ),
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/),
);
const valueChar = fc.constantFrom(...'aZ09 .,:;#&*!|>\'"%@`{}[]?-_/\\()=+~\t\u00e9\u4e2d\u200b'.split(''));
const value = fc.oneof(
  fc.constantFrom(
    'verified',
    '2026-05-01',
    '2026-05-01T09:30:00Z',
    '123',
    '1.0',
    'true',
    'null',
    '~',
    'Null',
    'yes',
    'a: b',
    'a #b',
    'a#b',
    'x ',
    ' x',
    '-x',
    'x-',
    "it's",
    'say "hi"',
    '[a]',
    '{a}',
    '*a',
    '&a',
    '!t',
    '|',
    '>',
    'a:b',
    'http://x.y/z?q=1',
    '0x1F',
    '.inf',
    'x:',
  ),
  fc.array(valueChar, { minLength: 1, maxLength: 12 }).map((a) => a.join('')),
);
const quotedChar = fc.constantFrom(
  ...'aZ09 .,:;#&*!|>\'"%@`{}[]?-_/\\()=+~\t\u00e9\u4e2d\u200b\u0085\u2028\ufeff\u0001\u007f'.split(''),
);
// Quoted values, well- and ill-formed: doubled quotes, escapes, stray quotes, text after the closing quote.
const quoted = fc.oneof(
  fc.array(quotedChar, { maxLength: 10 }).map((a) => `"${a.join('')}"`),
  fc.array(quotedChar, { maxLength: 10 }).map((a) => `'${a.join('')}'`),
  fc
    .tuple(
      fc.constantFrom('"', "'"),
      fc.array(quotedChar, { maxLength: 8 }),
      fc.constantFrom('', ' ', ' # c', 'x', '"', "'"),
    )
    .map(([q, a, tail]) => `${q}${a.join('')}${q}${tail}`),
  fc.constantFrom('"null"', "''", '""', "'it''s'", '"a: b # c"', '"\\n"', '"x\\"y"', "'a''", '"a', "'''"),
);
const eol = fc.constantFrom('\n', '\r\n');

describe('frontmatter fast path', () => {
  it('agrees with the YAML path whenever it answers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.oneof(value, quoted)), { maxLength: 8 }),
        eol,
        fc.boolean(),
        (pairs, nl, finalNl) => {
          const text = pairs.map(([k, v]) => `${k}: ${v}`).join(nl) + (finalNl && pairs.length ? nl : '');
          const fast = parseSimpleFrontmatter(text);
          if (fast === null) return;
          expect(plain(fast)).toEqual(plain(parseFrontmatterDoc(text).parsed));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('answers for the ordinary memory and declines what it cannot read exactly', () => {
    const ordinary =
      'name: CI merge policy\ndescription: Never merge with failing checks.\ntype: feedback\ncreated-at: 2026-04-15T09:30:00Z\ntrust-level: verified\nlast-verified: 2026-05-01\n';
    expect(parseSimpleFrontmatter(ordinary)?.data.name).toBe('CI merge policy');
    // One-line quotes with nothing to unescape are read here (the demo's quoted quarantine reasons).
    expect(parseSimpleFrontmatter('quarantine-reason: "demoted: secret-check FAIL"')?.data['quarantine-reason']).toBe(
      'demoted: secret-check FAIL',
    );
    expect(parseSimpleFrontmatter("description: 'it''s here'")?.data.description).toBe("it's here");
    for (const text of [
      'name: "esc\\"aped"',
      'name: "quoted" # comment',
      "name: 'open",
      'name: a # comment',
      'tags:\n  - a',
      'name: x\nname: y',
      'name: null',
      '# comment\nname: x',
      'name:  two spaces',
      'a: &x 1',
    ]) {
      expect(parseSimpleFrontmatter(text), text).toBeNull();
    }
  });
});
