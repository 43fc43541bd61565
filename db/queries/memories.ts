/**
 * Memory list queries: tier tables, review queues, filters and full-text search,
 * always paged (a page never loads all rows), returning view objects.
 */
import type Database from 'better-sqlite3';
import { clockCutoffs } from './cutoffs';
import { memo } from './memo';
import { originValuesWith } from '../../lib/trust/origin';
import { listRows as listUnionRows, type ListRow, type RecordQueue } from './record-rows';
import { FILE_ENTRY, RECORD_ENTRY } from './entry-kind';
import { memoryFindingWhere } from './finding-filter';
import type { FindingClass } from '../../lib/validators/types';

export const QUEUES = [
  'review',
  'stale',
  'due',
  'observing',
  'quarantine-audit',
  'archive-candidates',
  'passive',
  'conflicts',
  'backfill',
] as const;
export type Queue = (typeof QUEUES)[number];

/** The flags a memory's origin gives (lib/trust/origin.ts), as the tables filter by them. */
export const ORIGIN_FLAGS = ['untrusted-origin', 'user-requested'] as const;
export type OriginFlag = (typeof ORIGIN_FLAGS)[number];

export const SORTS = ['name', 'type', 'machine', 'created', 'verified', 'age', 'findings', 'file'] as const;
export type Sort = (typeof SORTS)[number];

