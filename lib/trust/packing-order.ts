/**
 * The order bodies are packed in (docs/session-context.md, "The budget"): most trusted first
 * (rank 0 verified, 1 stale verified, 2 inferred), then most recent, then by file name; equal
 * ones keep the order they came in. Pure.
 *
 * At 100,000 memories a comparison sort of the ~80,000 candidates makes about 1.4 million
 * comparisons. Here the (rank, recency) pairs are sorted once as numbers (distinct values
 * only, natively), the candidates placed by counting, and only each run of equal pairs is
 * sorted by name — a run that already comes in name order (one root, listed by name) is
 * checked in one pass. The result is the comparison sort's, element for element.
 */

export interface Packable {
  readonly rank: number;
  /** Milliseconds since the epoch, larger = more recent. */
  readonly recency: number;
}

/** Below this many, the plain sort is as quick. */
const SMALL = 512;
/** Recency must stay within ±RANGE for rank × 2·RANGE − recency to keep ranks apart, exactly. */
const RANGE = 2e12;

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sorts `items` in place into packing order and returns it. */
export function sortForPacking<T extends Packable>(items: T[], name: (t: T) => string): T[] {
  const compare = (a: T, b: T) => a.rank - b.rank || b.recency - a.recency || byName(name(a), name(b));
  const n = items.length;
  if (n < SMALL) return items.sort(compare);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const { rank, recency } = items[i]!;
    // A key that could collide or is not a number: the comparison sort decides, as before.
    if (!Number.isInteger(rank) || rank < 0 || rank > 8 || !Number.isInteger(recency) || Math.abs(recency) >= RANGE)
      return items.sort(compare);
    keys[i] = rank * 2 * RANGE - recency;
  }
  const distinct = Float64Array.from(new Set(keys)).sort();
  const slot = new Map<number, number>();
  for (let i = 0; i < distinct.length; i++) slot.set(distinct[i]!, i);
  // Counting sort by slot: stable, so equal keys keep the order they came in.
  const starts = new Int32Array(distinct.length + 1);
  const slots = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const s = slot.get(keys[i]!)!;
    slots[i] = s;
    starts[s + 1]!++;
  }
  for (let s = 0; s < distinct.length; s++) starts[s + 1]! += starts[s]!;
  const out: T[] = new Array(n);
  const at = starts.slice(0, distinct.length);
  for (let i = 0; i < n; i++) out[at[slots[i]!]!++] = items[i]!;
  // Each run of equal keys by name (stable: equal names keep their order).
  for (let s = 0; s < distinct.length; s++) {
    const from = starts[s]!;
    const to = starts[s + 1]!;
    if (to - from < 2) continue;
    let ordered = true;
    for (let i = from + 1; i < to && ordered; i++) ordered = byName(name(out[i - 1]!), name(out[i]!)) <= 0;
    if (ordered) continue;
    const run = out.slice(from, to).sort((a, b) => byName(name(a), name(b)));
    for (let i = 0; i < run.length; i++) out[from + i] = run[i]!;
  }
  for (let i = 0; i < n; i++) items[i] = out[i]!;
  return items;
}
