import { BOUNDED_MS } from '../core/bounded-time';
import { describe, expect, it } from 'vitest';
import { readMemory, parseFrontmatter, splitFile, type ParsedFrontmatter } from './index';

function parse(text: string | Buffer): ParsedFrontmatter {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const split = splitFile(bytes);
  if (!split.ok) throw new Error(`test file has no frontmatter: ${split.error}`);
  return parseFrontmatter(bytes, split);
}
const codes = (fm: ParsedFrontmatter) => fm.errors.map((e) => e.code);

describe('parseFrontmatter values', () => {
  it('returns known keys as strings: plain source text, quotes removed', () => {
    const fm = parse(
      "---\nname: 123\ndescription: \"quoted: # yes\"\ntype: 'it''s'\ncreated-at: 2026-05-01\ntrust-level: true\nsource-machine: 1.0\n---\nbody",
    );
    expect(fm.errors).toEqual([]);
    expect({ ...fm.data }).toEqual({
      name: '123',
      description: 'quoted: # yes',
      type: "it's",
      'created-at': '2026-05-01',
      'trust-level': 'true',
      'source-machine': '1.0',
    });
    expect(fm.keys).toEqual(['name', 'description', 'type', 'created-at', 'trust-level', 'source-machine']);
  });

  it('treats null and empty known values as absent, but keeps the key in order', () => {
    const fm = parse('---\nname:\ndescription: null\ntype: ~\nsource-machine: ""\n---\n');
    expect(fm.errors).toEqual([]);
    expect({ ...fm.data }).toEqual({ 'source-machine': '' });
    expect(fm.keys).toEqual(['name', 'description', 'type', 'source-machine']);
  });

  it('reads block and multi-line scalars as YAML does', () => {
    const fm = parse('---\ndescription: |\n  one\n  two\nname: >-\n  folded\n  text\ntype: plain\n  continued\n---\n');
    expect(fm.data.description).toBe('one\ntwo\n');
    expect(fm.data.name).toBe('folded text');
    expect(fm.data.type).toBe('plain continued');
  });

  it('keeps unknown keys with any value, as null-prototype data', () => {
    const fm = parse('---\ntags: [a, b]\nmeta:\n  x: 1\n  __proto__: {polluted: yes}\nflag: true\n---\n');
    expect(fm.errors).toEqual([]);
    expect(fm.data.tags).toEqual(['a', 'b']);
    const meta = fm.data.meta as Record<string, unknown>;
    expect(Object.getPrototypeOf(meta)).toBeNull();
    expect(meta.x).toBe('1');
    expect(Object.keys(meta)).toEqual(['x', '__proto__']);
    expect(fm.data.flag).toBe('true');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stores a top-level __proto__ key as plain data', () => {
    const fm = parse('---\n__proto__: evil\nname: ok\n---\n');
    expect(fm.errors).toEqual([]);
    expect(fm.keys).toEqual(['__proto__', 'name']);
    expect(Object.getPrototypeOf(fm.data)).toBeNull();
    expect(Object.keys(fm.data)).toContain('__proto__');
    expect(Object.getOwnPropertyDescriptor(fm.data, '__proto__')?.value).toBe('evil');
  });

  it('treats an empty or comment-only block as an empty mapping', () => {
    expect(parse('---\n---\nbody')).toMatchObject({ keys: [], errors: [] });
    expect(parse('---\n# nothing here\n---\nbody')).toMatchObject({ keys: [], errors: [] });
  });

  it('records the file line of each key', () => {
    const fm = parse('\ufeff---\r\n# c\r\nname: x\r\n\r\ntype: user\r\n---\r\n');
    expect(fm.keyLines.get('name')).toBe(3);
    expect(fm.keyLines.get('type')).toBe(5);
  });
});

