import { describe, expect, it } from 'vitest';
import { confirmationFor } from './batch-rules';

describe('confirmationFor (docs/trust-model.md: more than 10 files or more than a quarter of a root)', () => {
  it('10 files across big roots: no confirmation; 11: confirmation', () => {
    expect(confirmationFor([{ root: '/a', moving: 10, memories: 1000 }])).toEqual({
      needed: false,
      count: 10,
      reason: null,
    });
    expect(
      confirmationFor([
        { root: '/a', moving: 6, memories: 1000 },
        { root: '/b', moving: 5, memories: 1000 },
      ]),
    ).toMatchObject({ needed: true, count: 11, reason: 'it would demote or move 11 files (more than 10)' });
  });
  it('exactly a quarter is fine, more is not; a root that moves nothing never counts', () => {
    expect(confirmationFor([{ root: '/a', moving: 2, memories: 8 }]).needed).toBe(false);
    expect(confirmationFor([{ root: '/a', moving: 3, memories: 8 }])).toMatchObject({
      needed: true,
      reason: 'it would demote or move 3 of the 8 memories in /a (more than a quarter)',
    });
    expect(confirmationFor([{ root: '/a', moving: 1, memories: 1 }]).reason).toBe(
      'it would demote or move 1 of the 1 memory in /a (more than a quarter)',
    );
    expect(confirmationFor([{ root: '/a', moving: 0, memories: 0 }]).needed).toBe(false);
  });

  it('a back-fill rewriting more than 10 files in place asks for that count; 10 does not', () => {
    expect(confirmationFor([{ root: '/a', moving: 0, memories: 40 }], 10).needed).toBe(false);
    expect(confirmationFor([{ root: '/a', moving: 0, memories: 40 }], 11)).toEqual({
      needed: true,
      count: 11,
      reason: 'it would rewrite 11 files (more than 10)',
    });
  });
});
