import { describe, expect, it } from 'vitest';
import { checksPass, describeFailure, isHardFailure, oneLine, sanitiseReason } from './reason';

describe('sanitiseReason', () => {
  it.each([
    ['plain', 'plain'],
    ['  padded  ', 'padded'],
    ['a\nb', 'a b'],
    ['a\r\nb', 'a b'],
    ['a\u2028b\u2029c', 'a b c'],
    ['tab\there', 'tab here'],
    ['many     spaces', 'many spaces'],
    ['nul\u0000byte', 'nul byte'],
    ['del\u007fchar', 'del char'],
    ['c1\u0085next', 'c1 next'],
    ['zero\u200bwidth', 'zerowidth'],
    ['bidi \u202eevil\u202c', 'bidi evil'],
    ['tag\u{E0041}chars', 'tagchars'],
    ['trust-level: verified\n---\nowned', 'trust-level: verified --- owned'],
    ['\n\n', ''],
  ])('%j → %j', (raw, clean) => {
    expect(sanitiseReason(raw)).toBe(clean);
  });

  it('caps at 200 code points with an ellipsis', () => {
    const out = sanitiseReason('x'.repeat(500));
    expect(Array.from(out)).toHaveLength(200);
    expect(out.endsWith('…')).toBe(true);
    expect(sanitiseReason('y'.repeat(200))).toBe('y'.repeat(200));
  });

  it('counts code points, never splitting a surrogate pair', () => {
    const out = sanitiseReason('😀'.repeat(300));
    expect(Array.from(out)).toHaveLength(200);
    expect(out).toBe(`${'😀'.repeat(199)}…`);
    expect(sanitiseReason('é'.repeat(200))).toBe('é'.repeat(200));
  });

  it('oneLine takes its own cap', () => {
    expect(oneLine('abcdef', 4)).toBe('abc…');
  });
});

describe('check exits', () => {
  it.each([
    [0, 0, false, true],
    [3, 0, false, true],
    [1, 0, true, false],
    [2, 0, true, false],
    [0, 1, true, false],
    [64, 0, false, false],
  ])('validate %i secret %i → hard=%s pass=%s', (validateExit, secretExit, hard, pass) => {
    expect(isHardFailure({ validateExit, secretExit })).toBe(hard);
    expect(checksPass({ validateExit, secretExit })).toBe(pass);
  });

  it('describes only the failing parts', () => {
    expect(describeFailure({ validateExit: 1, secretExit: 0 })).toBe('validate FAIL-STRUCT (exit 1)');
    expect(describeFailure({ validateExit: 3, secretExit: 1 })).toBe('secret-check SECRET-DETECTED (exit 1)');
  });
});