describe('parseFrontmatter format errors', () => {
  it.each([
    ['duplicate key', '---\nname: a\ntype: user\nname: b\n---\n', 'duplicate-key', 4, 'duplicate key: name'],
    ['nested duplicate', '---\nmeta:\n  a: 1\n  a: 2\n---\n', 'duplicate-key', 4, 'duplicate key: a'],
    ['anchor', '---\nname: &n x\n---\n', 'yaml-anchor', 2, 'YAML anchors are not allowed'],
    ['alias', '---\nname: x\nother: *n\n---\n', 'yaml-alias', 3, 'YAML aliases are not allowed'],
    ['tag', '---\nname: !!str x\n---\n', 'yaml-tag', 2, 'YAML tags are not allowed'],
    [
      'custom tag on unknown key',
      '---\nname: x\nextra: !custom [1]\n---\n',
      'yaml-tag',
      3,
      'YAML tags are not allowed',
    ],
    ['non-scalar known key', '---\nname: x\ntype: {a: 1}\n---\n', 'non-scalar-value', 3, 'type must be a single value'],
    ['sequence at top level', '---\n- a\n---\n', 'not-a-mapping', 2, 'frontmatter is not a mapping'],
    ['scalar at top level', '---\njust text\n---\n', 'not-a-mapping', 2, 'frontmatter is not a mapping'],
    ['syntax error', '---\nname: x\ndescription: "open\n---\n', 'yaml-syntax', 3, 'YAML syntax error'],
    ['second document', '---\nname: x\n--- y\ntype: user\n---\n', 'yaml-syntax', 3, 'more than one YAML document'],
    ['complex key', '---\n? [a]\n: 1\n---\n', 'non-scalar-key', 2, 'frontmatter keys must be plain text'],
  ])('%s', (_label, text, code, line, message) => {
    const fm = parse(text);
    const error = fm.errors.find((e) => e.code === code);
    expect(error, JSON.stringify(fm.errors)).toBeDefined();
    expect(error?.line).toBe(line);
    expect(error?.message).toContain(message);
  });

  it('counts lines in the file, after a BOM and CRLF endings', () => {
    const fm = parse('\ufeff---\r\nname: a\r\ntype: user\r\nname: b\r\n---\r\nbody');
    expect(fm.errors).toEqual([expect.objectContaining({ code: 'duplicate-key', line: 4 })]);
  });

  it('does not echo key text that could be a secret', () => {
    const fm = parse(
      '---\nghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789: 1\nghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789: 2\n---\n',
    );
    expect(fm.errors[0]?.message).toBe('duplicate key: (a key of 40 characters)');
  });

  it('rejects frontmatter that is not UTF-8, naming the line', () => {
    const bytes = Buffer.concat([
      Buffer.from('---\nname: ok\ndescription: '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('\n---\nbody'),
    ]);
    const fm = parse(bytes);
    expect(fm.errors).toEqual([{ code: 'frontmatter-not-utf8', message: 'frontmatter is not valid UTF-8', line: 3 }]);
    expect(fm.keys).toEqual([]);
  });

  it('does not parse frontmatter above 256 KiB', () => {
    const fm = parse(`---\nname: x\nbig: ${'a'.repeat(256 * 1024)}\n---\n`);
    expect(codes(fm)).toEqual(['frontmatter-too-large']);
    expect(fm.errors[0]?.message).toMatch(/^frontmatter too large \(\d+ bytes, limit 256 KiB\)$/);
  });
});

describe('parseFrontmatter hostile input', () => {
  const deep: Array<[string, string]> = [
    ['10k nested [', `name: ${'['.repeat(10_000)}`],
    ['10k nested [ closed', `name: ${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['100k nested {', `a: ${'{a: '.repeat(60_000)}`],
    ['compact sequences', `${'- '.repeat(100_000)}x`],
    ['explicit keys', `${'? '.repeat(100_000)}x`],
    ['indentation staircase', Array.from({ length: 500 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')],
  ];
  it.each(deep)('%s is a format error, fast', (_label, body) => {
    const started = performance.now();
    const fm = parse(`---\n${body}\n---\nbody`);
    expect(performance.now() - started).toBeLessThan(BOUNDED_MS);
    expect(codes(fm)).toEqual(['nesting-too-deep']);
  });

  it('accepts nesting up to the limit', () => {
    const fm = parse(`---\nmeta: ${'['.repeat(40)}1${']'.repeat(40)}\n---\n`);
    expect(fm.errors).toEqual([]);
  });

  it('never expands an alias bomb', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const started = performance.now();
    const fm = parse(`---\n${levels.join('\n')}\n---\n`);
    expect(performance.now() - started).toBeLessThan(BOUNDED_MS);
    expect(codes(fm)).toContain('yaml-alias');
    expect(codes(fm)).toContain('yaml-anchor');
  });

  it.each([
    ['many keys (~220 KB)', Array.from({ length: 17_000 }, (_, i) => `k${i}: ${i}`).join('\n')],
    ['stray flow tokens', '{}'.repeat(100_000)],
    ['closing brackets', ']'.repeat(200_000)],
    ['many anchors', Array.from({ length: 10_000 }, (_, i) => `a${i}: &x${i} 1`).join('\n')],
  ])('%s: answers in bounded time', (_label, body) => {
    const started = performance.now();
    const fm = parse(`---\n${body}\n---\n`);
    // Real parsing of ~220 KB happens here (~0.4 s); the margin is for loaded CI machines.
    expect(performance.now() - started).toBeLessThan(BOUNDED_MS);
    expect(codes(fm)).not.toContain('frontmatter-too-large');
  });
});

describe('readMemory', () => {
  it('returns split, frontmatter and the body as the original bytes', () => {
    const bytes = Buffer.from('---\nname: x\n---\n\xff body', 'latin1');
    const read = readMemory(bytes);
    if (!read.ok) throw new Error('expected ok');
    expect(read.fm.data.name).toBe('x');
    expect(read.body.equals(Buffer.from('\xff body', 'latin1'))).toBe(true);
  });

  it('passes the split error through', () => {
    expect(readMemory(Buffer.from('no frontmatter'))).toEqual({ ok: false, error: 'missing-open' });
    expect(readMemory(Buffer.from('---\nname: x\n'))).toEqual({ ok: false, error: 'missing-close' });
  });
});
