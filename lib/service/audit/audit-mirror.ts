/**
 * Mirrors audit files into SQLite, reading only what was appended since the last scan. The
 * scan mirrors every root, memory roots and record roots alike (docs/records.md, "History
 * and reports"), so a rebuilt database loses no event.
 */
import type Database from 'better-sqlite3';
import type { AuditEvent } from '../../audit/event';
import { listAuditFiles, readAuditFrom } from './audit-log';
import { withBulkLoad } from '../index/bulk-load';

/** A first mirror of at least this many events builds the table's indexes once at the end. */
const BULK_EVENTS = 2000;

export function eventInserter(sqlite: Database.Database) {
  // An event already mirrored is kept; one mirrored before migration 0013 gets its record columns filled.
  const stmt = sqlite.prepare(`INSERT INTO audit_events
    (id, source, at, at_ms, machine, actor, action, memory, from_tier, to_tier, reason, findings, before_sha256, after_sha256, recovered, batch, layout, record_action)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (source, id) DO UPDATE SET layout = excluded.layout, record_action = excluded.record_action
    WHERE audit_events.layout IS NULL AND excluded.layout IS NOT NULL`);
  return (source: string, e: AuditEvent) =>
    stmt.run(
      e.id,
      source,
      e.at,
      Date.parse(e.at) || 0,
      e.machine ?? '',
      e.actor ?? 'system',
      e.action ?? '',
      e.memory,
      e.from ?? null,
      e.to ?? null,
      e.reason ?? null,
      JSON.stringify(e.findings ?? []),
      e.before_sha256 ?? null,
      e.after_sha256 ?? null,
      e.recovered ? 1 : 0,
      typeof e.batch === 'string' ? e.batch : null,
      typeof e.layout === 'string' ? e.layout : null,
      typeof e.record_action === 'string' ? e.record_action : null,
    );
}

export function mirrorAudit(sqlite: Database.Database, source: string, root: string): number {
  const getCursor = sqlite.prepare('SELECT offset, size FROM audit_cursors WHERE file = ?');
  const setCursor = sqlite.prepare(
    'INSERT OR REPLACE INTO audit_cursors (file, source, offset, size) VALUES (?, ?, ?, ?)',
  );
  const insert = eventInserter(sqlite);
  let added = 0;
  for (const file of listAuditFiles(root)) {
    const cur = getCursor.get(file) as { offset: number; size: number } | undefined;
    let offset = cur?.offset ?? 0;
    let chunk: ReturnType<typeof readAuditFrom>;
    try {
      chunk = readAuditFrom(file, offset);
      // A file that shrank was replaced (e.g. by a sync): read it again from the start.
      if (chunk.size < offset) {
        offset = 0;
        chunk = readAuditFrom(file, offset);
      }
    } catch {
      continue;
    }
    if (chunk.end === offset) continue;
    const bulk =
      chunk.events.length >= BULK_EVENTS &&
      !sqlite.prepare('SELECT 1 FROM audit_events WHERE source = ? LIMIT 1').get(source);
    const mirror = () =>
      sqlite.transaction(() => {
        for (const e of chunk.events) added += insert(source, e).changes;
        setCursor.run(file, source, chunk.end, chunk.size);
      })();
    if (bulk) withBulkLoad(sqlite, ['audit_events'], mirror);
    else mirror();
  }
  return added;
}
