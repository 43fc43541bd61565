import { describe, expect, it } from 'vitest';
import { ROOTS_SHOWN, rootsToShow } from './overview-roots';

const roots = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, count: i % 7, flagged: i === 40 }));

describe('the overview lists a long list of roots in part', () => {
  it('lists every root up to the limit, and all of them when asked', () => {
    const few = roots(ROOTS_SHOWN);
    expect(rootsToShow(few, () => 0, false)).toEqual({ shown: few, hidden: 0 });
    const many = roots(220);
    expect(rootsToShow(many, () => 0, true).shown).toHaveLength(220);
  });

  it('beyond the limit: the ones that need attention first, then the largest, in the listing order', () => {
    const many = roots(220);
    const r = rootsToShow(many, (x) => (x.flagged ? 1 : 0), false);
    expect(r.hidden).toBe(220 - ROOTS_SHOWN);
    expect(r.shown).toHaveLength(ROOTS_SHOWN);
    expect(r.shown.map((x) => x.id)).toContain('r40');
    // The rest are the largest (count 6), and the listing order holds.
    expect(r.shown.filter((x) => x.id !== 'r40').every((x) => x.count === 6)).toBe(true);
    const idx = r.shown.map((x) => Number(x.id.slice(1)));
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
  });
});