export interface ListQuery {
  tier?: 'verified' | 'inferred' | 'quarantined' | 'archived';
  queue?: Queue;
  source?: string;
  /** The sources of a project filter (lib/service/project-filter.ts): rows of these only (an empty list keeps none). */
  sources?: readonly string[];
  type?: string;
  machine?: string;
  /** Finding category: validate | secret | injection. */
  finding?: string;
  /** An origin flag (docs/origin.md "In the index"): untrusted-origin | user-requested. */
  flag?: OriginFlag;
  verdict?: 'pass' | 'fail-struct' | 'fail-format' | 'warn';
  q?: string;
  sort?: Sort;
  dir?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

export interface MemoryListItem {
  key: string;
  id: string;
  source: string;
  relPath: string;
  filename: string;
  location: string;
  tier: string;
  /** The `trust-level` value as written (null when absent): the record's native state (lib/trust/file-record.ts). */
  trustLevel: string | null;
  type: string | null;
  name: string | null;
  description: string | null;
  sourceMachine: string | null;
  createdAt: string | null;
  lastVerified: string | null;
  quarantinedAt: string | null;
  quarantineReason: string | null;
  createdMs: number;
  lastVerifiedMs: number | null;
  quarantineSinceMs: number | null;
  validateExit: number;
  secretExit: number;
  injectionExit: number;
  findingCount: number;
  findingChecks: string;
  needsBackfill: boolean;
  conflict: boolean;
  indexed: boolean | null;
  error: string | null;
  sha256: string;
  /** The assistant edited this verified memory at this time (docs/hooks.md); null otherwise. */
  changedSinceVerified: string | null;
  /** The origin lookup's answer (lib/trust/origin.ts `originIndexValue`): null not looked up; `unknown`; `known` and its flags. */
  origin: string | null;
  /** What the writing turn read, when flagged `untrusted-origin`. */
  originReason: string | null;
}

export const COLUMNS = `m.key, m.id, m.source, m.rel_path AS relPath, m.filename, m.location, m.tier, m.trust_level AS trustLevel, m.type, m.name, m.description,
  m.source_machine AS sourceMachine, m.created_at AS createdAt, m.last_verified AS lastVerified, m.quarantined_at AS quarantinedAt,
  m.quarantine_reason AS quarantineReason, m.created_ms AS createdMs, m.last_verified_ms AS lastVerifiedMs,
  m.quarantine_since_ms AS quarantineSinceMs, m.validate_exit AS validateExit, m.secret_exit AS secretExit,
  m.injection_exit AS injectionExit, m.finding_count AS findingCount, m.finding_checks AS findingChecks,
  m.needs_backfill AS needsBackfill, m.conflict, m.indexed, m.error, m.sha256, m.changed_since_verified AS changedSinceVerified,
  m.origin, m.origin_reason AS originReason`;

const ORDER: Record<Sort, string> = {
  // Matches the expression index entries_tier_sortname (migration 0002), so a page needs no sort.
  name: 'coalesce(m.name, m.filename) COLLATE NOCASE',
  type: 'm.type',
  machine: 'm.source_machine',
  created: 'm.created_ms',
  verified: 'm.last_verified_ms',
  age: 'm.quarantine_since_ms',
  findings: 'm.finding_count',
  file: 'm.filename',
};

/** FTS5 query from user text: each word a quoted prefix term, so punctuation is never syntax. */
export function ftsQuery(text: string): string | null {
  const words = text.normalize('NFKC').match(/[\p{L}\p{N}_]+/gu);
  if (!words || words.length === 0) return null;
  return words
    .slice(0, 12)
    .map((w) => `"${w}"*`)
    .join(' ');
}

/**
 * The memory files' WHERE on `entries m`: always FILE_ENTRY (the records beside them in
 * the one table have their own filter, record-rows.ts recordWhere), then the list's filters.
 */
export function where(q: ListQuery, now: Date): { sql: string; params: Record<string, unknown> } {
  const c = clockCutoffs(now);
  const parts: string[] = [`m.${FILE_ENTRY}`];
  const params: Record<string, unknown> = {};
  if (q.tier) {
    parts.push('m.tier = @tier');
    params.tier = q.tier;
  }
  const queue: Record<Queue, string> = {
    review: `((m.tier = 'inferred' AND m.created_ms <= @observedBefore) OR (m.tier = 'verified' AND (m.last_verified_ms IS NULL OR m.last_verified_ms < @staleBefore OR m.changed_since_verified IS NOT NULL)))`,
    // Stale, or changed by the assistant since verification (docs/hooks.md): both are re-affirmed or demoted.
    stale: `(m.tier = 'verified' AND (m.last_verified_ms IS NULL OR m.last_verified_ms < @staleBefore OR m.changed_since_verified IS NOT NULL))`,
    due: `(m.tier = 'inferred' AND m.created_ms <= @observedBefore)`,
    observing: `(m.tier = 'inferred' AND m.created_ms > @observedBefore)`,
    passive: `(m.tier = 'quarantined' AND m.quarantine_since_ms > @auditFrom)`,
    'quarantine-audit': `(m.tier = 'quarantined' AND m.quarantine_since_ms <= @auditFrom AND m.quarantine_since_ms > @archiveFrom)`,
    'archive-candidates': `(m.tier = 'quarantined' AND m.quarantine_since_ms <= @archiveFrom)`,
    conflicts: 'm.conflict = 1',
    backfill: 'm.needs_backfill = 1',
  };
  if (q.queue) {
    parts.push(queue[q.queue]);
    Object.assign(params, {
      staleBefore: c.staleBefore,
      observedBefore: c.observedBefore,
      auditFrom: c.auditFrom,
      archiveFrom: c.archiveFrom,
    });
  }
  if (q.source) {
    parts.push('m.source = @source');
    params.source = q.source;
  }
  if (q.sources) {
    parts.push('m.source IN (SELECT value FROM json_each(@sourceList))');
    params.sourceList = JSON.stringify(q.sources);
  }
  if (q.type) {
    parts.push('m.type = @type');
    params.type = q.type;
  }
  if (q.machine) {
    parts.push('m.source_machine = @machine');
    params.machine = q.machine;
  }
  if (q.finding) {
    parts.push("(' ' || m.finding_checks || ' ') LIKE @finding");
    params.finding = `% ${q.finding} %`;
  }
  if (q.flag) {
    // The values carrying the flag, matched exactly on entries_origin (migration 0015).
    parts.push('m.origin IN (SELECT value FROM json_each(@flagValues))');
    params.flagValues = JSON.stringify(originValuesWith(q.flag));
  }
  if (q.verdict) {
    parts.push('m.validate_exit = @vexit');
    params.vexit = { pass: 0, 'fail-struct': 1, 'fail-format': 2, warn: 3 }[q.verdict];
  }
  const fts = q.q ? ftsQuery(q.q) : null;
  if (fts) {
    parts.push('m.rowid IN (SELECT rowid FROM entries_fts WHERE entries_fts MATCH @fts)');
    params.fts = fts;
  }
  return { sql: `WHERE ${parts.join(' AND ')}`, params };
}

/**
 * A row as the view object: the three flags become booleans in place (same keys, same
 * order). Not `{ ...r, flag }`: Node 20 takes a slow path for a spread followed by more
 * properties (docs/performance.md, "memtrust list").
 */
export function toItem(r: Record<string, unknown>): MemoryListItem {
  r.needsBackfill = !!r.needsBackfill;
  r.conflict = !!r.conflict;
  r.indexed = r.indexed === null ? null : !!r.indexed;
  return r as unknown as MemoryListItem;
}

export function listMemories(
  sqlite: Database.Database,
  q: ListQuery,
  now: Date,
): { items: MemoryListItem[]; total: number } {
  const clock = q.queue ? JSON.stringify(clockCutoffs(now)) : '';
  return memo(sqlite, `list:${JSON.stringify(q)}:${clock}`, () => computeList(sqlite, q, now));
}

/** ORDER BY of a list query: the sort column, then the key (a stable order). */
function orderBy(q: ListQuery): string {
  const sort = ORDER[q.sort ?? 'name'];
  const dir = q.dir === 'desc' ? 'DESC' : 'ASC';
  return `${sort} ${dir}${q.sort === 'name' || !q.sort ? '' : ' NULLS LAST'}, m.key`;
}

/** A page's size: 50 unless asked, never more than 100,000 rows. */
function pageOf(q: ListQuery): { limit: number; offset: number } {
  return { limit: Math.min(Math.max(q.limit ?? 50, 1), 100_000), offset: Math.max(q.offset ?? 0, 0) };
}

function computeList(
  sqlite: Database.Database,
  q: ListQuery,
  now: Date,
  w = where(q, now),
): { items: MemoryListItem[]; total: number } {
  const { limit, offset } = pageOf(q);
  const items = sqlite
    .prepare(`SELECT ${COLUMNS} FROM entries m ${w.sql} ORDER BY ${orderBy(q)} LIMIT @limit OFFSET @offset`)
    .all({ ...w.params, limit, offset }) as Record<string, unknown>[];
  // A page that came back short holds the end of the list: its total needs no second pass over
  // the filter (at 100,000 rows the count alone took ~0.5 s; docs/performance.md).
  const total =
    items.length < limit && (items.length > 0 || offset === 0)
      ? offset + items.length
      : countWhere(sqlite, 'entries m', w.sql, w.params);
  return { items: items.map(toItem), total };
}

export function memoryRows(sqlite: Database.Database, id: string): MemoryListItem[] {
  return (
    sqlite
      .prepare(`SELECT ${COLUMNS} FROM entries m WHERE m.id = ? AND m.${FILE_ENTRY} ORDER BY m.location`)
      .all(id) as Record<string, unknown>[]
  ).map(toItem);
}

export function memoryByFilename(sqlite: Database.Database, filename: string): MemoryListItem[] {
  return (
    sqlite
      .prepare(
        `SELECT ${COLUMNS} FROM entries m WHERE m.filename = ? AND m.${FILE_ENTRY} ORDER BY m.source, m.location`,
      )
      .all(filename) as Record<string, unknown>[]
  ).map(toItem);
}

/** The SQL of each list field, for `listRows`. */
const FIELD_SQL: Record<keyof MemoryListItem, string> = {
  key: 'm.key',
  id: 'm.id',
  source: 'm.source',
  relPath: 'm.rel_path',
  filename: 'm.filename',
  location: 'm.location',
  tier: 'm.tier',
  trustLevel: 'm.trust_level',
  type: 'm.type',
  name: 'm.name',
  description: 'm.description',
  sourceMachine: 'm.source_machine',
  createdAt: 'm.created_at',
  lastVerified: 'm.last_verified',
  quarantinedAt: 'm.quarantined_at',
  quarantineReason: 'm.quarantine_reason',
  createdMs: 'm.created_ms',
  lastVerifiedMs: 'm.last_verified_ms',
  quarantineSinceMs: 'm.quarantine_since_ms',
  validateExit: 'm.validate_exit',
  secretExit: 'm.secret_exit',
  injectionExit: 'm.injection_exit',
  findingCount: 'm.finding_count',
  findingChecks: 'm.finding_checks',
  needsBackfill: 'm.needs_backfill',
  conflict: 'm.conflict',
  indexed: 'm.indexed',
  error: 'm.error',
  sha256: 'm.sha256',
  changedSinceVerified: 'm.changed_since_verified',
  origin: 'm.origin',
  originReason: 'm.origin_reason',
};

/**
 * Beyond this many matching rows one pass over the table beats the index plan's random
 * lookups (measured at 100,000 rows; docs/performance.md, "memtrust list").
 */
const SCAN_FROM_ROWS = 10_000;

/**
 * The rows of `listMemories` — same filter, order, page and total — as positional arrays
 * of only the asked fields, in their order, with SQLite's values as stored (0/1 for the
 * flags). For the CLI's listings of tens of thousands of rows (docs/performance.md,
 * "memtrust list"): no object per row, no column the caller does not print.
 *
 * `sources` keeps the rows of those source ids only (an empty list keeps none).
 */
export function listRows(
  sqlite: Database.Database,
  q: ListQuery,
  now: Date,
  fields: readonly (keyof MemoryListItem)[],
  opts: { sources?: readonly string[] } = {},
): { rows: unknown[][]; total: number } {
  const w = where(q, now);
  const params: Record<string, unknown> = { ...w.params };
  let sql = w.sql;
  if (opts.sources) {
    const names = opts.sources.map((s, i) => {
      params[`src${i}`] = s;
      return `@src${i}`;
    });
    const test = names.length ? `m.source IN (${names.join(', ')})` : '0';
    sql = sql ? `${sql} AND ${test}` : `WHERE ${test}`;
  }
  // How many rows match, up to SCAN_FROM_ROWS: the planner's own plan (an index) counts that
  // many in about a millisecond. Past it, the rows come from one pass over the table.
  const probe = (
    sqlite
      .prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM entries m ${sql} LIMIT ${SCAN_FROM_ROWS})`)
      .get(params) as {
      n: number;
    }
  ).n;
  const from = probe < SCAN_FROM_ROWS ? 'entries m' : 'entries m NOT INDEXED';
  const { limit, offset } = pageOf(q);
  const rows = sqlite
    .prepare(
      `SELECT ${fields.map((f) => FIELD_SQL[f]).join(', ')} FROM ${from} ${sql} ORDER BY ${orderBy(q)} LIMIT @limit OFFSET @offset`,
    )
    .raw()
    .all({ ...params, limit, offset }) as unknown[][];
  // The same total as computeList: a short page holds the end of the list.
  const total =
    rows.length < limit && (rows.length > 0 || offset === 0)
      ? offset + rows.length
      : probe < SCAN_FROM_ROWS
        ? probe
        : countWhere(sqlite, from, sql, params);
  return { rows, total };
}

/** The WHERE of an unfiltered memory list: the file rows, all of them. */
const ALL_FILES = `WHERE m.${FILE_ENTRY}`;

/**
 * count(*) of a WHERE on `entries m`. Unfiltered (every file row), the table's count less
 * the records': SQLite counts a b-tree's entries with no pass over the rows, and the
 * records come from their partial index (entries_place), where FILE_ENTRY alone
 * would read every row (docs/performance.md, "memtrust list").
 */
function countWhere(sqlite: Database.Database, from: string, sql: string, params: Record<string, unknown>): number {
  if (sql === ALL_FILES)
    return (
      sqlite
        .prepare(`SELECT (SELECT count(*) FROM entries) - (SELECT count(*) FROM entries WHERE ${RECORD_ENTRY}) AS n`)
        .get() as { n: number }
    ).n;
  return (sqlite.prepare(`SELECT count(*) AS n FROM ${from} ${sql}`).get(params) as { n: number }).n;
}

/**
 * A tier tab's page: memories and the records of the configured record roots `live`
 * in one sort (db/queries/record-rows.ts listRows; docs/dashboard.md "Tier tabs"); with
 * no record matching, listMemories alone.
 */
/** `w` with more parts ANDed on. */
function andWhere(
  w: { sql: string; params: Record<string, unknown> },
  more: { parts: string[]; params: Record<string, unknown> },
): { sql: string; params: Record<string, unknown> } {
  if (more.parts.length === 0) return w;
  const sql = w.sql ? `${w.sql} AND ${more.parts.join(' AND ')}` : `WHERE ${more.parts.join(' AND ')}`;
  return { sql, params: { ...w.params, ...more.params } };
}

export function listMemoriesAndRecords(
  sqlite: Database.Database,
  q: ListQuery & { layout?: string; recordQueue?: RecordQueue; cls?: FindingClass; kind?: string },
  live: readonly string[],
  now: Date,
): { items: ListRow[]; total: number } {
  const clock = q.queue ? JSON.stringify(clockCutoffs(now)) : '';
  return memo(sqlite, `list+records:${JSON.stringify(q)}:${live.join(',')}:${clock}`, () => {
    const { limit, offset } = pageOf(q);
    // Finding class and kind: the inbox's filters, on both kinds of row (db/queries/finding-filter.ts).
    const found = memoryFindingWhere(sqlite, q);
    const w = andWhere(where(q, now), found);
    // A record-only queue (a record flag) holds no memory.
    const memory = q.recordQueue ? { sql: w.sql ? `${w.sql} AND 0` : 'WHERE 0', params: w.params } : w;
    return listUnionRows(sqlite, {
      memory,
      records: { ...q, queue: q.recordQueue ?? q.queue ?? 'any', live },
      sort: q.sort ?? 'name',
      dir: q.dir === 'desc' ? 'desc' : 'asc',
      limit,
      offset,
      memoryOnly: () =>
        q.recordQueue
          ? { items: [], total: 0 }
          : found.parts.length
            ? computeList(sqlite, q, now, w)
            : listMemories(sqlite, q, now),
    });
  });
}
