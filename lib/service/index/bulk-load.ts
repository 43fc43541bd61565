/**
 * Bulk loads into the index (docs/performance.md, "Deferred indexes"): a large first scan
 * inserts every row before the secondary indexes of its tables exist, then builds each
 * index once by sorting, which costs a fraction of keeping ten B-trees current row by
 * row. Unique indexes and primary keys stay: inserts rely on them.
 *
 * The dropped definitions are kept in `meta` (key `indexes_deferred`) in the same
 * transaction that drops them, so a scan that dies half-way leaves the recipe behind and
 * the next scan (or this one) builds them back. Until then queries are slower, never
 * wrong. Two scans at once are safe: drops and builds are IF EXISTS / IF NOT EXISTS.
 *
 * During the load the connection's automatic WAL checkpoints pause: at 100,000 rows they
 * copied the same index pages back into the database again and again. One checkpoint at
 * the end does it once (it does not wait for readers; what it leaves, the next automatic
 * checkpoint takes).
 */
import type Database from 'better-sqlite3';

const KEY = 'indexes_deferred';

/** Drops the non-unique indexes of `tables`, recording how to build them again. */
export function deferIndexes(sqlite: Database.Database, tables: string[]): void {
  sqlite
    .transaction(() => {
      const rows = sqlite
        .prepare(
          `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
             AND tbl_name IN (SELECT value FROM json_each(?)) AND sql NOT LIKE 'CREATE UNIQUE%'`,
        )
        .all(JSON.stringify(tables)) as { name: string; sql: string }[];
      if (rows.length === 0) return;
      const stored = pending(sqlite);
      const all = [...stored, ...rows.map((r) => r.sql).filter((sql) => !stored.includes(sql))];
      sqlite.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(KEY, JSON.stringify(all));
      for (const r of rows) sqlite.exec(`DROP INDEX IF EXISTS "${r.name.replace(/"/g, '""')}"`);
    })
    .immediate();
}

function pending(sqlite: Database.Database): string[] {
  const row = sqlite.prepare('SELECT value FROM meta WHERE key = ?').get(KEY) as { value: string } | undefined;
  if (!row) return [];
  try {
    const v = JSON.parse(row.value) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Builds every index a bulk load deferred (no-op when none is pending). */
export function restoreIndexes(sqlite: Database.Database): void {
  if (!sqlite.prepare('SELECT 1 FROM meta WHERE key = ?').get(KEY)) return;
  sqlite
    .transaction(() => {
      for (const sql of pending(sqlite))
        sqlite.exec(sql.replace(/^CREATE INDEX (?!IF NOT EXISTS)/i, 'CREATE INDEX IF NOT EXISTS '));
      sqlite.prepare('DELETE FROM meta WHERE key = ?').run(KEY);
    })
    .immediate();
}

/** Runs `fn` as a bulk load of `tables`: indexes deferred, automatic checkpoints paused; both back afterwards, even on a throw. */
export function withBulkLoad<T>(sqlite: Database.Database, tables: string[], fn: () => T): T {
  const autoCheckpoint = sqlite.pragma('wal_autocheckpoint', { simple: true }) as number;
  deferIndexes(sqlite, tables);
  sqlite.pragma('wal_autocheckpoint = 0');
  try {
    return fn();
  } finally {
    restoreIndexes(sqlite);
    sqlite.pragma(`wal_autocheckpoint = ${Number(autoCheckpoint) || 1000}`);
    const busy = sqlite.pragma('busy_timeout', { simple: true }) as number;
    sqlite.pragma('busy_timeout = 0');
    try {
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // a busy database: the next automatic checkpoint copies the rest
    } finally {
      sqlite.pragma(`busy_timeout = ${Number(busy)}`);
    }
  }
}
