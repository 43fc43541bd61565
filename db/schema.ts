/**
 * The SQLite index: a cache of what is on disk, rebuildable by `memtrust scan`.
 * Audit events are mirrored here for queries; their truth is the JSONL files.
 *
 * Dates used for filtering are stored as epoch milliseconds so that "stale",
 * "due for review" and the quarantine windows can be computed in SQL against
 * an injected "now" instead of being frozen into rows at scan time.
 */
import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const sources = sqliteTable('sources', {
  id: text('id').primaryKey(),
  root: text('root').notNull(),
  /** The layout: `trust-root` and `claude-code` (scanned files), or a record layout (read through its adapter). */
  kind: text('kind').notNull(),
  label: text('label').notNull(),
  scannedAt: integer('scanned_at'),
  error: text('error'),
  /** Record roots only (migration 0016): the shape, the change token the rows were read at, the read's problems and warnings (JSON), when. */
  shape: text('shape'),
  token: text('token'),
  problems: text('problems'),
  warnings: text('warnings'),
  readAt: text('read_at'),
});

/**
 * The one index table (migration 0016; docs/records.md, "The index"): a row per memory file of
 * the file layouts (`is_record` 0) and a row per record of the record layouts
 * (`is_record` 1). A record fills the memory columns as the lists read them (title in `name`, its own
 * key in `filename`, `<file>:<line>` in `relPath`, the masked text in `body`) and keeps its own
 * in the record columns at the end; the file-only columns hold neutral values on a record.
 */
export const entries = sqliteTable(
  'entries',
  {
    /** A file: `<source>:<relPath>`, unique per file on disk (a conflict has two rows, one id). A record: its id `<source>:<key>`. */
    key: text('key').primaryKey(),
    isRecord: integer('is_record', { mode: 'boolean' }).notNull().default(false),
    /** A file: `<source>:<filename>`, the memory's identity across moves (docs/memory-files.md "Terms"). A record: its id. */
    id: text('id').notNull(),
    source: text('source').notNull(),
    relPath: text('rel_path').notNull(),
    filename: text('filename').notNull(),
    location: text('location', { enum: ['memories', 'quarantine', 'archive'] }).notNull(),
    tier: text('tier', { enum: ['verified', 'inferred', 'quarantined', 'archived'] }).notNull(),
    trustLevel: text('trust_level'),
    type: text('type'),
    name: text('name'),
    description: text('description'),
    sourceMachine: text('source_machine'),
    createdAt: text('created_at'),
    lastVerified: text('last_verified'),
    /** `changed-since-verified` from the frontmatter: the assistant edited a verified memory (docs/hooks.md). */
    changedSinceVerified: text('changed_since_verified'),
    quarantinedAt: text('quarantined_at'),
    quarantineReason: text('quarantine_reason'),
    /** created-at in ms, else mtime (observation clock basis). */
    createdMs: integer('created_ms').notNull(),
    createdFromMtime: integer('created_from_mtime', { mode: 'boolean' }).notNull(),
    lastVerifiedMs: integer('last_verified_ms'),
    /** quarantined-at, else last-verified, else mtime (quarantine clock basis). */
    quarantineSinceMs: integer('quarantine_since_ms'),
    size: integer('size').notNull(),
    mtimeMs: integer('mtime_ms').notNull(),
    sha256: text('sha256').notNull(),
    validateExit: integer('validate_exit').notNull(),
    secretExit: integer('secret_exit').notNull(),
    injectionExit: integer('injection_exit').notNull(),
    findingCount: integer('finding_count').notNull(),
    /** Space-separated finding categories (`validate secret injection`) for filters. */
    findingChecks: text('finding_checks').notNull(),
    needsBackfill: integer('needs_backfill', { mode: 'boolean' }).notNull(),
    conflict: integer('conflict', { mode: 'boolean' }).notNull().default(false),
    /** In an index-file layout: is the file named in MEMORY.md? null elsewhere. */
    indexed: integer('indexed', { mode: 'boolean' }),
    /** Read error for files that could not be read or are over the size cap. */
    error: text('error'),
    body: text('body').notNull(),
    /** `originSessionId` and `origin-reviewed` as the file says (migration 0015; docs/origin.md "In the index"). */
    originSession: text('origin_session'),
    originReviewed: text('origin_reviewed'),
    /** The origin lookup's answer: null not looked up yet; `unknown`; `known` then its flags (space-separated). */
    origin: text('origin'),
    /** What the writing turn read (tools and sources, masked) when the memory is flagged `untrusted-origin`. */
    originReason: text('origin_reason'),
    /** Records only (NULL on a file): the layout, flags (JSON array of RecordFlag), the record's own origin. */
    layout: text('layout'),
    flags: text('flags'),
    recordOrigin: text('record_origin'),
    /** Records only: the place in the store. */
    file: text('file'),
    line: integer('line'),
    endLine: integer('end_line'),
    /** Records only: secret findings by class and injection findings (a file's are in `findings`). */
    credentialCount: integer('credential_count'),
    personalCount: integer('personal_count'),
    injectionCount: integer('injection_count'),
    /** Records only: the whole RecordView as JSON (masked), what list and show return. */
    data: text('data'),
  },
  (t) => [
    // Expression and covering indexes (entries_tier_sortname, entries_inbox, entries_overview…) are in migration 0016.
    index('entries_id').on(t.id),
    index('entries_tier_created').on(t.tier, t.createdMs, t.isRecord),
    index('entries_tier_verified').on(t.tier, t.lastVerifiedMs, t.isRecord),
    index('entries_origin').on(t.origin, t.isRecord),
  ],
);

