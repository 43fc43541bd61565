/**
 * Mirrors audit files into SQLite, reading only what was appended since the last scan. The
 * scan mirrors every root, memory roots and record roots alike (docs/records.md, "History
 * and reports"), so a rebuilt database loses no event.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import type { AuditEvent } from '../../audit/event';
import { type AuditBytes, eachAuditEvent, listAuditFiles, readAuditBytes } from './audit-log';
import { withBulkLoad } from '../index/bulk-load';

/**
 * A first mirror of a root whose files hold at least this much (about 2,000 events) builds
 * the table's indexes once at the end.
 */
const BULK_BYTES = 512 * 1024;

const COLUMNS = `(id, source, at, at_ms, machine, actor, action, memory, from_tier, to_tier, reason, findings,
    before_sha256, after_sha256, recovered, batch, layout, record_action)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** One event's column values, in COLUMNS' order. */
function eventValues(source: string, e: AuditEvent): unknown[] {
  return [
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
  ];
}

export function eventInserter(sqlite: Database.Database) {
  // An event already mirrored is kept; one mirrored before migration 0013 gets its record columns filled.
  const stmt = sqlite.prepare(`INSERT INTO audit_events ${COLUMNS}
    ON CONFLICT (source, id) DO UPDATE SET layout = excluded.layout, record_action = excluded.record_action
    WHERE audit_events.layout IS NULL AND excluded.layout IS NOT NULL`);
  return (source: string, e: AuditEvent) => stmt.run(...eventValues(source, e));
}

/** The unique index an event's (source, id) is checked against (migration 0000). */
const UNIQUE_INDEX = 'audit_op';

/**
 * Runs `fn` (plain inserts) with the unique (source, id) index dropped and built once at the
 * end, all in one transaction. Keeping that index current row by row was half the mirror's
 * time at 160,000 events: operation ids are random, so each insert lands somewhere else in
 * it (docs/performance.md, "The audit mirror"). A plain insert differs from the upsert only
 * on a (source, id) already there; then building the index fails, the transaction rolls
 * back, and this returns null for the caller to mirror row by row instead.
 */
function withUniqueLater(sqlite: Database.Database, fn: () => number): number | null {
  const index = sqlite.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(UNIQUE_INDEX) as
    | { sql: string | null }
    | undefined;
  if (!index?.sql) return null;
  try {
    return sqlite.transaction(() => {
      sqlite.exec(`DROP INDEX "${UNIQUE_INDEX}"`);
      const added = fn();
      sqlite.exec(index.sql!);
      return added;
    })();
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return null;
    throw err;
  }
}

/** How often (in events) a long mirror calls its `tick`. */
const TICK_EVENTS = 4096;

/**
 * `tick`: called every TICK_EVENTS events, inside the mirror's transaction; it must not use
 * the database (the scan reports the workers' progress from it: docs/performance.md, "Both cores").
 */
export function mirrorAudit(sqlite: Database.Database, source: string, root: string, tick?: () => void): number {
  const getCursor = sqlite.prepare('SELECT offset, size FROM audit_cursors WHERE file = ?');
  const setCursor = sqlite.prepare(
    'INSERT OR REPLACE INTO audit_cursors (file, source, offset, size) VALUES (?, ?, ?, ?)',
  );
  const files = listAuditFiles(root);
  /**
   * Mirrors what was appended to each file since its cursor, one transaction per file. The
   * events are parsed as they are inserted, so none outlives its row (at 160,000 events,
   * holding them all cost more garbage collection than the parse).
   */
  let seen = 0;
  const mirrorFiles = (put: (e: AuditEvent) => number): number => {
    let added = 0;
    for (const file of files) {
      const cur = getCursor.get(file) as { offset: number; size: number } | undefined;
      let offset = cur?.offset ?? 0;
      let bytes: AuditBytes;
      try {
        bytes = readAuditBytes(file, offset);
        // A file that shrank was replaced (e.g. by a sync): read it again from the start.
        if (bytes.size < offset) {
          offset = 0;
          bytes = readAuditBytes(file, offset);
        }
      } catch {
        continue;
      }
      if (bytes.lines.length === 0) continue;
      sqlite.transaction(() => {
        eachAuditEvent(bytes.lines, (e) => {
          added += put(e);
          if (tick && ++seen % TICK_EVENTS === 0) tick();
        });
        setCursor.run(file, source, offset + bytes.lines.length, bytes.size);
      })();
    }
    return added;
  };
  const insert = eventInserter(sqlite);
  const upsert = (e: AuditEvent) => insert(source, e).changes;
  if (!isFirstBulk(sqlite, source, files, getCursor)) return mirrorFiles(upsert);
  const plain = sqlite.prepare(`INSERT INTO audit_events ${COLUMNS}`);
  return withBulkLoad(
    sqlite,
    ['audit_events'],
    () =>
      withUniqueLater(sqlite, () => mirrorFiles((e) => plain.run(...eventValues(source, e)).changes)) ??
      mirrorFiles(upsert),
  );
}

/** No event of this root is mirrored yet and its files hold at least BULK_BYTES more than their cursors. */
function isFirstBulk(
  sqlite: Database.Database,
  source: string,
  files: string[],
  getCursor: Database.Statement,
): boolean {
  let pending = 0;
  for (const file of files) {
    const offset = (getCursor.get(file) as { offset: number } | undefined)?.offset ?? 0;
    try {
      const size = fs.statSync(file).size;
      pending += size < offset ? size : size - offset;
    } catch {
      // unreadable: the mirror skips it too
    }
  }
  return pending >= BULK_BYTES && !sqlite.prepare('SELECT 1 FROM audit_events WHERE source = ? LIMIT 1').get(source);
}
