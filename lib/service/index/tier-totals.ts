/**
 * The overview's tier cards: one number per tier over memories and records, since the tier
 * tab each card opens lists both kinds (docs/dashboard.md "Overview"). The parts stay
 * beside the sum so a card can say how many of each it holds.
 */
import type { RecordTier } from '../../sources/record';
import type { RecordSourceSummary } from '../records/read';

export const TIERS = ['verified', 'inferred', 'quarantined', 'archived'] as const satisfies readonly RecordTier[];

export interface TierTotal {
  total: number;
  memories: number;
  records: number;
}

/** `memories`: the overview's memory tier counts; `recordRoots`: the record roots in view (an unreadable root counts 0). */
export function tierTotals(
  memories: Record<RecordTier, number>,
  recordRoots: readonly Pick<RecordSourceSummary, 'counts'>[],
): Record<RecordTier, TierTotal> {
  const out = {} as Record<RecordTier, TierTotal>;
  for (const t of TIERS) {
    const records = recordRoots.reduce((n, r) => n + r.counts.tiers[t], 0);
    out[t] = { total: memories[t] + records, memories: memories[t], records };
  }
  return out;
}

/** The card's hint: the two parts, when both kinds are read (a root of one kind needs no breakdown). */
export function tierHint(t: TierTotal, bothKinds: boolean): string | undefined {
  if (!bothKinds) return undefined;
  const m = `${t.memories.toLocaleString('en-US')} ${t.memories === 1 ? 'memory' : 'memories'}`;
  const r = `${t.records.toLocaleString('en-US')} ${t.records === 1 ? 'record' : 'records'}`;
  return `${m} · ${r}`;
}
