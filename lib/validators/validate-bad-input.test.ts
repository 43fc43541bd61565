/** Hostile and odd input: each returns a verdict quickly and never throws. */
import { BOUNDED_MS } from '../core/bounded-time';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatVerdictLine, validate, validateUnreadable } from './validate';
import { FILE_CAP_BYTES, type Verdict } from './types';

const GOOD_FM = [
  'name: Prefer pnpm',
  'description: The user prefers pnpm over npm.',
  'type: user',
  'source-machine: laptop',
  'created-at: 2026-05-01',
  'trust-level: verified',
  'last-verified: 2026-05-01',
];
const BODY = 'The user prefers pnpm for every JavaScript project.';

function file(fm: string[] = GOOD_FM, body = BODY, eol = '\n'): Buffer {
  return Buffer.from(['---', ...fm, '---', '', body, ''].join(eol), 'utf8');
}

function timed(bytes: Buffer, name = 'user_test.md'): { v: Verdict; line: string; ms: number } {
  const started = performance.now();
  const v = validate(bytes, name);
  return { v, line: formatVerdictLine(name, v), ms: performance.now() - started };
}

describe('validate on bad input', () => {
  it('a 50 MB buffer is too large, without being parsed', () => {
    const { v, line, ms } = timed(Buffer.alloc(50 * 1024 * 1024, 0x61));
    expect(ms).toBeLessThan(BOUNDED_MS);
    expect(v.exit).toBe(1);
    expect(line).toContain('file too large (52428800 bytes, limit 1 MiB)');
  });

  it('a file of exactly 1 MiB is still read', () => {
    const head = file();
    const bytes = Buffer.concat([head, Buffer.alloc(FILE_CAP_BYTES - head.length, 0x62)]);
    const { v, ms } = timed(bytes);
    expect(ms).toBeLessThan(BOUNDED_MS);
    expect(v.findings.map((f) => f.code)).toEqual(['body-too-long']);
  });

  it('NUL bytes in the first 8 KiB mean a binary file', () => {
    const bytes = Buffer.concat([file().subarray(0, 20), Buffer.from([0]), file().subarray(20)]);
    expect(timed(bytes).line).toContain('binary file');
    expect(timed(bytes).v.exit).toBe(1);
    expect(timed(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])).v.exit).toBe(1);
  });

  it('a NUL in the body after 8 KiB is not "binary"', () => {
    const bytes = file(GOOD_FM, `${'b'.repeat(9000)}\u0000`);
    expect(timed(bytes).line).not.toContain('binary file');
  });

  it('an empty file has no opening delimiter', () => {
    expect(timed(Buffer.alloc(0)).line).toContain('missing opening frontmatter delimiter');
  });

  it('accepts CRLF, a BOM, and both', () => {
    const crlf = file(GOOD_FM, BODY, '\r\n');
    expect(timed(crlf).v.exit).toBe(0);
    expect(timed(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), file()])).v.exit).toBe(0);
    expect(timed(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), crlf])).v.exit).toBe(0);
  });

  it('reports frontmatter that is not UTF-8 as a format error with its line', () => {
    const bytes = Buffer.from(file().toString('latin1').replace('Prefer pnpm', 'Pr\xe9f\xe9r pnpm'), 'latin1');
    const { v, line } = timed(bytes);
    expect(v.exit).toBe(2);
    expect(line).toContain('frontmatter is not valid UTF-8 (line 2)');
  });

  it('does not mind invalid UTF-8 in the body', () => {
    const bytes = Buffer.concat([file(), Buffer.from([0xff, 0xfe, 0xc3])]);
    expect(timed(bytes).v.exit).toBe(0);
  });

  it('never expands a YAML alias bomb', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const [prev, name] = [String.fromCharCode(96 + i), String.fromCharCode(97 + i)];
      lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    }
    const { v, line, ms } = timed(file([...GOOD_FM, ...lines]));
    expect(ms).toBeLessThan(BOUNDED_MS);
    expect(v.exit).toBe(2);
    expect(line).toContain('YAML aliases are not allowed');
  });

  it.each([
    ['10k nested [', `x: ${'['.repeat(10_000)}`],
    ['10k nested { closed', `x: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}`],
    ['10k compact sequences', `x:\n${'- '.repeat(10_000)}y`],
  ])('%s: a format error, under a second', (_label, yaml) => {
    const { v, line, ms } = timed(file([...GOOD_FM, yaml]));
    expect(ms).toBeLessThan(BOUNDED_MS);
    expect(v.exit).toBe(2);
    expect(line).toContain('frontmatter nesting too deep');
  });

  it('frontmatter over 256 KiB is a format error', () => {
    const { v, line } = timed(file([...GOOD_FM, `x: ${'z'.repeat(300 * 1024)}`]));
    expect(v.exit).toBe(2);
    expect(line).toContain('frontmatter too large');
  });

  it('a __proto__ key is an unknown key like any other', () => {
    const { v } = timed(file([...GOOD_FM, '__proto__: {polluted: true}', 'constructor: x']));
    expect(v.exit).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('__proto__ cannot stand in for a required field', () => {
    const { v, line } = timed(file(['__proto__: {name: x}', ...GOOD_FM.slice(1)]));
    expect(v.exit).toBe(1);
    expect(line).toContain('missing required field: name');
  });

  it('reports files it could not read as structural failures', () => {
    expect(validateUnreadable('not-found')).toMatchObject({ exit: 1, label: 'FAIL-STRUCT' });
    expect(formatVerdictLine('x.md', validateUnreadable('unreadable'))).toContain('file unreadable');
  });

  it('never throws on arbitrary bytes, and always answers with a known exit', () => {
    const anyBytes = fc.oneof(
      fc.uint8Array({ maxLength: 400 }).map((a) => Buffer.from(a)),
      fc.string({ unit: 'binary', maxLength: 300 }).map((s) => Buffer.from(`---\n${s}\n---\n${s}`, 'utf8')),
      fc
        .array(
          fc.constantFrom(
            '---',
            'name: x',
            'type: user',
            '- ',
            '[',
            '{',
            '&a',
            '*a',
            '!t',
            '"',
            '#',
            ': ',
            '\t',
            '\r',
            '?',
          ),
          {
            maxLength: 30,
          },
        )
        .map((parts) => Buffer.from(parts.join('\n'), 'utf8')),
    );
    fc.assert(
      fc.property(anyBytes, fc.string({ maxLength: 20 }), (bytes, name) => {
        const v = validate(bytes, name);
        expect([0, 1, 2, 3]).toContain(v.exit);
        expect(v.findings.length > 0).toBe(v.exit !== 0);
      }),
      { numRuns: 1000 },
    );
  });
});
