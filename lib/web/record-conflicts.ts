/**
 * Contradiction pairs among records (docs/records-pages.md "Contradictions"): a record
 * flagged `conflict` names the others in `detail.conflictsWith`, by key within its own
 * root or by full id. Pure: the caller supplies the records and a lookup for a name not
 * among them.
 */
export interface ConflictLike {
  id: string;
  key: string;
  source: string;
  detail: Record<string, unknown>;
}

/** The names a record gives for the records it contradicts. */
export function conflictKeys(r: Pick<ConflictLike, 'detail'>): string[] {
  const v = r.detail.conflictsWith;
  const list = Array.isArray(v) ? v : typeof v === 'string' && v !== '' ? [v] : [];
  return list.map((x) => String(x)).filter(Boolean);
}

/** The records `r` names, found in `pool` first (same root, by key or id), else through `lookup`; never `r` itself. */
export function partnersOf<T extends ConflictLike>(
  r: T,
  pool: readonly T[],
  lookup: (name: string, source: string) => T | null = () => null,
): T[] {
  const out: T[] = [];
  for (const k of conflictKeys(r)) {
    const hit = pool.find((x) => (x.source === r.source && x.key === k) || x.id === k) ?? lookup(k, r.source);
    if (hit && hit.id !== r.id && !out.some((o) => o.id === hit.id)) out.push(hit);
  }
  return out;
}

/** Every pair once, each ordered by id, in the order first met. */
export function pairConflicts<T extends ConflictLike>(
  flagged: readonly T[],
  lookup?: (name: string, source: string) => T | null,
): [T, T][] {
  const seen = new Set<string>();
  const pairs: [T, T][] = [];
  for (const r of flagged) {
    for (const o of partnersOf(r, flagged, lookup)) {
      const [a, b] = r.id < o.id ? [r, o] : [o, r];
      const k = `${a.id}\n${b.id}`;
      if (seen.has(k)) continue;
      seen.add(k);
      pairs.push([a, b]);
    }
  }
  return pairs;
}
