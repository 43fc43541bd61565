/**
 * Frontmatter keys memtrust gives a meaning to. Only these must be single
 * scalars; any other key is carried along untouched (CONTRACT §1).
 */
export const KNOWN_KEYS = [
  'name',
  'description',
  'type',
  'trust-level',
  'created-at',
  'last-verified',
  'quarantined-at',
  'source-machine',
  'quarantined-by',
  'quarantine-reason',
] as const;

export type KnownKey = (typeof KNOWN_KEYS)[number];

const KNOWN_SET: ReadonlySet<string> = new Set(KNOWN_KEYS);

export function isKnownKey(key: string): key is KnownKey {
  return KNOWN_SET.has(key);
}
