/**
 * ascii-source.cjs: a bundle made ASCII-only means the same. Each case is run before and after
 * the pass on the same inputs; the committed hook bundles are ASCII (lib/tools/build-hooks.mjs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build tooling, without type declarations
import { BUNDLE_FILES } from './build-hooks.mjs';

const { asciiSource } = createRequire(import.meta.url)('./ascii-source.cjs') as {
  asciiSource(code: string): string | null;
};

/** Sources whose value (a function of one string) must not change. */
const CASES: string[] = [
  'return [/기억해|기억하세요|잊지\\s*마/u.test(s), /覚えて|記憶して/.test(s)]',
  'return s.replace(/[«“「]+/g, "<")', // a class, no flag
  'return /[가-힣]{2,}/.exec(s)?.[0] ?? null', // a range
  'return /пароль|mật khẩu/i.test(s)', // case-insensitive, Cyrillic and Vietnamese
  'return [/😀+/u.test(s), /a😀b/.test(s), /[😀]/.test(s), /[😀]/u.test(s)]', // beyond the BMP, with and without u
  'return /caf\\é/.test(s)', // an identity escape (no u)
  'return String.raw`pass|\\bpw\\b|пароль|密码`.split("|").concat(s)', // String.raw: its raw text
  'const a = 6, b = 2, c = 3; return [a / b / c, s.length / 2 / 1, /é/.test(s)]', // division is not a regex
  `return \`é\${s}\``, // a template with a substitution: left as it is
];

const SAMPLES = [
  '',
  'café',
  'cafe',
  '기억해 주세요',
  '覚えて',
  'ПАРОЛЬ: x',
  'Mật khẩu',
  'a😀b',
  '😀😀',
  '«“x',
  '密码 pw',
];

function run(src: string): unknown[] {
  const f = new Function('s', src) as (s: string) => unknown;
  return SAMPLES.map((s) => f(s));
}

describe('asciiSource', () => {
  it.each(CASES)('the same answers, and ASCII: %s', (src) => {
    const out = asciiSource(src);
    expect(out).not.toBeNull();
    expect(run(out!)).toEqual(run(src));
    if (!src.startsWith('return `')) expect(out).toMatch(/^[\t-~\n]*$/);
  });

  it('leaves ASCII text alone', () => {
    const src = 'var a = /x[y]+/g, b = "é";';
    expect(asciiSource('var a = /x[y]+/g;')).toBe('var a = /x[y]+/g;');
    expect(asciiSource(src)).toBe(src); // a string literal is esbuild's to escape: not touched here
  });

  it('the committed hook bundles are ASCII only', () => {
    for (const name of BUNDLE_FILES as string[]) {
      const text = fs.readFileSync(path.join(__dirname, '..', '..', 'dist', 'hooks', `${name}.cjs`), 'utf8');
      const wide = [...text].find((c) => c.charCodeAt(0) > 0x7f);
      expect(wide, name).toBeUndefined();
    }
  });
});
