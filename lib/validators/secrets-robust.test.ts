import { BOUNDED_MS } from '../core/bounded-time';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OWNER } from './fixtures/secrets/cases';
import { HOSTILE_UNITS, mibLine } from './fixtures/secrets/hostile';
import { secretCheck } from './secrets';

describe('secretCheck: bounded time on 1 MiB single lines', () => {
  it.each(HOSTILE_UNITS)('%j', (unit) => {
    const bytes = mibLine(unit);
    const t0 = performance.now();
    const v = secretCheck(bytes, OWNER);
    expect(performance.now() - t0).toBeLessThan(BOUNDED_MS);
    expect([0, 1]).toContain(v.exit);
  });
});

const verdictShape = (v: ReturnType<typeof secretCheck>) => {
  expect(v.check).toBe('secret');
  expect(v.exit === 0 ? 'CLEAN' : 'SECRET-DETECTED').toBe(v.label);
  expect(v.exit === 0).toBe(v.findings.length === 0);
  for (const f of v.findings) {
    expect(f.code).toMatch(/^secret\.[a-z-]+$/);
    expect(f.line).toBeGreaterThanOrEqual(1);
  }
};

describe('secretCheck: never throws', () => {
  it('returns a well-formed verdict for arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => verdictShape(secretCheck(Buffer.from(bytes), OWNER))),
      { numRuns: 500 },
    );
  });

  it('returns a well-formed verdict for text built from secret-shaped pieces', () => {
    const piece = fc.constantFrom(
      ...HOSTILE_UNITS,
      'AKIA',
      'xoxb-',
      '</redacted>',
      '192.168.',
      ':',
      '/',
      '\r\n',
      'é',
      '\u{1F600}',
      '\u0000',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 300 }), (parts) =>
        verdictShape(secretCheck(Buffer.from(parts.join('')), OWNER)),
      ),
      { numRuns: 500 },
    );
  });

  it('never prints a random token it found', () => {
    const body = fc.stringMatching(/^[A-Za-z0-9]{20,60}$/);
    fc.assert(
      fc.property(fc.string(), body, fc.string(), (before, token, after) => {
        const v = secretCheck(Buffer.from(`${before} ghp_${token} ${after}`), OWNER);
        expect(v.exit).toBe(1);
        for (const f of v.findings) expect(f.message).not.toContain(token.slice(0, 8));
      }),
      { numRuns: 300 },
    );
  });
});
