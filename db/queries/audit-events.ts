/**
 * The audit timeline: events of every machine (the mirror merges the per-machine
 * JSONL files), filtered in SQL and always paged — a page never loads all rows.
 */
import { FILE_ENTRY, FILE_SOURCE } from './entry-kind';
import type Database from 'better-sqlite3';
import type { AuditFindingRef } from '../../lib/audit/event';
import type { AuditFilter } from '../../lib/report/filters';

export interface AuditEventItem {
  seq: number;
  id: string;
  source: string;
  at: string;
  atMs: number;
  machine: string;
  actor: string;
  action: string;
  memory: string;
  from: string | null;
  to: string | null;
  reason: string | null;
  findings: AuditFindingRef[];
  recovered: boolean;
  /** The batch the event belongs to (null for events older than batches). */
  batch: string | null;
  /** A record event's layout (null for memory events); `memory` is then the record's key (docs/records.md, "History and reports"). */
  layout: string | null;
  /** The layout's own verb of a record event (`action` is `edit` when it is none of memtrust's). */
  recordAction: string | null;
}

/** WHERE clause over `audit_events e`; the type filter matches events to memories by (source, filename). */
export function auditWhere(f: AuditFilter): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  const eq = (col: string, key: keyof AuditFilter) => {
    if (f[key] === undefined) return;
    parts.push(`${col} = @${key}`);
    params[key] = f[key];
  };
  eq('e.action', 'action');
  eq('e.actor', 'actor');
  eq('e.machine', 'machine');
  eq('e.source', 'source');
  if (f.scope) {
    // `+` keeps SQLite from answering the scope through audit_memory (source, memory) and then
    // sorting every event of the roots by time (0.3 s at 163,000 events): the page walks
    // audit_at newest first and filters, stopping at the page's end (docs/performance-pages.md).
    parts.push('+e.source IN (SELECT value FROM json_each(@scope))');
    params.scope = JSON.stringify(f.scope);
  }
  if (f.memory) {
    parts.push('instr(lower(e.memory), lower(@memory)) > 0');
    params.memory = f.memory;
  }
  if (f.fromMs !== undefined) {
    parts.push('e.at_ms >= @fromMs');
    params.fromMs = f.fromMs;
  }
  if (f.toMs !== undefined) {
    parts.push('e.at_ms < @toMs');
    params.toMs = f.toMs;
  }
  if (f.type) {
    // A row-value IN over a materialised list: about twice as fast as a correlated EXISTS on 50k events.
    parts.push(
      `(e.source, e.memory) IN (SELECT m.source, m.filename FROM entries m WHERE m.type = @type AND m.${FILE_ENTRY})`,
    );
    params.type = f.type;
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

const COLUMNS = `e.seq, e.id, e.source, e.at, e.at_ms AS atMs, e.machine, e.actor, e.action, e.memory,
  e.from_tier AS "from", e.to_tier AS "to", e.reason, e.findings, e.recovered, e.batch,
  e.layout, e.record_action AS recordAction`;

function toItem(r: Record<string, unknown>): AuditEventItem {
  return { ...(r as unknown as AuditEventItem), findings: parseFindings(r.findings), recovered: !!r.recovered };
}

export function parseFindings(text: unknown): AuditFindingRef[] {
  if (typeof text !== 'string') return [];
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? (v as AuditFindingRef[]) : [];
  } catch {
    return [];
  }
}

/** Newest first; ties broken by mirror order (seq), which the `audit_at` index already provides. */
export function listAuditEvents(
  sqlite: Database.Database,
  f: AuditFilter,
  page: { limit: number; offset: number },
): { items: AuditEventItem[]; total: number } {
  const w = auditWhere(f);
  const limit = Math.min(Math.max(page.limit, 1), 10_000);
  const offset = Math.max(page.offset, 0);
  const items = sqlite
    .prepare(
      `SELECT ${COLUMNS} FROM audit_events e ${w.sql} ORDER BY e.at_ms DESC, e.seq DESC LIMIT @limit OFFSET @offset`,
    )
    .all({ ...w.params, limit, offset }) as Record<string, unknown>[];
  const total = (sqlite.prepare(`SELECT count(*) AS n FROM audit_events e ${w.sql}`).get(w.params) as { n: number }).n;
  return { items: items.map(toItem), total };
}

/**
 * The same selection in an order that does not depend on mirror order (seq
 * differs between an incremental and a rebuilt index): reports must be
 * byte-identical for the same files.
 */
export function auditEventsStable(
  sqlite: Database.Database,
  f: AuditFilter,
  limit: number,
): { items: AuditEventItem[]; total: number } {
  const w = auditWhere(f);
  const items = sqlite
    .prepare(`SELECT ${COLUMNS} FROM audit_events e ${w.sql} ORDER BY e.at_ms DESC, e.source, e.id LIMIT @limit`)
    .all({ ...w.params, limit: Math.max(limit, 0) }) as Record<string, unknown>[];
  const total = (sqlite.prepare(`SELECT count(*) AS n FROM audit_events e ${w.sql}`).get(w.params) as { n: number }).n;
  return { items: items.map(toItem), total };
}

/** Event counts per action for a selection (report summary). */
export function auditActionCounts(sqlite: Database.Database, f: AuditFilter): Record<string, number> {
  const w = auditWhere(f);
  const rows = sqlite
    .prepare(
      `SELECT e.action AS action, count(*) AS n FROM audit_events e ${w.sql} GROUP BY e.action ORDER BY e.action`,
    )
    .all(w.params) as { action: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.action, r.n]));
}

/** Machines that wrote events (filter menu); small, however many events there are. */
export function auditMachines(sqlite: Database.Database): string[] {
  return (
    sqlite.prepare('SELECT DISTINCT machine AS m FROM audit_events ORDER BY m LIMIT 200').all() as { m: string }[]
  ).map((r) => r.m);
}

/** Configured roots (filter menu). */
export function auditSources(sqlite: Database.Database): { id: string; root: string }[] {
  return sqlite.prepare(`SELECT id, root FROM sources WHERE ${FILE_SOURCE} ORDER BY root`).all() as {
    id: string;
    root: string;
  }[];
}
