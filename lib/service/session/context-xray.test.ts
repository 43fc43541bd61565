/**
 * The X-ray's table order (orderedRows): rows already in name order are grouped by state
 * instead of sorted; the result must be what the stable sort by state then name gives, for
 * any rows — in name order or not, with equal names, with every state, and for the Claude
 * Code layout (which sorts by MEMORY.md line).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderedRows, STATE_ORDER } from './context-xray';
import type { ContextRootPlan, ContextRow, RowState } from '../../trust/context';

/** Every state, in the table's order (the grouping must follow it, whatever it is). */
const STATES = STATE_ORDER;

/** The order as it was defined before grouping: one stable sort. */
function sortedReference(root: ContextRootPlan, archived: boolean): ContextRow[] {
  const rank = new Map(STATES.map((s, i) => [s, i]));
  return root.rows
    .filter((r) => archived || r.state !== 'archived')
    .sort((a, b) => {
      const s = (rank.get(a.state) ?? -1) - (rank.get(b.state) ?? -1);
      if (root.layout === 'claude-code' && a.indexLine !== null && b.indexLine !== null && s === 0)
        return a.indexLine - b.indexLine;
      if (s !== 0) return s;
      return a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0;
    });
}

const rowArb = fc.record({
  // Few distinct names, so equal names (memories/ and quarantine/ twins) are common.
  filename: fc.constantFrom('a.md', 'b.md', 'B.md', 'é.md', 'z.md', 'ä.md', '10.md', '9.md'),
  state: fc.constantFrom(...STATES),
  indexLine: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }),
});

function plan(
  layout: 'trust-root' | 'claude-code',
  rows: { filename: string; state: RowState; indexLine: number | null }[],
) {
  return {
    id: 'r',
    root: '/r',
    display: '/r',
    layout,
    error: null,
    index: null,
    indexCredentialLines: [],
    rows: rows.map(
      (r, i): ContextRow => ({
        id: `id-${i}`,
        filename: r.filename,
        name: r.filename,
        tier: 'verified',
        state: r.state,
        flags: [],
        indexLine: r.indexLine,
        chars: 0,
        note: '',
        action: 'none',
      }),
    ),
  } satisfies ContextRootPlan;
}

describe('orderedRows', () => {
  it('is the stable sort by state then name, whether the rows come in name order or not', () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { maxLength: 60 }),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('trust-root' as const, 'claude-code' as const),
        (rows, nameOrder, archived, layout) => {
          const input = nameOrder
            ? [...rows].sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0))
            : rows;
          const p = plan(layout, input);
          const want = sortedReference(plan(layout, input), archived).map((r) => r.id);
          expect(orderedRows(p, { archived }).map((r) => r.id)).toEqual(want);
          // The plan's own rows are left as they were.
          expect(p.rows.map((r) => r.id)).toEqual(input.map((_, i) => `id-${i}`));
        },
      ),
      { numRuns: 500 },
    );
  });
});
