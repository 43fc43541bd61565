import { describe, expect, it } from 'vitest';
import { effectiveTier, type MemoryFacts } from './facts';
import { OLD_MTIME } from './fixtures';
import type { Location } from './tiers';

function facts(location: Location, trustLevel: string | undefined, conflict = false): MemoryFacts {
  return { filename: 'user_x.md', location, trustLevel, mtime: OLD_MTIME, conflict };
}

describe('effectiveTier', () => {
  it.each([
    // location, trust-level, tier, declared, needsBackfill, invalid, mismatch
    ['memories', 'verified', 'verified', 'verified', false, false, false],
    ['memories', 'inferred', 'inferred', 'inferred', false, false, false],
    ['memories', undefined, 'inferred', 'missing', true, false, false],
    ['memories', '', 'inferred', 'missing', true, false, false],
    ['memories', '  ', 'inferred', 'missing', true, false, false],
    ['memories', 'Verified', 'inferred', 'invalid', false, true, false],
    ['memories', 'trusted', 'inferred', 'invalid', false, true, false],
    ['memories', 'quarantined', 'inferred', 'quarantined', false, false, true],
    ['quarantine', 'quarantined', 'quarantined', 'quarantined', false, false, false],
    ['quarantine', undefined, 'quarantined', 'missing', false, false, false],
    ['quarantine', 'verified', 'quarantined', 'verified', false, false, true],
    ['quarantine', 'inferred', 'quarantined', 'inferred', false, false, true],
    ['quarantine', 'bogus', 'quarantined', 'invalid', false, true, false],
    ['archive', 'quarantined', 'archived', 'quarantined', false, false, false],
    ['archive', undefined, 'archived', 'missing', false, false, false],
    ['archive', 'verified', 'archived', 'verified', false, false, true],
  ] as const)('%s + trust-level %j → %s', (location, level, tier, declared, backfill, invalid, mismatch) => {
    const r = effectiveTier(facts(location, level));
    expect(r).toEqual({
      tier,
      declared,
      needsBackfill: backfill,
      invalidTrustLevel: invalid,
      mismatch,
      conflict: false,
    });
  });

  it('passes the conflict flag through', () => {
    expect(effectiveTier(facts('memories', 'verified', true)).conflict).toBe(true);
  });
});
