/**
 * Trust-model vocabulary (docs/trust-model.md). Constants are data; every
 * union type below is derived from them so zod enums, drizzle columns and UI menus
 * can share the same lists.
 */

/** The three tiers a memory's `trust-level` may name. */
export const TIERS = ['verified', 'inferred', 'quarantined'] as const;
export type Tier = (typeof TIERS)[number];

/** Tiers plus `archived`: the machine-local state of a file under `archive/YYYY-MM/`. */
export const EFFECTIVE_TIERS = [...TIERS, 'archived'] as const;
export type EffectiveTier = (typeof EFFECTIVE_TIERS)[number];

/** Directories of a trust-model root a memory can live in. */
export const LOCATIONS = ['memories', 'quarantine', 'archive'] as const;
export type Location = (typeof LOCATIONS)[number];

/** Which directory each tier lives in (docs/trust-model.md: the tier decides the directory). */
export const TIER_DIR: Record<EffectiveTier, Location> = {
  verified: 'memories',
  inferred: 'memories',
  quarantined: 'quarantine',
  archived: 'archive',
};

/** Everything the trust domain can decide about. `edit` changes content, never tier. */
export const ACTIONS = [
  'create-user',
  'create-inferred',
  'promote',
  'reaffirm',
  'demote',
  'restore',
  'archive',
  'edit',
] as const;
export type Action = (typeof ACTIONS)[number];

/** Actions on an existing memory that the review UI offers as buttons. */
export const MEMORY_ACTIONS = ['promote', 'reaffirm', 'demote', 'restore', 'archive'] as const;
export type MemoryAction = (typeof MEMORY_ACTIONS)[number];

/** Who drives a decision: the user (web or CLI) or an audit run's validators. */
export const DECIDERS = ['user', 'validator'] as const;
export type Decider = (typeof DECIDERS)[number];

export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** Frontmatter keys the trust model reads or writes. */
export const FIELD = {
  trustLevel: 'trust-level',
  lastVerified: 'last-verified',
  createdAt: 'created-at',
  quarantinedAt: 'quarantined-at',
  quarantinedBy: 'quarantined-by',
  quarantineReason: 'quarantine-reason',
  sourceMachine: 'source-machine',
} as const;
export type TrustField = (typeof FIELD)[keyof typeof FIELD];

/** Lifecycle thresholds (docs/trust-model.md). */
export const OBSERVATION_DAYS = 7;
/** Verified is stale when whole UTC days since last-verified exceed this. */
export const STALE_AFTER_DAYS = 90;
/** Quarantine windows: day 0–30 passive, 31–90 audit candidate, 91+ archive candidate. */
export const AUDIT_FROM_DAY = 31;
export const ARCHIVE_FROM_DAY = 91;

export const QUARANTINE_WINDOWS = ['passive', 'audit', 'archive'] as const;
export type QuarantineWindow = (typeof QUARANTINE_WINDOWS)[number];

/** Longest quarantine-reason kept, in code points (one readable line). */
export const REASON_MAX_CODE_POINTS = 200;

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

export function isMemoryType(value: unknown): value is MemoryType {
  return typeof value === 'string' && (MEMORY_TYPES as readonly string[]).includes(value);
}
