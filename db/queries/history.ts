/** Audit events from the SQLite mirror, newest first. */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client';
import { auditEvents } from '../schema';
import type { AuditFindingRef } from '../../lib/audit/event';
import type { AuditEventItem } from './audit-events';

/** One event as the memory timeline shows it: the audit page's item without paging fields. */
export type HistoryItem = Omit<AuditEventItem, 'seq' | 'atMs'>;

/**
 * `sources` scopes the events to the configured roots (docs/audit-trail.md; docs/roots.md): a
 * filename alone never matches across roots — pass `source` with `memory`.
 */
export function history(
  db: Db,
  opts: { memory?: string; source?: string; sources?: string[]; limit?: number; offset?: number } = {},
): HistoryItem[] {
  const conds = [];
  if (opts.memory) conds.push(eq(auditEvents.memory, opts.memory));
  if (opts.source) conds.push(eq(auditEvents.source, opts.source));
  if (opts.sources) conds.push(inArray(auditEvents.source, opts.sources));
  const rows = db
    .select()
    .from(auditEvents)
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(desc(auditEvents.atMs), desc(auditEvents.seq))
    .limit(opts.limit ?? 200)
    .offset(opts.offset ?? 0)
    .all();
  return rows.map((r) => ({
    id: r.id,
    source: r.source,
    at: r.at,
    machine: r.machine,
    actor: r.actor,
    action: r.action,
    memory: r.memory,
    from: r.fromTier,
    to: r.toTier,
    reason: r.reason,
    findings: safeJson(r.findings),
    recovered: r.recovered,
    batch: r.batch,
    layout: r.layout,
    recordAction: r.recordAction,
  }));
}

const SCAN_FROM_ROWS = 10_000;

/**
 * The same events as `history`, for listings of hundreds of thousands (`memtrust history`):
 * one SELECT of the columns an item has, as positional rows, each made into the item with
 * one literal (docs/performance.md, "memtrust history"). `recovered` reads as drizzle's
 * boolean mode reads it (1 is true).
 */
export function historyItems(
  sqlite: import('better-sqlite3').Database,
  opts: { memory?: string; source?: string; sources?: string[]; limit?: number; offset?: number } = {},
): HistoryItem[] {
  const conds: string[] = [];
  const params: unknown[] = [];
  if (opts.memory) {
    conds.push('memory = ?');
    params.push(opts.memory);
  }
  if (opts.source) {
    conds.push('source = ?');
    params.push(opts.source);
  }
  if (opts.sources) {
    // drizzle's inArray of an empty list matches nothing.
    conds.push(opts.sources.length ? `source IN (${opts.sources.map(() => '?').join(', ')})` : '0');
    params.push(...opts.sources);
  }
  const where = conds.length ? ` WHERE ${conds.join(' AND ')}` : '';
  // Past SCAN_FROM_ROWS events one pass over the table and a sort beat the index's random
  // lookups (2–3× at 160,000 events; docs/performance.md, "memtrust history").
  const probe = (
    sqlite
      .prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM audit_events${where} LIMIT ${SCAN_FROM_ROWS})`)
      .get(...params) as { n: number }
  ).n;
  const rows = sqlite
    .prepare(
      `SELECT id, source, at, machine, actor, action, memory, from_tier, to_tier, reason, findings, recovered, batch, layout, record_action FROM audit_events${probe < SCAN_FROM_ROWS ? '' : ' NOT INDEXED'}${where} ORDER BY at_ms DESC, seq DESC LIMIT ? OFFSET ?`,
    )
    .raw()
    .all(...params, opts.limit ?? 200, opts.offset ?? 0) as unknown[][];
  return rows.map((r) => ({
    id: r[0] as string,
    source: r[1] as string,
    at: r[2] as string,
    machine: r[3] as string,
    actor: r[4] as HistoryItem['actor'],
    action: r[5] as HistoryItem['action'],
    memory: r[6] as string,
    from: r[7] as HistoryItem['from'],
    to: r[8] as HistoryItem['to'],
    reason: r[9] as string | null,
    findings: safeJson(r[10] as string),
    recovered: Number(r[11]) === 1,
    batch: r[12] as string | null,
    layout: r[13] as string | null,
    recordAction: r[14] as string | null,
  }));
}

function safeJson(text: string): AuditFindingRef[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** sha256 the last event left the file with: a different sha on disk means an edit outside memtrust. */
export function lastAfterSha(sqlite: import('better-sqlite3').Database, source: string, memory: string): string | null {
  const r = sqlite
    .prepare(
      'SELECT after_sha256 AS sha FROM audit_events WHERE source = ? AND memory = ? ORDER BY at_ms DESC, seq DESC LIMIT 1',
    )
    .get(source, memory) as { sha: string | null } | undefined;
  return r?.sha ?? null;
}
