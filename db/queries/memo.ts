/**
 * Memoises read queries until the database changes. `PRAGMA data_version` moves
 * when another connection (the CLI) commits; `total_changes()` counts our own
 * writes. Together they are an O(1) "has anything changed?" for 100k-row views.
 */
import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, { version: string; values: Map<string, unknown> }>();

export function dbVersion(sqlite: Database.Database): string {
  const dv = sqlite.pragma('data_version', { simple: true }) as number;
  const own = (sqlite.prepare('SELECT total_changes() AS c').get() as { c: number }).c;
  return `${dv}:${own}`;
}

export function memo<T>(sqlite: Database.Database, key: string, compute: () => T): T {
  const version = dbVersion(sqlite);
  let c = caches.get(sqlite);
  if (!c || c.version !== version) {
    c = { version, values: new Map() };
    caches.set(sqlite, c);
  }
  if (c.values.has(key)) return c.values.get(key) as T;
  const value = compute();
  c.values.set(key, value);
  return value;
}
