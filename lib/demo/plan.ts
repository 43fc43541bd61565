/**
 * Which category each generated file belongs to. Counts are fractions of n with a
 * minimum of one per category (so the demo default n = 60 shows every case), the
 * remainder going to fresh verified memories; the order is a seeded shuffle.
 */
import { mulberry32, mixSeed, shuffle } from './prng';

export const CATEGORIES = [
  'verified-fresh',
  'verified-stale', // last-verified > 90 days
  'verified-no-lv', // verified without last-verified (treated as stale)
  'inferred-observing', // created < 7 days ago
  'inferred-due', // observation period over, awaiting review
  'no-trust', // no trust-level at all: backfill candidate
  'quarantined-passive', // 0–30 days in quarantine
  'quarantined-audit', // 31–90 days
  'quarantined-archive', // 91+ days: archive candidate
  'archived', // archive/YYYY-MM/
  'secret-github', // ghp_ token
  'secret-aws', // AKIA key
  'secret-ip', // private 10.x address
  'secret-email', // someone else's e-mail
  'injection', // "ignore all previous instructions"
  'struct-error', // missing closing delimiter (FAIL-STRUCT)
  'format-error', // invalid type (FAIL-FORMAT)
  'warn-no-why', // feedback/project without Why:/How to apply: (WARN-SEMANTIC)
  'owner-email', // mentions the owner's own address: must NOT be a finding
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Share of n for each category other than verified-fresh (which takes the rest). */
const FRACTIONS: Record<Exclude<Category, 'verified-fresh'>, number> = {
  'verified-stale': 0.1,
  'verified-no-lv': 0.03,
  'inferred-observing': 0.08,
  'inferred-due': 0.12,
  'no-trust': 0.05,
  'quarantined-passive': 0.05,
  'quarantined-audit': 0.05,
  'quarantined-archive': 0.04,
  archived: 0.04,
  // special cases: ≈2.8 % together at large n
  'secret-github': 0.0025,
  'secret-aws': 0.0025,
  'secret-ip': 0.0025,
  'secret-email': 0.0025,
  injection: 0.003,
  'struct-error': 0.003,
  'format-error': 0.003,
  'warn-no-why': 0.01,
  'owner-email': 0,
};

/** Category counts for n files. With n < number of categories, the first n categories get one each. */
export function categoryCounts(n: number): Record<Category, number> {
  const counts = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  if (n < CATEGORIES.length) {
    for (let i = 0; i < n; i++) counts[CATEGORIES[i]!] = 1;
    return counts;
  }
  let used = 0;
  for (const c of CATEGORIES) {
    if (c === 'verified-fresh') continue;
    counts[c] = Math.max(1, Math.round(n * FRACTIONS[c]));
    used += counts[c];
  }
  // Small n: rounding up may overshoot; trim the largest categories back towards one each.
  while (used > n - 1) {
    let big: Category = 'verified-stale';
    for (const c of CATEGORIES) if (c !== 'verified-fresh' && counts[c] > counts[big]) big = c;
    if (counts[big] <= 1) break;
    counts[big]--;
    used--;
  }
  counts['verified-fresh'] = n - used;
  return counts;
}

/** One category per file index, deterministic for (n, seed). */
export function planCategories(n: number, seed: number): Category[] {
  const counts = categoryCounts(n);
  const out: Category[] = [];
  for (const c of CATEGORIES) for (let i = 0; i < counts[c]; i++) out.push(c);
  return shuffle(mulberry32(mixSeed(seed, 0x504c414e)), out);
}
