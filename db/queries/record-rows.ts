/**
 * Records as list rows (docs/review-inbox.md "Records in the inbox"): a record's row in
 * `entries` (kind 'record') fills the columns of a memory row when it is indexed
 * (lib/service/records/read.ts), so the review inbox and the tier tabs page, sort and
 * filter files and records in one SELECT over the one table (listRows). The record side
 * of each filter lives here; the memory side stays in memories.ts / inbox.ts.
 *
 * Queues on records (docs/review-inbox.md "Queues"): a record has no observation or
 * quarantine clock of memtrust's own — its layout decides, and says so in its flags and
 * in the actions it allows now. So `stale` is the flag of that name, `due` an inferred
 * record its layout lets promote now, `observing` one it does not yet, `quarantine-audit`
 * every quarantined record, and the record-only flags are queues of their own. Two words
 * differ from the flag (docs/dashboard.md "Words"): the `conflict` flag is the
 * `contradictions` queue — two records asserting opposite claims, not the memory
 * `conflicts` queue of one memory in two folders — and `inbox` is `candidate`, since
 * `inbox` is the default queue.
 */
import type Database from 'better-sqlite3';
import { FILE_ENTRY, RECORD_ENTRY } from './entry-kind';
import { COLUMNS, ftsQuery, toItem, type MemoryListItem, type Sort } from './memories';

/** Record flags that are queues of their own (no memory is ever in them). */
export const RECORD_QUEUES = [
  'contradictions',
  'suspect',
  'candidate',
  'pending-human',
  'write-rule',
  'expired',
] as const;
export type RecordQueue = (typeof RECORD_QUEUES)[number];

/** The record flag a queue value names; the queues a record can be in by its flags. */
export const QUEUE_FLAG: Record<string, string> = {
  stale: 'stale',
  contradictions: 'conflict',
  suspect: 'suspect',
  candidate: 'inbox',
  'pending-human': 'pending-human',
  'write-rule': 'write-rule',
  expired: 'expired',
};

/** The queue value of a record flag: the one filter word the inbox, the tier tabs and the records page use. */
export function flagQueue(flag: string): string {
  return Object.entries(QUEUE_FLAG).find(([, f]) => f === flag)?.[0] ?? flag;
}

/** One record's flag as a badge or tag says it (singular of its queue). */
export function flagWord(flag: string): string {
  return { conflict: 'contradiction', inbox: 'candidate' }[flag] ?? flag;
}

/** An ISO date or instant as epoch ms in SQL (NULL when absent or unparseable). */
export const ms = (col: string) => `CAST(round((julianday(${col}) - 2440587.5) * 86400000) AS INTEGER)`;
export const HAS_FLAG = (flag: string) => `EXISTS (SELECT 1 FROM json_each(m.flags) WHERE value = ${flag})`;
export const CAN = (action: string) =>
  `EXISTS (SELECT 1 FROM json_each(m.data, '$.actions') WHERE value = '${action}')`;
/** A record's type: `detail.category`, else `detail.type`, stored in `type` when indexed. */
export const TYPE = 'm.type';

/** The list columns of an entry: a memory's (COLUMNS), then a record's layout, flags and kind (a function: memories.ts imports this module). */
export const entryColumns = () =>
  `${COLUMNS}, m.layout AS layout, m.flags AS recordFlags, CASE WHEN m.${RECORD_ENTRY} THEN 'record' END AS kind`;

/**
 * A record's createdAt in epoch ms, NULL when the store gives none: its `created_ms` is that
 * or 0 (lib/service/records/read.ts), and a column the indexes hold is read, not the text.
 */
const RECORD_CREATED = 'nullif(m.created_ms, 0)';

/**
 * The sort of a list holding both kinds of row: the memory sort (memories.ts ORDER), but a
 * record has no quarantine clock and its file is its store's: its age and created sort
 * count from its createdAt (none when the store gives no date), its file sort by that file.
 */
const ENTRY_ORDER: Record<Sort, string> = {
  name: 'coalesce(m.name, m.filename) COLLATE NOCASE',
  type: 'm.type',
  machine: 'm.source_machine',
  created: `CASE WHEN m.${RECORD_ENTRY} THEN ${RECORD_CREATED} ELSE m.created_ms END`,
  verified: 'm.last_verified_ms',
  age: `CASE WHEN m.${RECORD_ENTRY} THEN ${RECORD_CREATED} ELSE m.quarantine_since_ms END`,
  findings: 'm.finding_count',
  file: `CASE WHEN m.${RECORD_ENTRY} THEN m.file ELSE m.filename END`,
};

