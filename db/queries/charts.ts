/**
 * Numbers behind the audit charts, computed in SQL against an injected "now".
 * Day counts follow lib/trust: whole UTC days for last-verified and quarantine
 * age (day 91+ stale / archive candidate), elapsed days for observation (due at
 * exactly 7 × 24 h). Weeks start on Monday, UTC.
 */
import { FILE_ENTRY, RECORD_ENTRY } from './entry-kind';
import type Database from 'better-sqlite3';
import { AUDIT_ACTIONS } from '../../lib/audit/event';
import { DAY_MS, isoNow } from '../../lib/trust/dates';
import { EFFECTIVE_TIERS } from '../../lib/trust/tiers';
import type { AuditFilter } from '../../lib/report/filters';
import { auditWhere } from './audit-events';

export const WEEK_MS = 7 * DAY_MS;
/** 1970-01-05, the first Monday of the epoch. */
const MONDAY0 = 4 * DAY_MS;
export const TIER_KEYS = EFFECTIVE_TIERS;
type TierKey = (typeof TIER_KEYS)[number];

export function weekStart(ms: number): number {
  return Math.floor((ms - MONDAY0) / WEEK_MS) * WEEK_MS + MONDAY0;
}
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface Bucket {
  label: string;
  min: number;
  /** Inclusive; null = open-ended. min -1 is the "never verified" bucket. */
  max: number | null;
  zone: 'ok' | 'stale' | 'observing' | 'due' | 'passive' | 'audit' | 'archive';
  count: number;
}
type Def = Omit<Bucket, 'count'>;
const def = (min: number, max: number | null, zone: Bucket['zone'], label?: string): Def => ({
  label: label ?? (max === null ? `${min}+` : min === max ? `day ${min}` : `${min}–${max}`),
  min,
  max,
  zone,
});

export const VERIFIED_BUCKETS: Def[] = [
  ...[0, 16, 31, 46, 61, 76].map((m) => def(m, m === 0 ? 15 : m + 14, 'ok')),
  def(91, 120, 'stale'),
  def(121, 180, 'stale'),
  def(181, 365, 'stale'),
  def(366, null, 'stale'),
  def(-1, -1, 'stale', 'never'),
];
export const INFERRED_BUCKETS: Def[] = [
  ...[0, 1, 2, 3, 4, 5, 6].map((d) => def(d, d, 'observing')),
  def(7, 13, 'due'),
  def(14, 29, 'due'),
  def(30, null, 'due'),
];
export const QUARANTINE_BUCKETS: Def[] = [
  def(0, 10, 'passive'),
  def(11, 20, 'passive'),
  def(21, 30, 'passive'),
  def(31, 45, 'audit'),
  def(46, 60, 'audit'),
  def(61, 75, 'audit'),
  def(76, 90, 'audit'),
  def(91, 120, 'archive'),
  def(121, 180, 'archive'),
  def(181, null, 'archive'),
];

export type TransitionWeek = { week: string; total: number } & Record<string, number | string>;
export type TierPoint = { week: string } & Record<TierKey, number>;
export interface FindingCategory {
  check: string;
  code: string;
  label: string;
  findings: number;
  memories: number;
}

export interface ChartsData {
  now: string;
  /** Monday of the first week shown, and how many weeks. */
  from: string;
  weeks: number;
  actions: string[];
  transitions: TransitionWeek[];
  tiers: TierPoint[];
  verified: Bucket[];
  inferred: Bucket[];
  quarantine: Bucket[];
  findings: FindingCategory[];
}

/** Weeks shown: the filter's date range, else the 12 weeks up to now; at most two years. */
export function chartWindow(now: Date, f: AuditFilter, defaultWeeks = 12): { first: number; weeks: number } {
  const end = Math.min(now.getTime(), f.toMs !== undefined ? f.toMs - 1 : Infinity);
  const last = weekStart(end);
  let first = f.fromMs !== undefined ? Math.min(weekStart(f.fromMs), last) : last - (defaultWeeks - 1) * WEEK_MS;
  first = Math.max(first, last - 103 * WEEK_MS);
  return { first, weeks: (last - first) / WEEK_MS + 1 };
}

