/** The events of one batch, from the SQLite mirror (docs/batches.md). */
import type Database from 'better-sqlite3';
import { parseFindings, type AuditEventItem } from './audit-events';

export function eventsOfBatch(sqlite: Database.Database, batch: string): AuditEventItem[] {
  const rows = sqlite
    .prepare(
      `SELECT e.seq, e.id, e.source, e.at, e.at_ms AS atMs, e.machine, e.actor, e.action, e.memory, e.from_tier AS "from", e.to_tier AS "to",
              e.reason, e.findings, e.recovered, e.batch
       FROM audit_events e WHERE e.batch = ? ORDER BY e.seq LIMIT 100000`,
    )
    .all(batch) as Record<string, unknown>[];
  return rows.map((r) => ({
    ...(r as unknown as AuditEventItem),
    findings: parseFindings(r.findings),
    recovered: !!r.recovered,
  }));
}