/** What a record filter reads (a subset of the inbox query, all optional). */
export interface RecordRowQuery {
  tier?: string;
  /** The queue: `inbox` (needs a decision), `any`, a memory queue, or a record-only flag queue. */
  queue?: string;
  source?: string;
  sources?: readonly string[];
  /** The configured record roots: rows of a root no longer configured are never listed. */
  live: readonly string[];
  layout?: string;
  type?: string;
  machine?: string;
  finding?: string;
  flag?: string;
  verdict?: string;
  cls?: 'credential' | 'personal';
  kind?: string;
  /** [newest, oldest] created ms bounds of an age filter (oldest null: no lower bound). */
  ageBounds?: [number, number | null];
  q?: string;
}

/**
 * "Needs a decision now" for a record: a flag that asks for one, or an inferred record its
 * layout lets promote now; archived records need nothing (their flags say why they left).
 */
const INBOX_SQL = `(m.tier <> 'archived' AND (${['stale', 'suspect', 'conflict', 'inbox', 'pending-human', 'write-rule']
  .map((f) => HAS_FLAG(`'${f}'`))
  .join(' OR ')} OR (m.tier = 'inferred' AND ${CAN('promote')})))`;

/** A queue as a condition on a record row `m` ('' for every row): the inbox, the tier tabs and `memtrust list` read this one rule. */
export function queueSql(queue: string): string {
  if (queue === 'inbox') return INBOX_SQL;
  if (queue === 'any') return '';
  const flag = QUEUE_FLAG[queue];
  if (flag) return HAS_FLAG(`'${flag}'`);
  switch (queue) {
    case 'review':
      return `((m.tier = 'inferred' AND ${CAN('promote')}) OR ${HAS_FLAG("'stale'")})`;
    case 'due':
      return `(m.tier = 'inferred' AND ${CAN('promote')})`;
    case 'observing':
      return `(m.tier = 'inferred' AND NOT ${CAN('promote')})`;
    case 'quarantine-audit':
      return "m.tier = 'quarantined'";
    default:
      // passive, archive-candidates, backfill: clocks and fields only memory files have.
      return '0';
  }
}

export function recordWhere(q: RecordRowQuery): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = [`m.${RECORD_ENTRY}`, 'm.source IN (SELECT value FROM json_each(@r_live))'];
  const params: Record<string, unknown> = { r_live: JSON.stringify(q.live) };
  const eq = (sql: string, name: string, v: unknown) => {
    parts.push(sql);
    params[name] = v;
  };
  if (q.tier) eq('m.tier = @r_tier', 'r_tier', q.tier);
  const queue = queueSql(q.queue ?? 'any');
  if (queue) parts.push(queue);
  if (q.source) eq('m.source = @r_source', 'r_source', q.source);
  if (q.sources) eq('m.source IN (SELECT value FROM json_each(@r_sources))', 'r_sources', JSON.stringify(q.sources));
  if (q.layout) eq('m.layout = @r_layout', 'r_layout', q.layout);
  if (q.type) eq('m.type = @r_type', 'r_type', q.type);
  // Machines, origins and validator verdicts are facts of memory files: records pass every verdict check.
  if (q.machine || q.flag || (q.verdict && q.verdict !== 'pass')) parts.push('0');
  if (q.finding === 'secret') parts.push('m.credential_count + m.personal_count > 0');
  else if (q.finding === 'injection') parts.push('m.injection_count > 0');
  else if (q.finding) parts.push('0');
  if (q.cls === 'credential') parts.push('m.credential_count > 0');
  if (q.cls === 'personal') parts.push('m.personal_count > 0');
  if (q.kind)
    eq(
      "EXISTS (SELECT 1 FROM json_each(m.data, '$.findings') WHERE json_extract(value, '$.code') = @r_kind)",
      'r_kind',
      q.kind,
    );
  if (q.ageBounds) {
    eq(`${RECORD_CREATED} <= @r_ageNewest`, 'r_ageNewest', q.ageBounds[0]);
    if (q.ageBounds[1] !== null) eq(`${RECORD_CREATED} > @r_ageOldest`, 'r_ageOldest', q.ageBounds[1]);
  }
  // The full-text search of memories (memories.ts where), on the record's title and masked text.
  const fts = q.q ? ftsQuery(q.q) : null;
  if (fts) eq('m.rowid IN (SELECT rowid FROM entries_fts WHERE entries_fts MATCH @r_fts)', 'r_fts', fts);
  return { sql: `WHERE ${parts.join(' AND ')}`, params };
}

