/**
 * The review inbox as one paged query (docs/review-inbox.md): the tier-table
 * filters plus layout, finding class and kind, age, and the inbox's own default
 * queue. Counts and pages are memoised until the database changes, like every view.
 *
 * Finding class and kind are one rule with the tier tabs (db/queries/finding-filter.ts).
 */
import type Database from 'better-sqlite3';
import { COLUMNS, QUEUES, type SORTS, ftsQuery, toItem, where, type ListQuery, type Queue } from './memories';
import { clockCutoffs } from './cutoffs';
import { memo } from './memo';
import type { FindingClass } from '../../lib/validators/types';
import { classCodes, memoryFindingWhere } from './finding-filter';
import { DAY_MS, startOfUtcDay } from '../../lib/trust/dates';
import { LAYOUT_NAMES } from '../../lib/sources/record';
import {
  entryColumns,
  listRows,
  recordCount,
  RECORD_QUEUES,
  toEntryRow,
  type ListRow,
  type RecordRowQuery,
} from './record-rows';
import { FILE_ENTRY, FILE_SOURCE } from './entry-kind';

/** The memory queues, then the record-only flags as queues (db/queries/record-rows.ts). */
export const INBOX_QUEUES = ['inbox', 'any', ...QUEUES, ...RECORD_QUEUES] as const;
export type InboxQueue = (typeof INBOX_QUEUES)[number];
export const AGES = ['0-7', '8-30', '31-90', '91+'] as const;
export type Age = (typeof AGES)[number];
/** Every layout: the file layouts' rows are memories, the others' records (docs/records.md). */
export const LAYOUTS = LAYOUT_NAMES;

export interface InboxQuery extends Omit<ListQuery, 'queue'> {
  queue?: InboxQueue;
  layout?: string;
  cls?: FindingClass;
  /** A finding code, e.g. `secret.private-ip`, `injection.persona-override`, `missing-required-field`. */
  kind?: string;
  age?: Age;
  /**
   * The configured record roots whose records the list holds beside the memories
   * (docs/review-inbox.md "Records in the inbox"); unset, memories only.
   */
  recordSources?: readonly string[];
}

export interface InboxFacets {
  sources: { id: string; root: string; kind: string }[];
  kinds: { code: string; check: string; memories: number }[];
  classCodes: Record<FindingClass, string[]>;
}

export function inboxFacets(sqlite: Database.Database): InboxFacets {
  return memo(sqlite, 'inbox-facets', () => {
    const sources = sqlite
      .prepare(`SELECT id, root, kind FROM sources WHERE ${FILE_SOURCE} ORDER BY root`)
      .all() as InboxFacets['sources'];
    const kinds = sqlite
      .prepare(
        'SELECT code, "check" AS "check", count(DISTINCT key) AS memories FROM findings GROUP BY code ORDER BY "check", code',
      )
      .all() as InboxFacets['kinds'];
    return { sources, kinds, classCodes: classCodes(sqlite) };
  });
}

/**
 * "Needs a decision now" (docs/review-inbox.md "Inbox"): inferred past observation, verified
 * and stale, quarantined from day 31 (audit and archive candidates), conflicts. A memory
 * just demoted sits in its passive window (days 0–30) and needs nothing yet, so a promote
 * or a demote both take a memory out and the count shrinks as decisions are made.
 */
const INBOX_SQL = (c: ReturnType<typeof clockCutoffs>) =>
  `((m.tier = 'inferred' AND m.created_ms <= ${c.observedBefore}) OR (m.tier = 'verified' AND (m.last_verified_ms IS NULL OR m.last_verified_ms < ${c.staleBefore})) OR (m.tier = 'quarantined' AND m.quarantine_since_ms <= ${c.auditFrom}) OR m.conflict = 1)`;

