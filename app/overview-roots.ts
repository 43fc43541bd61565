/**
 * Which roots the overview lists (docs/dashboard.md, "Overview"): all of them up to
 * ROOTS_SHOWN; beyond that — a Claude Code home of 200 projects is 220 folders, and listing
 * them all made the page 600 KB — the ones that need attention first (not read, an error,
 * MEMORY.md findings or over its load limit), then the largest, and a link to the rest.
 */
export const ROOTS_SHOWN = 12;

export function rootsToShow<T extends { count: number }>(
  all: readonly T[],
  attention: (r: T) => number,
  showAll: boolean,
): { shown: T[]; hidden: number } {
  if (showAll || all.length <= ROOTS_SHOWN) return { shown: [...all], hidden: 0 };
  const shown = all
    .map((r, i) => ({ r, i, a: attention(r) }))
    .sort((x, y) => y.a - x.a || y.r.count - x.r.count || x.i - y.i)
    .slice(0, ROOTS_SHOWN)
    // Shown in the listing's own order (by path), not by rank.
    .sort((x, y) => x.i - y.i)
    .map((x) => x.r);
  return { shown, hidden: all.length - shown.length };
}
