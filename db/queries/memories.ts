/**
 * Memory list queries: tier tables, review queues, filters and full-text search,
 * always paged (a page never loads all rows), returning view objects.
 */
import type Database from 'better-sqlite3';
import { clockCutoffs } from './cutoffs';
import { memo } from './memo';

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

export const SORTS = ['name', 'type', 'machine', 'created', 'verified', 'age', 'findings', 'file'] as const;
export type Sort = (typeof SORTS)[number];

export interface ListQuery {
  tier?: 'verified' | 'inferred' | 'quarantined' | 'archived';
  queue?: Queue;
  source?: string;
  type?: string;
  machine?: string;
  /** Finding category: validate | secret | injection. */
  finding?: string;
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
}

export const COLUMNS = `m.key, m.id, m.source, m.rel_path AS relPath, m.filename, m.location, m.tier, m.trust_level AS trustLevel, m.type, m.name, m.description,
  m.source_machine AS sourceMachine, m.created_at AS createdAt, m.last_verified AS lastVerified, m.quarantined_at AS quarantinedAt,
  m.quarantine_reason AS quarantineReason, m.created_ms AS createdMs, m.last_verified_ms AS lastVerifiedMs,
  m.quarantine_since_ms AS quarantineSinceMs, m.validate_exit AS validateExit, m.secret_exit AS secretExit,
  m.injection_exit AS injectionExit, m.finding_count AS findingCount, m.finding_checks AS findingChecks,
  m.needs_backfill AS needsBackfill, m.conflict, m.indexed, m.error, m.sha256, m.changed_since_verified AS changedSinceVerified`;

const ORDER: Record<Sort, string> = {
  // Matches the expression index memories_tier_sortname (migration 0002), so a page needs no sort.
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

export function where(q: ListQuery, now: Date): { sql: string; params: Record<string, unknown> } {
  const c = clockCutoffs(now);
  const parts: string[] = [];
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
  if (q.verdict) {
    parts.push('m.validate_exit = @vexit');
    params.vexit = { pass: 0, 'fail-struct': 1, 'fail-format': 2, warn: 3 }[q.verdict];
  }
  const fts = q.q ? ftsQuery(q.q) : null;
  if (fts) {
    parts.push('m.rowid IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH @fts)');
    params.fts = fts;
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

export function toItem(r: Record<string, unknown>): MemoryListItem {
  return {
    ...(r as unknown as MemoryListItem),
    needsBackfill: !!r.needsBackfill,
    conflict: !!r.conflict,
    indexed: r.indexed === null ? null : !!r.indexed,
  };
}

export function listMemories(
  sqlite: Database.Database,
  q: ListQuery,
  now: Date,
): { items: MemoryListItem[]; total: number } {
  const clock = q.queue ? JSON.stringify(clockCutoffs(now)) : '';
  return memo(sqlite, `list:${JSON.stringify(q)}:${clock}`, () => computeList(sqlite, q, now));
}

function computeList(sqlite: Database.Database, q: ListQuery, now: Date): { items: MemoryListItem[]; total: number } {
  const w = where(q, now);
  const sort = ORDER[q.sort ?? 'name'];
  const dir = q.dir === 'desc' ? 'DESC' : 'ASC';
  const limit = Math.min(Math.max(q.limit ?? 50, 1), 100_000);
  const offset = Math.max(q.offset ?? 0, 0);
  const items = sqlite
    .prepare(
      `SELECT ${COLUMNS} FROM memories m ${w.sql} ORDER BY ${sort} ${dir}${q.sort === 'name' || !q.sort ? '' : ' NULLS LAST'}, m.key LIMIT @limit OFFSET @offset`,
    )
    .all({ ...w.params, limit, offset }) as Record<string, unknown>[];
  // A page that came back short holds the end of the list: its total needs no second pass over
  // the filter (at 100,000 rows the count alone took ~0.5 s; docs/performance.md).
  const total =
    items.length < limit && (items.length > 0 || offset === 0)
      ? offset + items.length
      : (sqlite.prepare(`SELECT count(*) AS n FROM memories m ${w.sql}`).get(w.params) as { n: number }).n;
  return { items: items.map(toItem), total };
}

export function memoryRows(sqlite: Database.Database, id: string): MemoryListItem[] {
  return (
    sqlite.prepare(`SELECT ${COLUMNS} FROM memories m WHERE m.id = ? ORDER BY m.location`).all(id) as Record<
      string,
      unknown
    >[]
  ).map(toItem);
}

export function memoryByFilename(sqlite: Database.Database, filename: string): MemoryListItem[] {
  return (
    sqlite
      .prepare(`SELECT ${COLUMNS} FROM memories m WHERE m.filename = ? ORDER BY m.source, m.location`)
      .all(filename) as Record<string, unknown>[]
  ).map(toItem);
}
