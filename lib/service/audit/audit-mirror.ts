/** Mirrors audit files into SQLite, reading only what was appended since the last scan. */
import type Database from 'better-sqlite3';
import type { AuditEvent } from '../../audit/event';
import { listAuditFiles, readAuditFrom } from './audit-log';

export function eventInserter(sqlite: Database.Database) {
  const stmt = sqlite.prepare(`INSERT OR IGNORE INTO audit_events
    (id, source, at, at_ms, machine, actor, action, memory, from_tier, to_tier, reason, findings, before_sha256, after_sha256, recovered, batch)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
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
    sqlite.transaction(() => {
      for (const e of chunk.events) added += insert(source, e).changes;
      setCursor.run(file, source, chunk.end, chunk.size);
    })();
  }
  return added;
}