function inboxWhere(
  sqlite: Database.Database,
  q: InboxQuery,
  now: Date,
): { sql: string; params: Record<string, unknown> } {
  const memoryQueue = (QUEUES as readonly string[]).includes(q.queue ?? '') ? (q.queue as Queue) : undefined;
  const base = where({ ...q, recordSources: undefined, queue: memoryQueue } as ListQuery, now);
  const parts = base.sql ? [base.sql.replace(/^WHERE /, '')] : [];
  // A record-only queue (a record flag) holds no memory.
  if (q.queue && !memoryQueue && q.queue !== 'inbox' && q.queue !== 'any') parts.push('0');
  const params = { ...base.params };
  if ((q.queue ?? 'inbox') === 'inbox') parts.push(INBOX_SQL(clockCutoffs(now)));
  if (q.layout) {
    // Few roots: their ids inline keep the planner on the inbox index.
    const ids = inboxFacets(sqlite)
      .sources.filter((s) => s.kind === q.layout)
      .map((s) => s.id);
    if (ids.length === 0) parts.push('0');
    else {
      parts.push(`m.source IN (${ids.map((_, i) => `@layout${i}`).join(', ')})`);
      for (const [i, id] of ids.entries()) params[`layout${i}`] = id;
    }
  }
  const found = memoryFindingWhere(sqlite, q);
  parts.push(...found.parts);
  Object.assign(params, found.params);
  if (q.age) {
    const [newest, oldest] = ageBounds(q.age, now);
    const ageBase =
      "(CASE WHEN m.tier IN ('quarantined', 'archived') THEN m.quarantine_since_ms ELSE m.created_ms END)";
    // Age in whole UTC days: day d covers (today_end - (d+1) days, today_end - d days].
    parts.push(`${ageBase} <= @ageNewest`);
    params.ageNewest = newest;
    if (oldest !== null) {
      parts.push(`${ageBase} > @ageOldest`);
      params.ageOldest = oldest;
    }
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** Age in whole UTC days: day d covers (today_end - (d+1) days, today_end - d days]. */
function ageBounds(age: Age, now: Date): [number, number | null] {
  const today = startOfUtcDay(now).getTime() + DAY_MS - 1;
  const [lo, hi] = { '0-7': [0, 7], '8-30': [8, 30], '31-90': [31, 90], '91+': [91, null] }[age] as [
    number,
    number | null,
  ];
  return [today - lo * DAY_MS, hi === null ? null : today - (hi + 1) * DAY_MS];
}

/** The record side of an inbox query (db/queries/record-rows.ts). */
function recordQuery(q: InboxQuery, now: Date): RecordRowQuery {
  return {
    live: q.recordSources ?? [],
    tier: q.tier,
    queue: q.queue ?? 'inbox',
    source: q.source,
    sources: q.sources,
    layout: q.layout,
    type: q.type,
    machine: q.machine,
    finding: q.finding,
    flag: q.flag,
    verdict: q.verdict,
    cls: q.cls,
    kind: q.kind,
    ageBounds: q.age ? ageBounds(q.age, now) : undefined,
    q: q.q,
  };
}

const ORDER: Record<(typeof SORTS)[number], string> = {
  name: 'coalesce(m.name, m.filename) COLLATE NOCASE',
  type: 'm.type',
  machine: 'm.source_machine',
  created: 'm.created_ms',
  verified: 'm.last_verified_ms',
  age: 'm.quarantine_since_ms',
  findings: 'm.finding_count',
  file: 'm.filename',
};

export interface InboxPage {
  items: ListRow[];
  total: number;
}

/**
 * One page of the inbox: memories and, when `recordSources` names record roots, their
 * records in the same sort (listRows); with no record matching, the memory query alone.
 */
export function listInbox(sqlite: Database.Database, q: InboxQuery, now: Date): InboxPage {
  const clock = JSON.stringify(clockCutoffs(now));
  return memo(sqlite, `inbox:${JSON.stringify(q)}:${clock}`, () =>
    listRows(sqlite, {
      memory: inboxWhere(sqlite, q, now),
      records: recordQuery(q, now),
      sort: q.sort ?? 'name',
      dir: q.dir === 'desc' ? 'desc' : 'asc',
      limit: Math.min(Math.max(q.limit ?? 50, 1), 500),
      offset: Math.max(q.offset ?? 0, 0),
      memoryOnly: () => listInboxMemories(sqlite, q, now),
    }),
  );
}

/**
 * `listInbox(…).total` without the page: the overview's first-hour steps show only the count
 * (lib/service/index/first-hour.ts). The page's keys walk the name index in order until
 * the page is full, so when few memories match they walk all of it: 40–120 ms at 40,000
 * rows, cold, in the first page after a start (docs/performance-pages.md).
 */
export function inboxTotal(sqlite: Database.Database, q: InboxQuery, now: Date): number {
  const clock = JSON.stringify(clockCutoffs(now));
  return memo(sqlite, `inbox-total:${JSON.stringify(q)}:${clock}`, () => {
    const records = recordQuery(q, now);
    const recs = records.live.length ? recordCount(sqlite, records) : 0;
    const w = inboxWhere(sqlite, q, now);
    // The same index choice as the page's count (listInboxMemories).
    const selective = !!(q.kind || q.cls || (q.q && ftsQuery(q.q)));
    const from = !selective && (q.source || q.layout) ? 'entries m INDEXED BY entries_inbox' : 'entries m';
    return recs + (sqlite.prepare(`SELECT count(*) AS n FROM ${from} ${w.sql}`).get(w.params) as { n: number }).n;
  });
}

/** The memories-only page, index-tuned (bench/inbox.ts). */
function listInboxMemories(sqlite: Database.Database, q: InboxQuery, now: Date): InboxPage {
  {
    const w = inboxWhere(sqlite, q, now);
    // Which index serves best (measured at 100k, bench/inbox.ts): selective filters (finding
    // kind or class, full-text search) start from their own index. Otherwise the page of keys
    // sorted by name walks entries_inbox (migration 0011) in order and stops early; other
    // sorts and the count let the planner pick a tier index — except with a root or layout
    // filter, where that index would read the wide rows for `source`, and the narrow covering
    // entries_inbox is cheaper.
    const selective = !!(q.kind || q.cls || (q.q && ftsQuery(q.q)));
    const hinted = 'entries m INDEXED BY entries_inbox';
    const keysFrom = !selective && (q.sort ?? 'name') === 'name' ? hinted : 'entries m';
    const countFrom = !selective && (q.source || q.layout) ? hinted : 'entries m';
    const sort = ORDER[q.sort ?? 'name'];
    const dir = q.dir === 'desc' ? 'DESC' : 'ASC';
    const limit = Math.min(Math.max(q.limit ?? 50, 1), 500);
    const offset = Math.max(q.offset ?? 0, 0);
    // Keys first, from the covering index entries_inbox (migration 0011); then only those rows.
    const keys = (
      sqlite
        .prepare(
          `SELECT m.key AS key FROM ${keysFrom} ${w.sql} ORDER BY ${sort} ${dir}${q.sort === 'name' || !q.sort ? '' : ' NULLS LAST'}, m.key LIMIT @limit OFFSET @offset`,
        )
        .all({ ...w.params, limit, offset }) as { key: string }[]
    ).map((r) => r.key);
    const byKey = new Map<string, Record<string, unknown>>();
    if (keys.length) {
      const rows = sqlite
        .prepare(`SELECT ${COLUMNS} FROM entries m WHERE m.key IN (${keys.map(() => '?').join(', ')})`)
        .all(...keys) as Record<string, unknown>[];
      for (const r of rows) byKey.set(r.key as string, r);
    }
    const total = (sqlite.prepare(`SELECT count(*) AS n FROM ${countFrom} ${w.sql}`).get(w.params) as { n: number }).n;
    return {
      items: keys
        .map((k) => byKey.get(k))
        .filter((r): r is Record<string, unknown> => !!r)
        .map(toItem),
      total,
    };
  }
}

export interface StoredFinding {
  check: string;
  code: string;
  label: string;
  line: number | null;
  message: string;
}

/** The preview pane's data: the body as the index stores it (secret lines withheld) and the findings. */
export function inboxPreview(
  sqlite: Database.Database,
  key: string,
): { body: string; findings: StoredFinding[]; layout: string | null } | null {
  const row = sqlite
    .prepare(
      `SELECT m.body AS body, s.kind AS layout FROM entries m LEFT JOIN sources s ON s.id = m.source WHERE m.key = ? AND m.${FILE_ENTRY}`,
    )
    .get(key) as { body: string; layout: string | null } | undefined;
  if (!row) return null;
  const findings = sqlite
    .prepare('SELECT "check" AS "check", code, label, line, message FROM findings WHERE key = ? ORDER BY line, code')
    .all(key) as StoredFinding[];
  return { body: row.body, findings, layout: row.layout };
}

/** Secret-finding codes per memory key on one page (for the "flagged" column). */
export function pageFindingCodes(
  sqlite: Database.Database,
  keys: string[],
): Map<string, { code: string; check: string }[]> {
  const out = new Map<string, { code: string; check: string }[]>();
  if (keys.length === 0) return out;
  const rows = sqlite
    .prepare(
      `SELECT DISTINCT key, code, "check" AS "check" FROM findings WHERE key IN (${keys.map(() => '?').join(', ')})`,
    )
    .all(...keys) as { key: string; code: string; check: string }[];
  for (const r of rows) {
    const list = out.get(r.key) ?? [];
    list.push({ code: r.code, check: r.check });
    out.set(r.key, list);
  }
  return out;
}

/** A memory row by key or a record row by id: one row of the one table. */
export function inboxRowByKey(sqlite: Database.Database, key: string): ListRow | undefined {
  const r = sqlite.prepare(`SELECT ${entryColumns()} FROM entries m WHERE m.key = ?`).get(key) as
    | Record<string, unknown>
    | undefined;
  return r ? toEntryRow(r) : undefined;
}
