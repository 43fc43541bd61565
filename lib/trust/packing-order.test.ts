/**
 * The packing order (packing-order.ts) is the comparison sort's, element for element: any
 * ranks, recencies and names, equal ones included, in name order or not, below and above the
 * size where the counting path starts, and with keys only the comparison sort can order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortForPacking } from './packing-order';

interface Item {
  id: number;
  rank: number;
  recency: number;
  name: string;
}

const reference = (items: Item[]) =>
  [...items].sort(
    (a, b) => a.rank - b.rank || b.recency - a.recency || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );

const DAY = 86_400_000;
const BASE = Date.UTC(2026, 10, 1);

function items(arbRecency: fc.Arbitrary<number>, min: number, max: number) {
  return fc
    .array(
      fc.record({
        rank: fc.constantFrom(0, 1, 2),
        recency: arbRecency,
        name: fc.constantFrom('a.md', 'b.md', 'B.md', 'é.md', 'z.md', '10.md', '9.md', 'ä.md', 'a.md'),
      }),
      { minLength: min, maxLength: max },
    )
    .map((xs) => xs.map((x, id) => ({ ...x, id })));
}

const days = fc.integer({ min: -40, max: 40 }).map((d) => BASE + d * DAY);

describe('sortForPacking', () => {
  it('orders like the comparison sort, small and large, names in order or not', () => {
    fc.assert(
      fc.property(items(days, 0, 1500), fc.boolean(), (xs, byNameFirst) => {
        const input = byNameFirst ? [...xs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : xs;
        const want = reference(input).map((x) => x.id);
        expect(sortForPacking([...input], (x) => x.name).map((x) => x.id)).toEqual(want);
      }),
      { numRuns: 150 },
    );
  });

  it('hands keys it cannot pack exactly to the comparison sort', () => {
    // Out of range (ranks would overlap), not a whole number, and NaN (which makes the
    // comparison inconsistent: only the same algorithm gives the same order).
    for (const odd of [
      fc.constantFrom(BASE, BASE + DAY, 3e12, -3e12),
      fc.constantFrom(BASE, BASE + DAY, BASE + 0.5),
      fc.constantFrom(BASE, BASE + DAY, Number.NaN),
    ])
      fc.assert(
        fc.property(items(odd, 600, 900), (xs) => {
          const want = reference(xs).map((x) => x.id);
          expect(sortForPacking([...xs], (x) => x.name).map((x) => x.id)).toEqual(want);
        }),
        { numRuns: 20 },
      );
  });

  it('sorts in place and returns the array', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => ({
      id: i,
      rank: i % 3,
      recency: BASE - (i % 7) * DAY,
      name: `${i % 11}.md`,
    }));
    const want = reference(xs).map((x) => x.id);
    const same = sortForPacking(xs, (x) => x.name);
    expect(same).toBe(xs);
    expect(xs.map((x) => x.id)).toEqual(want);
  });
});