/** A list row that is a record: the memory columns plus its layout and flags. */
export interface RecordRowFields {
  kind?: 'record';
  /** The record's layout (records only; a memory's layout comes from its root). */
  layout?: string;
  /** The record's flags (records only). */
  recordFlags?: string[];
}
export type ListRow = MemoryListItem & RecordRowFields;

/**
 * Where a row's age counts from (docs/review-inbox.md, "Filters"): a quarantined or archived memory
 * from its quarantine clock, any other memory from its creation; a record from its createdAt
 * whatever its tier (records have no quarantine clock), none when the store gives no date.
 */
export function ageBaseMs(m: ListRow): number | null {
  if (m.kind === 'record') return m.createdAt ? m.createdMs : null;
  return m.tier === 'quarantined' || m.tier === 'archived' ? m.quarantineSinceMs : m.createdMs;
}

/** A row of entryColumns() as a list row: a record's flags parsed; a memory's without the record fields (toItem). */
export function toEntryRow(r: Record<string, unknown>): ListRow {
  if (r.kind === 'record') {
    r.needsBackfill = false;
    r.conflict = false;
    r.recordFlags = JSON.parse(r.recordFlags as string) as string[];
    return r as unknown as ListRow;
  }
  delete r.layout;
  delete r.recordFlags;
  delete r.kind;
  return toItem(r);
}

export function recordRowsById(sqlite: Database.Database, ids: readonly string[]): Map<string, ListRow> {
  const out = new Map<string, ListRow>();
  if (ids.length === 0) return out;
  const rows = sqlite
    .prepare(
      `SELECT ${entryColumns()} FROM entries m WHERE m.${RECORD_ENTRY} AND m.key IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids)) as Record<string, unknown>[];
  for (const r of rows) out.set(r.key as string, toEntryRow(r));
  return out;
}

export function recordCount(sqlite: Database.Database, q: RecordRowQuery): number {
  const w = recordWhere(q);
  return (sqlite.prepare(`SELECT count(*) AS n FROM entries m ${w.sql}`).get(w.params) as { n: number }).n;
}

/** Finding codes on records with a finding, and how many records hold each (the inbox's kind facet). */
export function recordFindingKinds(
  sqlite: Database.Database,
  live: readonly string[],
): { code: string; check: string; memories: number }[] {
  return sqlite
    .prepare(
      `SELECT json_extract(f.value, '$.code') AS code, json_extract(f.value, '$.check') AS "check", count(DISTINCT r.key) AS memories
         FROM entries r, json_each(r.data, '$.findings') f
        WHERE r.${RECORD_ENTRY} AND r.source IN (SELECT value FROM json_each(?)) AND r.finding_count > 0
        GROUP BY 1, 2`,
    )
    .all(JSON.stringify(live)) as { code: string; check: string; memories: number }[];
}

/**
 * One page of memories and records together, in one sort (the inbox and the tier tabs): one
 * SELECT over `entries`, each kind of row under its own filter. `memory` is the memory
 * side's WHERE on `entries m` (it keeps the file rows, FILE_ENTRY); `memoryOnly` the existing,
 * index-tuned memory query, used unchanged whenever no record matches the filter.
 */
export function listRows(
  sqlite: Database.Database,
  opts: {
    memory: { sql: string; params: Record<string, unknown> };
    records: RecordRowQuery;
    sort: Sort;
    dir: 'asc' | 'desc';
    limit: number;
    offset: number;
    memoryOnly: () => { items: MemoryListItem[]; total: number };
  },
): { items: ListRow[]; total: number } {
  const recs = opts.records.live.length ? recordCount(sqlite, opts.records) : 0;
  if (recs === 0) return opts.memoryOnly();
  const rw = recordWhere(opts.records);
  const files = opts.memory.sql.replace(/^WHERE /, '') || `m.${FILE_ENTRY}`;
  const cond = `WHERE (${files}) OR (${rw.sql.replace(/^WHERE /, '')})`;
  const params = { ...opts.memory.params, ...rw.params };
  const dir = opts.dir === 'desc' ? 'DESC' : 'ASC';
  const nulls = opts.sort === 'name' ? '' : ' NULLS LAST';
  const rows = sqlite
    .prepare(
      `SELECT ${entryColumns()} FROM entries m ${cond} ORDER BY ${ENTRY_ORDER[opts.sort]} ${dir}${nulls}, m.key LIMIT @u_limit OFFSET @u_offset`,
    )
    .all({ ...params, u_limit: opts.limit, u_offset: opts.offset }) as Record<string, unknown>[];
  const total = (sqlite.prepare(`SELECT count(*) AS n FROM entries m ${cond}`).get(params) as { n: number }).n;
  return { items: rows.map(toEntryRow), total };
}
