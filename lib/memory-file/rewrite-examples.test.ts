import { describe, expect, it } from 'vitest';
import { parseFrontmatter, rewriteFrontmatter, RewriteError, splitFile, type RewriteErrorCode } from './index';

const FILE = [
  '---',
  '# Written by hand; keep this comment.',
  'name: Prefer pnpm',
  'description: The user prefers pnpm over npm.  # inline note',
  'x-owner: {team: tooling}',
  'type: user',
  'trust-level: inferred',
  'created-at: 2026-05-01',
  '---',
  '',
  'Body text, untouched.',
  '',
].join('\n');

function rewrite(text: string, edits: Parameters<typeof rewriteFrontmatter>[1]): string {
  return rewriteFrontmatter(Buffer.from(text, 'utf8'), edits).toString('utf8');
}

function diffLines(a: string, b: string): number[] {
  const x = a.split('\n');
  const y = b.split('\n');
  expect(y.length).toBe(x.length);
  return x.flatMap((line, i) => (line === y[i] ? [] : [i]));
}

function codeOf(fn: () => unknown): RewriteErrorCode | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof RewriteError) return error.code;
    throw error;
  }
  return undefined;
}

describe('rewriteFrontmatter examples', () => {
  it('changes only the edited line; comments and unknown keys stay as written', () => {
    const out = rewrite(FILE, { set: { 'trust-level': 'verified' } });
    expect(diffLines(FILE, out)).toEqual([6]);
    expect(out.split('\n')[6]).toBe('trust-level: verified');
  });

  it('keeps an inline comment and the spacing around a replaced value', () => {
    const out = rewrite(FILE, { set: { description: 'Uses pnpm.' } });
    expect(diffLines(FILE, out)).toEqual([3]);
    expect(out.split('\n')[3]).toBe('description: Uses pnpm.  # inline note');
  });

  it('appends a new key as the last line of the block', () => {
    const out = rewrite(FILE, { set: { 'last-verified': '2026-05-08' } });
    expect(out).toBe(FILE.replace('created-at: 2026-05-01\n', 'created-at: 2026-05-01\nlast-verified: 2026-05-08\n'));
  });

  it('uses the indentation of the mapping and the EOL of the opening line', () => {
    const text = '\ufeff---\r\n  name: x\r\n  type: user\r\n---\r\nbody\n';
    expect(rewrite(text, { set: { 'trust-level': 'verified' } })).toBe(
      '\ufeff---\r\n  name: x\r\n  type: user\r\n  trust-level: verified\r\n---\r\nbody\n',
    );
  });

  it('removes keys with all their lines, multi-line values included', () => {
    const text =
      '---\nname: x\nquarantine-reason: |\n  line one\n  line two\n# about type\ntype: user\nquarantined-at: 2026-05-01T00:00:00Z\n---\nbody';
    const out = rewrite(text, { remove: ['quarantine-reason', 'quarantined-at'], set: { 'trust-level': 'verified' } });
    expect(out).toBe('---\nname: x\n# about type\ntype: user\ntrust-level: verified\n---\nbody');
  });

  it('collapses a multi-line value onto its key line', () => {
    const text = '---\ndescription: >\n  folded\n  text\ntype: user\n---\nbody';
    expect(rewrite(text, { set: { description: 'one line' } })).toBe(
      '---\ndescription: one line\ntype: user\n---\nbody',
    );
  });

  it('fills an empty value after the colon, keeping a comment', () => {
    const text = '---\nname:   # fill me\ntype:\n---\nbody';
    expect(rewrite(text, { set: { name: 'x y', type: 'user' } })).toBe(
      '---\nname: x y   # fill me\ntype: user\n---\nbody',
    );
  });

  it.each([
    ['Prefer pnpm', 'Prefer pnpm'],
    ['2026-05-01T10:00:00Z', '2026-05-01T10:00:00Z'],
    ['123', '"123"'],
    ['true', '"true"'],
    ['null', '"null"'],
    ['', '""'],
    ['a: b', '"a: b"'],
    ['x #y', '"x #y"'],
    [' lead', '" lead"'],
    ['say "hi"\n', '"say \\"hi\\"\\n"'],
    ['- item', '"- item"'],
    ['é ü 😀', 'é ü 😀'],
  ])('writes %j as %s', (value, written) => {
    const out = rewrite('---\nname: old\n---\n', { set: { name: value } });
    expect(out).toBe(`---\nname: ${written}\n---\n`);
    const bytes = Buffer.from(out);
    const split = splitFile(bytes);
    if (!split.ok) throw new Error('split');
    expect(parseFrontmatter(bytes, split).data.name).toBe(value);
  });

  it('keeps invalid UTF-8, a BOM and CRLF in the body byte for byte', () => {
    const body = Buffer.from([0x0d, 0x0a, 0xff, 0xfe, 0x2d, 0x2d, 0x2d, 0x0a, 0xef, 0xbb, 0xbf, 0x00]);
    const before = Buffer.concat([Buffer.from('---\r\nname: x\r\n---\r\n'), body]);
    const after = rewriteFrontmatter(before, { set: { name: 'y' } });
    expect(after.subarray(after.length - body.length).equals(body)).toBe(true);
    expect(after.subarray(0, after.length - body.length).toString()).toBe('---\r\nname: y\r\n---\r\n');
  });

  it('returns the same bytes for edits that change nothing', () => {
    const before = Buffer.from(FILE);
    expect(rewriteFrontmatter(before, {}).equals(before)).toBe(true);
    expect(rewriteFrontmatter(before, { remove: ['quarantined-at'] }).equals(before)).toBe(true);
    expect(rewriteFrontmatter(before, { set: { type: 'user' } }).equals(before)).toBe(true);
  });
});