/** The memory files a chart counts: by root and type, as the filter says. */
function memoryWhere(f: AuditFilter): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = [`m.${FILE_ENTRY}`];
  const params: Record<string, unknown> = {};
  if (f.source) {
    parts.push('m.source = @source');
    params.source = f.source;
  }
  if (f.type) {
    parts.push('m.type = @type');
    params.type = f.type;
  }
  return { sql: parts.join(' AND '), params };
}

/**
 * The memory files and the records the charts count (docs/dashboard.md "Charts"): records
 * those of the configured roots in `scope` (a page or report passes it), by root and type
 * like memories. Without a scope no record is counted (rows of a root no longer configured
 * stay out).
 */
function entryWhere(f: AuditFilter): { sql: string; params: Record<string, unknown> } {
  const m = memoryWhere(f);
  if (!f.scope) return m;
  const kinds = `(m.${FILE_ENTRY} OR (m.${RECORD_ENTRY} AND m.source IN (SELECT value FROM json_each(@scope))))`;
  return { sql: m.sql.replace(`m.${FILE_ENTRY}`, kinds), params: { ...m.params, scope: JSON.stringify(f.scope) } };
}
const and = (...parts: string[]) => parts.filter(Boolean).join(' AND ');

const VERIFIED_DAYS =
  'CASE WHEN m.last_verified_ms IS NULL THEN -1 ELSE max(0, CAST(@today AS INTEGER) - m.last_verified_ms / 86400000) END';

/** A record's day count where it differs from a memory's, else the memory's (a record has the clocks it has). */
const byKind = (file: string, record?: string) =>
  record && record !== file ? `CASE WHEN m.${RECORD_ENTRY} THEN ${record} ELSE ${file} END` : file;

function histogram(
  sqlite: Database.Database,
  f: AuditFilter,
  tier: string,
  dayExpr: string,
  defs: Def[],
  extra: Record<string, number>,
  /** The same day count for a record row, when records have the clock this chart reads (none: memories only). */
  recordDayExpr?: string,
): Bucket[] {
  const w = recordDayExpr ? entryWhere(f) : memoryWhere(f);
  const rows = sqlite
    .prepare(
      `SELECT ${byKind(dayExpr, recordDayExpr)} AS d, count(*) AS n FROM entries m WHERE ${and('m.tier = @tier', w.sql)} GROUP BY d`,
    )
    .all({ ...w.params, ...extra, tier }) as { d: number | null; n: number }[];
  const out = defs.map((d) => ({ ...d, count: 0 }));
  for (const r of rows) {
    const d = r.d ?? -1;
    const b = out.find((x) => d >= x.min && (x.max === null || d <= x.max));
    if (b) b.count += r.n;
  }
  return out;
}

export function transitionsPerWeek(
  sqlite: Database.Database,
  f: AuditFilter,
  win: { first: number; weeks: number },
): TransitionWeek[] {
  const end = win.first + win.weeks * WEEK_MS;
  const w = auditWhere({
    ...f,
    fromMs: Math.max(f.fromMs ?? -Infinity, win.first),
    toMs: Math.min(f.toMs ?? Infinity, end),
  });
  const rows = sqlite
    .prepare(
      `SELECT CAST((e.at_ms - @first) / ${WEEK_MS} AS INTEGER) AS wk, e.action AS action, count(*) AS n FROM audit_events e ${w.sql} GROUP BY wk, e.action`,
    )
    .all({ ...w.params, first: win.first }) as { wk: number; action: string; n: number }[];
  const out: TransitionWeek[] = Array.from({ length: win.weeks }, (_, k) => {
    const week: TransitionWeek = { week: ymd(win.first + k * WEEK_MS), total: 0 };
    for (const a of AUDIT_ACTIONS) week[a] = 0;
    return week;
  });
  for (const r of rows) {
    const week = out[r.wk];
    if (!week) continue;
    week[r.action] = Number(week[r.action] ?? 0) + r.n;
    week.total += r.n;
  }
  return out;
}

