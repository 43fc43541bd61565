import { BOUNDED_MS } from '../core/bounded-time';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { injectionCheck } from './injection';
import { HOSTILE_UNITS, mibLine } from './fixtures/secrets/hostile';
import { FILE_CAP_BYTES } from './types';

/** Units aimed at the injection patterns' own gaps and quantifiers. */
const INJECTION_UNITS = [
  ...HOSTILE_UNITS,
  'ignore ',
  'rm -rf ',
  'curl | ',
  'git push ',
  'f(){ f|f& }',
  '\u202E',
  '\u200B',
  'always ',
  '< ',
  `${'A'.repeat(119)} `,
  'https://',
  'system:',
];

describe('injectionCheck: bounded time on 1 MiB single lines', () => {
  it.each(INJECTION_UNITS)('%j', (unit) => {
    const bytes = mibLine(unit);
    const t0 = performance.now();
    const v = injectionCheck(bytes);
    expect(performance.now() - t0).toBeLessThan(BOUNDED_MS);
    expect([0, 3]).toContain(v.exit);
  });

  it('a phrase followed by a 1 MiB run of spaces', () => {
    for (const head of ['<', 'f(){ f|f& }', 'ignore', 'rm -rf', 'curl x']) {
      const bytes = Buffer.from(head + ' '.repeat(FILE_CAP_BYTES - head.length));
      const t0 = performance.now();
      injectionCheck(bytes);
      expect(performance.now() - t0).toBeLessThan(BOUNDED_MS);
    }
  });
});

const verdictShape = (v: ReturnType<typeof injectionCheck>) => {
  expect(v.check).toBe('injection');
  expect(v.exit === 0 ? 'CLEAN' : 'FLAGGED').toBe(v.label);
  expect(v.exit === 0).toBe(v.findings.length === 0);
  for (const f of v.findings) {
    expect(f.code).toMatch(/^injection\.[a-z-]+$/);
    expect(f.line).toBeGreaterThanOrEqual(1);
  }
};

describe('injectionCheck: never throws', () => {
  it('returns a well-formed verdict for arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (b) => verdictShape(injectionCheck(Buffer.from(b)))),
      {
        numRuns: 500,
      },
    );
  });

  it('returns a well-formed verdict for text built from injection-shaped pieces', () => {
    const piece = fc.constantFrom(
      ...INJECTION_UNITS,
      '---\n',
      '\r\n',
      'previous ',
      'instructions',
      '\u{E0041}',
      '\uFEFF',
      'ｓ',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 300 }), (parts) =>
        verdictShape(injectionCheck(Buffer.from(parts.join('')))),
      ),
      { numRuns: 500 },
    );
  });
});