describe('rewriteFrontmatter refusals', () => {
  it.each<[string, string, Parameters<typeof rewriteFrontmatter>[1], RewriteErrorCode]>([
    ['no frontmatter', 'just text', { set: { name: 'x' } }, 'no-frontmatter'],
    ['unclosed block', '---\nname: x\n', { set: { name: 'y' } }, 'no-frontmatter'],
    ['YAML error', '---\nname: "x\n---\n', { set: { name: 'y' } }, 'invalid-frontmatter'],
    ['duplicate key', '---\nname: x\nname: y\n---\n', { set: { type: 'user' } }, 'invalid-frontmatter'],
    ['alias', '---\nname: &a x\ntype: *a\n---\n', { set: { name: 'y' } }, 'invalid-frontmatter'],
    ['known key as list', '---\nname: [x]\n---\n', { set: { type: 'user' } }, 'not-a-simple-scalar'],
    ['unknown key as list', '---\ntags: [x]\n---\n', { set: { tags: 'y' } }, 'not-a-simple-scalar'],
    ['flow mapping', '---\n{name: x}\n---\n', { set: { name: 'y' } }, 'unsupported-layout'],
    ['explicit key', '---\n? name\n: x\n---\n', { set: { name: 'y' } }, 'unsupported-layout'],
    ['key after document end', '---\nname: x\n...\n---\n', { set: { type: 'user' } }, 'verify-failed'],
    [
      '__proto__ key',
      '---\nname: x\n---\n',
      { set: JSON.parse('{"__proto__": "x"}') as Record<string, string> },
      'invalid-edit',
    ],
    ['key needing quotes', '---\nname: x\n---\n', { set: { 'a b': 'x' } }, 'invalid-edit'],
    ['set and remove', '---\nname: x\n---\n', { set: { name: 'y' }, remove: ['name'] }, 'invalid-edit'],
  ])('%s', (_label, text, edits, code) => {
    expect(codeOf(() => rewriteFrontmatter(Buffer.from(text), edits))).toBe(code);
  });

  it('refuses frontmatter that is not UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from('---\nname: '), Buffer.from([0xc3]), Buffer.from('\n---\n')]);
    expect(codeOf(() => rewriteFrontmatter(bytes, { set: { type: 'user' } }))).toBe('invalid-frontmatter');
  });
});