/** Tier counts at the end of each week: today's counts, with later events undone one week at a time. */
export function tierHistory(
  sqlite: Database.Database,
  f: AuditFilter,
  win: { first: number; weeks: number },
): TierPoint[] {
  // Records of the configured record roots count in their tiers too: their events are in the trail below.
  const m = entryWhere(f);
  const current: Record<string, number> = {};
  const cur = sqlite
    .prepare(`SELECT m.tier AS tier, count(*) AS n FROM entries m WHERE ${m.sql} GROUP BY m.tier`)
    .all(m.params) as { tier: string; n: number }[];
  for (const r of cur) current[r.tier] = r.n;
  const e = auditWhere({ source: f.source, type: f.type, scope: f.scope, fromMs: win.first + WEEK_MS });
  const rows = sqlite
    .prepare(
      `SELECT CAST((e.at_ms - @first) / ${WEEK_MS} AS INTEGER) AS wk, e.from_tier AS "from", e.to_tier AS "to", count(*) AS n FROM audit_events e ${e.sql} GROUP BY wk, e.from_tier, e.to_tier ORDER BY wk DESC`,
    )
    .all({ ...e.params, first: win.first }) as { wk: number; from: string | null; to: string | null; n: number }[];
  const counts: Record<string, number> = { ...current };
  const points: TierPoint[] = [];
  let i = 0;
  for (let k = win.weeks - 1; k >= 0; k--) {
    // Undo every event after the end of week k (wk > k).
    for (; i < rows.length && rows[i]!.wk > k; i++) {
      const r = rows[i]!;
      if (r.to) counts[r.to] = (counts[r.to] ?? 0) - r.n;
      if (r.from) counts[r.from] = (counts[r.from] ?? 0) + r.n;
    }
    const p = { week: ymd(win.first + k * WEEK_MS) } as TierPoint;
    for (const t of TIER_KEYS) p[t] = Math.max(0, counts[t] ?? 0);
    points.unshift(p);
  }
  return points;
}

export function findingCategories(sqlite: Database.Database, f: AuditFilter): FindingCategory[] {
  const w = memoryWhere(f);
  const join = f.source || f.type ? `JOIN entries m ON m.key = f.key WHERE ${w.sql} AND` : 'WHERE';
  return sqlite
    .prepare(
      `SELECT f."check" AS "check", f.code AS code, max(f.label) AS label, count(*) AS findings, count(DISTINCT f.key) AS memories
       FROM findings f ${join} f.label <> 'PASS' GROUP BY f."check", f.code ORDER BY findings DESC, f."check", f.code`,
    )
    .all(w.params) as FindingCategory[];
}

export function chartsData(sqlite: Database.Database, f: AuditFilter, now: Date, defaultWeeks = 12): ChartsData {
  const win = chartWindow(now, f, defaultWeeks);
  const today = Math.floor(now.getTime() / DAY_MS);
  const transitions = transitionsPerWeek(sqlite, f, win);
  return {
    now: isoNow(now),
    from: ymd(win.first),
    weeks: win.weeks,
    actions: AUDIT_ACTIONS.filter((a) => transitions.some((t) => Number(t[a]) > 0)),
    transitions,
    tiers: tierHistory(sqlite, f, win),
    verified: histogram(
      sqlite,
      f,
      'verified',
      VERIFIED_DAYS,
      VERIFIED_BUCKETS,
      { today },
      // A record's last_verified_ms is its verifiedAt (lib/service/records/read.ts): the same count.
      VERIFIED_DAYS,
    ),
    inferred: histogram(
      sqlite,
      f,
      'inferred',
      'max(0, CAST((CAST(@nowMs AS INTEGER) - m.created_ms) / 86400000 AS INTEGER))',
      INFERRED_BUCKETS,
      { nowMs: now.getTime() },
      // A record's created_ms is 0 when the store gives no date (lib/service/records/read.ts): day 0.
      'CASE WHEN m.created_ms = 0 THEN 0 ELSE max(0, CAST((CAST(@nowMs AS INTEGER) - m.created_ms) / 86400000 AS INTEGER)) END',
    ),
    quarantine: histogram(
      sqlite,
      f,
      'quarantined',
      'max(0, CAST(@today AS INTEGER) - coalesce(m.quarantine_since_ms, 0) / 86400000)',
      QUARANTINE_BUCKETS,
      { today },
    ),
    findings: findingCategories(sqlite, f),
  };
}