export const findings = sqliteTable(
  'findings',
  {
    key: text('key').notNull(),
    check: text('check', { enum: ['validate', 'secret', 'injection', 'hint'] }).notNull(),
    code: text('code').notNull(),
    label: text('label').notNull(),
    line: integer('line'),
    message: text('message').notNull(),
    /** Secret findings: `credential` or `personal` (validators/types.ts findingClass); NULL for the other checks. */
    class: text('class', { enum: ['credential', 'personal'] }),
  },
  (t) => [index('findings_key').on(t.key), index('findings_check').on(t.check)],
);

export const auditEvents = sqliteTable(
  'audit_events',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull(),
    source: text('source').notNull(),
    at: text('at').notNull(),
    atMs: integer('at_ms').notNull(),
    machine: text('machine').notNull(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    memory: text('memory').notNull(),
    fromTier: text('from_tier'),
    toTier: text('to_tier'),
    reason: text('reason'),
    findings: text('findings').notNull(),
    beforeSha256: text('before_sha256'),
    afterSha256: text('after_sha256'),
    recovered: integer('recovered', { mode: 'boolean' }).notNull(),
    /** The batch the event belongs to (migration 0008; docs/batches.md). */
    batch: text('batch'),
    /** A record event's layout and the layout's own verb (migration 0013; docs/records.md, "History and reports"). */
    layout: text('layout'),
    recordAction: text('record_action'),
  },
  (t) => [
    uniqueIndex('audit_op').on(t.source, t.id),
    index('audit_batch').on(t.batch),
    index('audit_memory').on(t.source, t.memory),
    index('audit_at').on(t.atMs),
  ],
);

/** Byte offsets already mirrored from each audit file, so rescans only read appended lines. */
export const auditCursors = sqliteTable('audit_cursors', {
  file: text('file').primaryKey(),
  source: text('source').notNull(),
  offset: integer('offset').notNull(),
  size: integer('size').notNull(),
});

export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** Findings of an index file (MEMORY.md), which is loaded into every session but is never a memory (migration 0010). */
export const indexFindings = sqliteTable(
  'index_findings',
  {
    source: text('source').notNull(),
    file: text('file').notNull(),
    check: text('check', { enum: ['secret', 'injection'] }).notNull(),
    code: text('code').notNull(),
    label: text('label').notNull(),
    class: text('class'),
    line: integer('line'),
    message: text('message').notNull(),
  },
  (t) => [index('index_findings_source').on(t.source)],
);

/**
 * Salted hashes of the credential values each file holds (migration 0014; docs/credentials.md,
 * "Value propagation"): `own` 1 for a value a detector found there, 0 for an occurrence of a
 * value known from another file. Never a value.
 */
export const credentialValues = sqliteTable(
  'credential_values',
  {
    key: text('key').notNull(),
    source: text('source').notNull(),
    hash: text('hash').notNull(),
    len: integer('len').notNull(),
    quick: integer('quick').notNull(),
    own: integer('own').notNull(),
  },
  (t) => [index('credential_values_key').on(t.key), index('credential_values_hash').on(t.hash)],
);
