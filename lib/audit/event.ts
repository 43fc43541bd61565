/**
 * One line of `<root>/.memtrust/audit/<machine>.jsonl` (docs/audit-trail.md).
 * Events are the only state the SQLite cache cannot rebuild, so this shape is
 * versioned (`v`) and only ever extended with optional fields.
 */

export const AUDIT_ACTIONS = [
  'create',
  'promote',
  'reaffirm',
  'demote',
  'restore',
  'archive',
  'backfill',
  'edit',
  // Puts every file of a batch back to its pre-batch bytes and place (docs/batches.md).
  'undo',
  // A change another program made, seen by a scan (actor `outside`; docs/versions.md).
  'deleted',
  'rewritten',
  'added',
  // A kept version put back (docs/versions.md, "Recover").
  'recover',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * `assistant`: what the Claude Code hooks record for the assistant's own writes (docs/hooks.md).
 * `outside`: a change another program made, seen by a scan (docs/versions.md).
 */
export const ACTORS = ['user:web', 'user:cli', 'validator', 'system', 'assistant', 'outside'] as const;
export type Actor = (typeof ACTORS)[number];

/** A tier as written in an event; `null` = the memory did not exist / had no trust-level. */
export type EventTier = 'verified' | 'inferred' | 'quarantined' | 'archived' | null;

export interface AuditFindingRef {
  check: 'validate' | 'secret' | 'injection';
  code: string;
  line?: number;
  /** Already masked: never a secret's text. */
  message: string;
}

export interface AuditEvent {
  v: 1;
  /** Operation id: a retry with the same id is applied once. */
  id: string;
  /** ISO 8601 UTC timestamp with seconds, e.g. 2026-05-01T09:30:00Z. */
  at: string;
  machine: string;
  actor: Actor;
  action: AuditAction;
  /** The memory's filename (its canonical identifier, kept across moves). */
  memory: string;
  from: EventTier;
  to: EventTier;
  reason: string | null;
  findings: AuditFindingRef[];
  before_sha256: string | null;
  after_sha256: string | null;
  recovered: boolean;
  /**
   * The batch this event belongs to (docs/batches.md): every event of one
   * user-visible operation shares it; a single transition is a batch of one. Optional
   * only because events written before batches existed lack it (docs/batches.md).
   */
  batch?: string;
  /**
   * A record step of a record batch (docs/records-write.md): the layout, the record's key
   * (also in `memory`), the layout's own verb (`action` is that verb when it is one of
   * AUDIT_ACTIONS, else `edit`), the plan's memo (where a block stood, values before) and
   * the files it changed, relative to the root.
   */
  layout?: string;
  key?: string;
  record_action?: string;
  memo?: Record<string, string | number>;
  files?: string[];
  /** An `outside` event: lines removed plus lines added (docs/versions.md). */
  lines_changed?: number;
}
