/**
 * Records as list rows (docs/review-inbox.md "Records in the inbox"): `layout_records`
 * mapped to the columns of a memory row, so the review inbox and the tier tabs page,
 * sort and filter files and records in one query (listRows). The mapping and the
 * record side of each filter live here; the memory side stays in memories.ts / inbox.ts.
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
import type { MemoryListItem, Sort } from './memories';

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
export const HAS_FLAG = (flag: string) => `EXISTS (SELECT 1 FROM json_each(r.flags) WHERE value = ${flag})`;
export const CAN = (action: string) =>
  `EXISTS (SELECT 1 FROM json_each(r.data, '$.actions') WHERE value = '${action}')`;
export const TYPE = "coalesce(json_extract(r.data, '$.detail.category'), json_extract(r.data, '$.detail.type'))";
const FINDINGS = '(r.credential_count + r.personal_count + r.injection_count)';

/** A record's row in the columns of MemoryListItem (`key` and `id` are the record id; `filename` its key). */
export const RECORD_COLUMNS = `r.id AS key, r.id AS id, r.source AS source,
  r.file || CASE WHEN r.line > 0 THEN ':' || r.line ELSE '' END AS relPath, r.key AS filename, 'memories' AS location,
  r.tier AS tier, r.native AS trustLevel, ${TYPE} AS type, r.title AS name, NULL AS description, NULL AS sourceMachine,
  r.created_at AS createdAt, r.verified_at AS lastVerified, NULL AS quarantinedAt, NULL AS quarantineReason,
  coalesce(${ms('r.created_at')}, 0) AS createdMs, ${ms('r.verified_at')} AS lastVerifiedMs, NULL AS quarantineSinceMs,
  0 AS validateExit, CASE WHEN r.credential_count + r.personal_count > 0 THEN 1 ELSE 0 END AS secretExit,
  CASE WHEN r.injection_count > 0 THEN 1 ELSE 0 END AS injectionExit, ${FINDINGS} AS findingCount,
  trim(CASE WHEN r.credential_count + r.personal_count > 0 THEN 'secret' ELSE '' END || CASE WHEN r.injection_count > 0 THEN ' injection' ELSE '' END) AS findingChecks,
  0 AS needsBackfill, 0 AS conflict, NULL AS indexed, NULL AS error, '' AS sha256,
  NULL AS changedSinceVerified, NULL AS origin, NULL AS originReason,
  r.layout AS layout, r.flags AS recordFlags`;

