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
  nested: x.nested,
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

  it('agrees with the YAML path on one-level blocks such as `metadata:`', () => {
    // A top-level line is a pair, or a block key whose children are indented (mostly alike,
    // sometimes not, sometimes with a tab, a deeper line or nothing under it).
    // Few key names, so the block and the top level often share one (the top level must win);
    // mostly readable values, so many texts reach the comparison rather than a decline.
    const shared = fc.constantFrom('type', 'node_type', 'originSessionId', 'name', 'trust-level', 'x');
    const plainValue = fc.constantFrom('project', 'a b', '2026-05-01', '"q: x"', "'it''s'");
    const anyValue = fc.oneof(plainValue, plainValue, plainValue, plainValue, plainValue, value, quoted);
    const child = fc.tuple(fc.oneof(shared, shared, key), anyValue);
    // A block's children share one indent; now and then one child is off (deeper, shallower, a tab).
    const block = fc
      .tuple(
        fc.oneof(fc.constant('metadata'), fc.constant('metadata'), key),
        fc.constantFrom('  ', '  ', '    ', ' '),
        fc.array(child, { maxLength: 4 }),
        fc.option(fc.tuple(fc.nat(3), fc.constantFrom('   ', '\t', '      ', '')), { freq: 6 }),
      )
      .map(([k, indent, kids, off]) => [
        `${k}:`,
        ...kids.map(([ck, v], i) => `${off && off[0] === i ? off[1] : indent}${ck}: ${v}`),
      ]);
    const line = fc.oneof(
      fc.tuple(fc.oneof(shared, key, key), anyValue).map(([k, v]) => [`${k}: ${v}`]),
      block,
    );
    let nestedAnswers = 0;
    let blockAnswers = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 5 }), eol, (blocks, nl) => {
        const text = blocks.flat().join(nl) + nl;
        const fast = parseSimpleFrontmatter(text);
        if (fast === null) return;
        if (fast.nested) nestedAnswers++;
        if (Object.values(fast.data).some((v) => v !== null && typeof v === 'object')) blockAnswers++;
        expect(plain(fast)).toEqual(plain(parseFrontmatterDoc(text).parsed));
      }),
      { numRuns: 10_000 },
    );
    // The property must have looked at many blocks the fast path read, not only at declines.
    expect(blockAnswers).toBeGreaterThan(300);
    expect(nestedAnswers).toBeGreaterThan(150);
  });

  it('reads the Claude Code `metadata:` block and answers for it', () => {
    const text =
      'name: Deploy notes\ndescription: How we deploy\nmetadata:\n  type: project\n  node_type: memory\n  originSessionId: 4fb0b47-session\n';
    const fast = parseSimpleFrontmatter(text);
    expect(fast).not.toBeNull();
    expect(fast?.data.type).toBe('project');
    expect(fast?.nested).toEqual(['type', 'node_type', 'originSessionId']);
    expect(fast?.keyLines.get('type')).toBe(5);
    expect(fast?.keys).toEqual(['name', 'description', 'metadata']);
    // The top level wins over the block, as in the YAML path.
    expect(parseSimpleFrontmatter('metadata:\n  type: project\ntype: user\n')?.data.type).toBe('user');
    for (const declined of [
      'metadata:\n  type: a\n    deeper: b',
      'metadata:\n  type: a\n   odd: b',
      'metadata:\n\ttype: a',
      'metadata:\n  type: a\n  type: b',
      'metadata:',
      'type:\n  a: b',
      'metadata:\n  - a',
    ]) {
      expect(parseSimpleFrontmatter(declined), declined).toBeNull();
    }
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
