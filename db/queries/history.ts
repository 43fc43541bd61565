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
