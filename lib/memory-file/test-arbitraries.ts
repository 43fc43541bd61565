/**
 * fast-check generators for memory files, shared by the rewrite property tests.
 * Test-only: imported from *.test.ts files, never from product code.
 */
import fc from 'fast-check';
import { KNOWN_KEYS } from './known-keys';
import { doubleQuote } from './scalar-encode';

/** Strings that stress YAML quoting, mixed with fully arbitrary Unicode (lone surrogates included). */
export const trickyString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '  leading',
    'trailing ',
    'a: b',
    'a #b',
    '#x',
    '"',
    "'",
    '\\',
    'null',
    '~',
    '123',
    '1e3',
    'true',
    '- item',
    '[x]',
    '{y}',
    '&a',
    '*a',
    '!t',
    '|',
    '>',
    '%',
    '@',
    '`',
    'x:',
    '---',
    '...',
    'é — ü',
    '😀',
    'line\nbreak',
    'tab\tin',
    '\r\n',
    '\u2028',
    '\u0085',
    '\ufeff',
    '\u0000',
    'C:\\Users\\x',
    'https://x.y/z?a=b#c',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('a', ' ', ':', '#', '"', "'", '\\', '\n', '-', 'é'), maxLength: 12 }),
);

/** Ways a known key's existing value can be written, each exercising a different splice path. */
const layouts = (key: string) =>
  fc.oneof(
    fc.constantFrom(
      `${key}: plain value`,
      `${key}: 2026-05-01`,
      `${key}:`,
      `${key}: ~`,
      `${key}: 'it''s'`,
      `${key}: x  # trailing comment`,
      `${key}:   # only a comment`,
      `${key}: |\n  one\n  two`,
      `${key}: >-\n  folded\n  lines`,
      `${key}:\n  on the next line`,
      `${key}: plain\n  continued`,
      `${key}: "two\n  lines"`,
      `"${key}": quoted key`,
    ),
    trickyString.map((s) => `${key}: ${doubleQuote(s)}`),
  );

const extras = fc.constantFrom(
  '# a comment',
  '',
  'x-tags: [a, b]',
  'x-meta:\n  nested: true\n  list:\n    - 1',
  'Unknown Key: "kept"',
  'x-block: |\n  keep me\n\n  exactly',
);

export interface FmSpec {
  lines: string[];
  bom: boolean;
  eol: '\n' | '\r\n';
  /** Spaces and tabs after the delimiters (allowed by docs/memory-files.md). */
  delimPad: string;
}

export const frontmatterSpec: fc.Arbitrary<FmSpec> = fc.record({
  lines: fc
    .tuple(fc.subarray([...KNOWN_KEYS]), fc.uniqueArray(extras, { maxLength: 4 }))
    .chain(([keys, extra]) => fc.tuple(fc.tuple(...keys.map(layouts)), fc.constant(extra)))
    .chain(([known, extra]) => fc.shuffledSubarray([...known, ...extra], { minLength: known.length + extra.length })),
  bom: fc.boolean(),
  eol: fc.constantFrom('\n' as const, '\r\n' as const),
  delimPad: fc.constantFrom('', ' ', '\t ', '  '),
});

/** Bodies that must survive byte for byte: invalid UTF-8, `---` lines, CR/LF mixes, no final newline. */
export const body: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constant(Buffer.alloc(0)),
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc
    .array(fc.constantFrom('---', '--- ', 'text', '\r', '', 'name: fake', '\uFEFF', 'é'), { maxLength: 12 })
    .chain((parts) => fc.constantFrom('\n', '\r\n').map((eol) => Buffer.from(parts.join(eol), 'utf8'))),
  fc.string({ unit: 'binary', maxLength: 200 }).map((s) => Buffer.from(s, 'utf8')),
);

export function buildFile(spec: FmSpec, bodyBytes: Buffer): Buffer {
  const text = spec.lines.join('\n').replace(/\n/g, spec.eol);
  const fm = text === '' ? '' : text + spec.eol;
  const head = `---${spec.delimPad}${spec.eol}${fm}---${spec.delimPad}${spec.eol}`;
  return Buffer.concat([
    spec.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0),
    Buffer.from(head, 'utf8'),
    bodyBytes,
  ]);
}

/** Random set/remove edits over the known keys (a key is never both set and removed). */
export const edits = fc
  .tuple(
    fc.subarray([...KNOWN_KEYS]),
    fc.subarray([...KNOWN_KEYS]),
    fc.array(trickyString, { minLength: 10, maxLength: 10 }),
  )
  .map(([setKeys, removeKeys, values]) => {
    const set: Record<string, string> = {};
    for (const [i, k] of setKeys.entries()) set[k] = values[i] ?? '';
    return { set, remove: removeKeys.filter((k) => !setKeys.includes(k)) };
  });
