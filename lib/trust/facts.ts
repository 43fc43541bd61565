/**
 * What the service knows about one memory file, and the tier that follows from it.
 * The service builds `MemoryFacts` from disk; this module only interprets them.
 */
import { isTier, type EffectiveTier, type Location, type Tier } from './tiers';

export interface MemoryFacts {
  filename: string;
  location: Location;
  /** Raw `trust-level` frontmatter value, unvalidated (undefined when the key is absent). */
  trustLevel?: string;
  type?: string;
  createdAt?: string;
  lastVerified?: string;
  quarantinedAt?: string;
  /** Only read by backfill ("set source-machine when absent"). */
  sourceMachine?: string;
  /** Set when the assistant edited a verified memory (docs/hooks.md): re-affirm without waiting 90 days. */
  changedSinceVerified?: string;
  mtime: Date;
  /** Same filename in memories/ and quarantine/ at once (docs/trust-model.md): blocks transitions. */
  conflict?: boolean;
}

/** What the trust-level field says, normalised. */
export type Declared = Tier | 'missing' | 'invalid';

export interface TierReading {
  tier: EffectiveTier;
  declared: Declared;
  /** No trust-level in memories/: treated as inferred until backfill writes one. */
  needsBackfill: boolean;
  /** A trust-level value outside the enum (validate reports FAIL-FORMAT). */
  invalidTrustLevel: boolean;
  /** trust-level names a tier that does not live in this directory. */
  mismatch: boolean;
  conflict: boolean;
}

export function readDeclared(raw: string | undefined): Declared {
  if (raw === undefined || raw === null || raw.trim() === '') return 'missing';
  return isTier(raw) ? raw : 'invalid';
}

/**
 * The directory is authoritative: quarantine/ is always quarantined and archive/ always
 * archived. Inside memories/ only an exact `verified` earns verified; anything else
 * (inferred, missing, invalid, or `quarantined` left behind in memories/) is read as
 * inferred, the conservative default of backfill (docs/trust-model.md) — loaded with a marker, never silently.
 */
export function effectiveTier(facts: MemoryFacts): TierReading {
  const declared = readDeclared(facts.trustLevel);
  const invalidTrustLevel = declared === 'invalid';
  const conflict = facts.conflict === true;
  // Whole literals, not `{ ...base, tier }`: Node 20 takes a slow path for a spread followed
  // by more properties (≈1 µs a call), and a listing asks this several times per row
  // (docs/performance.md, "memtrust list"). The key order is the one the spread gave.
  switch (facts.location) {
    case 'quarantine':
      return {
        declared,
        needsBackfill: false,
        invalidTrustLevel,
        conflict,
        tier: 'quarantined',
        mismatch: declared === 'verified' || declared === 'inferred',
      };
    case 'archive':
      // Archiving changes no frontmatter, so an archived file normally still says quarantined.
      return {
        declared,
        needsBackfill: false,
        invalidTrustLevel,
        conflict,
        tier: 'archived',
        mismatch: declared === 'verified' || declared === 'inferred',
      };
    case 'memories':
      return {
        declared,
        needsBackfill: declared === 'missing',
        invalidTrustLevel,
        conflict,
        tier: declared === 'verified' ? 'verified' : 'inferred',
        mismatch: declared === 'quarantined',
      };
  }
}
