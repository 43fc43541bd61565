/**
 * Frontmatter keys memtrust gives a meaning to. Only these must be single
 * scalars; any other key is carried along untouched (docs/memory-files.md).
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

/** The mapping current Claude Code nests some keys under (docs/memory-files.md, docs/claude-code-folders.md). */
export const METADATA_KEY = 'metadata';

/**
 * Keys read from `metadata:` when the top level lacks them: every known key (so
 * `metadata.type` satisfies "required field: type" and is checked like type) plus the
 * Claude Code keys shown on a memory's page.
 */
export const NESTED_READ_KEYS: ReadonlySet<string> = new Set<string>([...KNOWN_KEYS, 'node_type', 'originSessionId']);