/** The sort expressions of a record row, beside memories.ts ORDER. */
export const RECORD_ORDER: Record<Sort, string> = {
  name: 'r.title',
  type: TYPE,
  machine: 'NULL',
  created: ms('r.created_at'),
  verified: ms('r.verified_at'),
  age: ms('r.created_at'),
  findings: FINDINGS,
  file: 'r.file',
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
const INBOX_SQL = `(r.tier <> 'archived' AND (${['stale', 'suspect', 'conflict', 'inbox', 'pending-human', 'write-rule']
  .map((f) => HAS_FLAG(`'${f}'`))
  .join(' OR ')} OR (r.tier = 'inferred' AND ${CAN('promote')})))`;

/** A queue as a condition on a record row `r` ('' for every row): the inbox, the tier tabs and `memtrust list` read this one rule. */
export function queueSql(queue: string): string {
  if (queue === 'inbox') return INBOX_SQL;
  if (queue === 'any') return '';
  const flag = QUEUE_FLAG[queue];
  if (flag) return HAS_FLAG(`'${flag}'`);
  switch (queue) {
    case 'review':
      return `((r.tier = 'inferred' AND ${CAN('promote')}) OR ${HAS_FLAG("'stale'")})`;
    case 'due':
      return `(r.tier = 'inferred' AND ${CAN('promote')})`;
    case 'observing':
      return `(r.tier = 'inferred' AND NOT ${CAN('promote')})`;
    case 'quarantine-audit':
      return "r.tier = 'quarantined'";
    default:
      // passive, archive-candidates, backfill: clocks and fields only memory files have.
      return '0';
  }
}

export function recordWhere(q: RecordRowQuery): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = ['r.source IN (SELECT value FROM json_each(@r_live))'];
  const params: Record<string, unknown> = { r_live: JSON.stringify(q.live) };
  const eq = (sql: string, name: string, v: unknown) => {
    parts.push(sql);
    params[name] = v;
  };
  if (q.tier) eq('r.tier = @r_tier', 'r_tier', q.tier);
  const queue = queueSql(q.queue ?? 'any');
  if (queue) parts.push(queue);
  if (q.source) eq('r.source = @r_source', 'r_source', q.source);
  if (q.sources) eq('r.source IN (SELECT value FROM json_each(@r_sources))', 'r_sources', JSON.stringify(q.sources));
  if (q.layout) eq('r.layout = @r_layout', 'r_layout', q.layout);
  if (q.type) eq(`${TYPE} = @r_type`, 'r_type', q.type);
  // Machines, origins and validator verdicts are facts of memory files: records pass every verdict check.
  if (q.machine || q.flag || (q.verdict && q.verdict !== 'pass')) parts.push('0');
  if (q.finding === 'secret') parts.push('r.credential_count + r.personal_count > 0');
  else if (q.finding === 'injection') parts.push('r.injection_count > 0');
  else if (q.finding) parts.push('0');
  if (q.cls === 'credential') parts.push('r.credential_count > 0');
  if (q.cls === 'personal') parts.push('r.personal_count > 0');
  if (q.kind)
    eq(
      "EXISTS (SELECT 1 FROM json_each(r.data, '$.findings') WHERE json_extract(value, '$.code') = @r_kind)",
      'r_kind',
      q.kind,
    );
  if (q.ageBounds) {
    eq(`${ms('r.created_at')} <= @r_ageNewest`, 'r_ageNewest', q.ageBounds[0]);
    if (q.ageBounds[1] !== null) eq(`${ms('r.created_at')} > @r_ageOldest`, 'r_ageOldest', q.ageBounds[1]);
  }
  // Each word of the search in the title or the checked (masked) text, like the records page's search.
  const words = (q.q ?? '').normalize('NFKC').match(/[\p{L}\p{N}_]+/gu) ?? [];
  for (const [i, w] of words.slice(0, 12).entries())
    eq(`instr(lower(r.title || ' ' || r.text || ' ' || r.key), @r_q${i}) > 0`, `r_q${i}`, w.toLowerCase());
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

export function toRecordRow(r: Record<string, unknown>): ListRow {
  r.kind = 'record';
  r.needsBackfill = false;
  r.conflict = false;
  r.recordFlags = JSON.parse(r.recordFlags as string) as string[];
  return r as unknown as ListRow;
}

export function recordRowsById(sqlite: Database.Database, ids: readonly string[]): Map<string, ListRow> {
  const out = new Map<string, ListRow>();
  if (ids.length === 0) return out;
  const rows = sqlite
    .prepare(`SELECT ${RECORD_COLUMNS} FROM layout_records r WHERE r.id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as Record<string, unknown>[];
  for (const r of rows) out.set(r.key as string, toRecordRow(r));
  return out;
}

export function recordCount(sqlite: Database.Database, q: RecordRowQuery): number {
  const w = recordWhere(q);
  return (sqlite.prepare(`SELECT count(*) AS n FROM layout_records r ${w.sql}`).get(w.params) as { n: number }).n;
}

/** Finding codes on records with a finding, and how many records hold each (the inbox's kind facet). */
export function recordFindingKinds(
  sqlite: Database.Database,
  live: readonly string[],
): { code: string; check: string; memories: number }[] {
  return sqlite
    .prepare(
      `SELECT json_extract(f.value, '$.code') AS code, json_extract(f.value, '$.check') AS "check", count(DISTINCT r.id) AS memories
         FROM layout_records r, json_each(r.data, '$.findings') f
        WHERE r.source IN (SELECT value FROM json_each(?)) AND r.credential_count + r.personal_count + r.injection_count > 0
        GROUP BY 1, 2`,
    )
    .all(JSON.stringify(live)) as { code: string; check: string; memories: number }[];
}

/**
 * One page of memories and records together, in one sort (the inbox and the tier tabs).
 * `memory` is the memory side's WHERE on `memories m`; `memoryOnly` the existing,
 * index-tuned memory query, used unchanged whenever no record matches the filter.
 */
export function listRows(
  sqlite: Database.Database,
  opts: {
    memory: { sql: string; params: Record<string, unknown> };
    memoryOrder: string;
    records: RecordRowQuery;
    sort: Sort;
    dir: 'asc' | 'desc';
    limit: number;
    offset: number;
    memoryOnly: () => { items: MemoryListItem[]; total: number };
    memoryRows: (keys: string[]) => Map<string, MemoryListItem>;
  },
): { items: ListRow[]; total: number } {
  const recs = opts.records.live.length ? recordCount(sqlite, opts.records) : 0;
  if (recs === 0) return opts.memoryOnly();
  const rw = recordWhere(opts.records);
  const dir = opts.dir === 'desc' ? 'DESC' : 'ASC';
  const collate = opts.sort === 'name' ? ' COLLATE NOCASE' : '';
  const nulls = opts.sort === 'name' ? '' : ' NULLS LAST';
  const page = sqlite
    .prepare(
      `SELECT k, key FROM (
         SELECT 'm' AS k, m.key AS key, ${opts.memoryOrder} AS s FROM memories m ${opts.memory.sql}
         UNION ALL
         SELECT 'r' AS k, r.id AS key, ${RECORD_ORDER[opts.sort]} AS s FROM layout_records r ${rw.sql}
       ) ORDER BY s${collate} ${dir}${nulls}, key LIMIT @u_limit OFFSET @u_offset`,
    )
    .all({ ...opts.memory.params, ...rw.params, u_limit: opts.limit, u_offset: opts.offset }) as {
    k: 'm' | 'r';
    key: string;
  }[];
  const mem = opts.memoryRows(page.filter((p) => p.k === 'm').map((p) => p.key));
  const rec = recordRowsById(
    sqlite,
    page.filter((p) => p.k === 'r').map((p) => p.key),
  );
  const memTotal = (
    sqlite.prepare(`SELECT count(*) AS n FROM memories m ${opts.memory.sql}`).get(opts.memory.params) as { n: number }
  ).n;
  return {
    items: page.map((p) => (p.k === 'm' ? mem.get(p.key) : rec.get(p.key))).filter((x): x is ListRow => !!x),
    total: memTotal + recs,
  };
}
