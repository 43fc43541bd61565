/**
 * The review inbox as one paged query (docs/review-inbox.md): the tier-table
 * filters plus layout, finding class and kind, age, and the inbox's own default
 * queue. Counts and pages are memoised until the database changes, like every view.
 *
 * Finding class is derived from the finding code with the validators' one rule
 * (findingClass): the distinct secret codes present are split once per database
 * version, and the filter becomes `code IN (…)` on the findings_code index
 * (migration 0011).
 */
import type Database from 'better-sqlite3';
import {
  COLUMNS,
  QUEUES,
  type SORTS,
  ftsQuery,
  toItem,
  where,
  type ListQuery,
  type MemoryListItem,
  type Queue,
} from './memories';
import { clockCutoffs } from './cutoffs';
import { memo } from './memo';
import { findingClass, type FindingClass } from '../../lib/validators/types';
import { DAY_MS, startOfUtcDay } from '../../lib/trust/dates';

export const INBOX_QUEUES = ['inbox', 'any', ...QUEUES] as const;
export type InboxQueue = (typeof INBOX_QUEUES)[number];
export const AGES = ['0-7', '8-30', '31-90', '91+'] as const;
export type Age = (typeof AGES)[number];
export const LAYOUTS = ['trust-root', 'claude-code'] as const;

export interface InboxQuery extends Omit<ListQuery, 'queue'> {
  queue?: InboxQueue;
  layout?: string;
  cls?: FindingClass;
  /** A finding code, e.g. `secret.private-ip`, `injection.persona-override`, `missing-required-field`. */
  kind?: string;
  age?: Age;
}

export interface InboxFacets {
  sources: { id: string; root: string; kind: string }[];
  kinds: { code: string; check: string; memories: number }[];
  classCodes: Record<FindingClass, string[]>;
}

export function inboxFacets(sqlite: Database.Database): InboxFacets {
  return memo(sqlite, 'inbox-facets', () => {
    const sources = sqlite.prepare('SELECT id, root, kind FROM sources ORDER BY root').all() as InboxFacets['sources'];
    const kinds = sqlite
      .prepare(
        'SELECT code, "check" AS "check", count(DISTINCT key) AS memories FROM findings GROUP BY code ORDER BY "check", code',
      )
      .all() as InboxFacets['kinds'];
    const classCodes: Record<FindingClass, string[]> = { credential: [], personal: [] };
    for (const k of kinds) if (k.check === 'secret') classCodes[findingClass(k.code)].push(k.code);
    return { sources, kinds, classCodes };
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
  const base = where(
    { ...q, queue: q.queue === 'inbox' || q.queue === 'any' ? undefined : (q.queue as Queue | undefined) },
    now,
  );
  const parts = base.sql ? [base.sql.replace(/^WHERE /, '')] : [];
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
  if (q.cls) {
    const codes = inboxFacets(sqlite).classCodes[q.cls];
    if (codes.length === 0) parts.push('0');
    else {
      parts.push(`m.key IN (SELECT key FROM findings WHERE code IN (${codes.map((_, i) => `@cls${i}`).join(', ')}))`);
      for (const [i, code] of codes.entries()) params[`cls${i}`] = code;
    }
  }
  if (q.kind) {
    parts.push('m.key IN (SELECT key FROM findings WHERE code = @kind)');
    params.kind = q.kind;
  }
  if (q.age) {
    const today = startOfUtcDay(now).getTime() + DAY_MS - 1;
    const [lo, hi] = { '0-7': [0, 7], '8-30': [8, 30], '31-90': [31, 90], '91+': [91, null] }[q.age] as [
      number,
      number | null,
    ];
    const ageBase =
      "(CASE WHEN m.tier IN ('quarantined', 'archived') THEN m.quarantine_since_ms ELSE m.created_ms END)";
    // Age in whole UTC days: day d covers (today_end - (d+1) days, today_end - d days].
    parts.push(`${ageBase} <= @ageNewest`);
    params.ageNewest = today - lo * DAY_MS;
    if (hi !== null) {
      parts.push(`${ageBase} > @ageOldest`);
      params.ageOldest = today - (hi + 1) * DAY_MS;
    }
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
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
  items: MemoryListItem[];
  total: number;
}

export function listInbox(sqlite: Database.Database, q: InboxQuery, now: Date): InboxPage {
  const clock = JSON.stringify(clockCutoffs(now));
  return memo(sqlite, `inbox:${JSON.stringify(q)}:${clock}`, () => {
    const w = inboxWhere(sqlite, q, now);
    // Which index serves best (measured at 100k, bench/inbox.ts): selective filters (finding
    // kind or class, full-text search) start from their own index. Otherwise the page of keys
    // sorted by name walks memories_inbox (migration 0011) in order and stops early; other
    // sorts and the count let the planner pick a tier index — except with a root or layout
    // filter, where that index would read the wide rows for `source`, and the narrow covering
    // memories_inbox is cheaper.
    const selective = !!(q.kind || q.cls || (q.q && ftsQuery(q.q)));
    const hinted = 'memories m INDEXED BY memories_inbox';
    const keysFrom = !selective && (q.sort ?? 'name') === 'name' ? hinted : 'memories m';
    const countFrom = !selective && (q.source || q.layout) ? hinted : 'memories m';
    const sort = ORDER[q.sort ?? 'name'];
    const dir = q.dir === 'desc' ? 'DESC' : 'ASC';
    const limit = Math.min(Math.max(q.limit ?? 50, 1), 500);
    const offset = Math.max(q.offset ?? 0, 0);
    // Keys first, from the covering index memories_inbox (migration 0011); then only those rows.
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
        .prepare(`SELECT ${COLUMNS} FROM memories m WHERE m.key IN (${keys.map(() => '?').join(', ')})`)
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
  });
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
      'SELECT m.body AS body, s.kind AS layout FROM memories m LEFT JOIN sources s ON s.id = m.source WHERE m.key = ?',
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

export function inboxRowByKey(sqlite: Database.Database, key: string): MemoryListItem | undefined {
  const r = sqlite.prepare(`SELECT ${COLUMNS} FROM memories m WHERE m.key = ?`).get(key) as
    | Record<string, unknown>
    | undefined;
  return r ? toItem(r) : undefined;
}
