/**
 * Opens the SQLite index: WAL (the dashboard and the CLI read while the other
 * writes), a busy timeout (writers wait instead of failing), migrations on open.
 * No 'server-only' here: the CLI and unit tests import this under plain Node.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import * as schema from './schema';
import { projectPath } from '../lib/core/project';

export type Db = BetterSQLite3Database<typeof schema>;
export interface DbHandle {
  path: string;
  sqlite: Database.Database;
  db: Db;
}

const cache = globalThis as unknown as { __memtrustDb?: Map<string, DbHandle> };

export function openDb(file: string): DbHandle {
  cache.__memtrustDb ??= new Map();
  const map = cache.__memtrustDb;
  const hit = map.get(file);
  if (hit?.sqlite.open) return hit;
  let sqlite: Database.Database;
  try {
    if (file !== ':memory:') ensureDir(path.dirname(file));
    sqlite = new Database(file);
  } catch (e) {
    throw new DbOpenError(
      `cannot open the index database ${file}: ${(e as Error).message} (MEMTRUST_DB names a writable file; the index is a cache and can live anywhere)`,
    );
  }
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 10000');
  sqlite.pragma('synchronous = NORMAL');
  // Deleted rows are zeroed, so a body or name withheld later cannot linger in free pages.
  sqlite.pragma('secure_delete = ON');
  const db = drizzle(sqlite, { schema });
  applyMigrations(sqlite);
  const handle = { path: file, sqlite, db };
  map.set(file, handle);
  return handle;
}

export class DbOpenError extends Error {
  readonly code = 'db-open';
}

/**
 * mkdir -p one level at a time. Node's recursive mkdir spins forever on some
 * pseudo-filesystems (a MEMTRUST_DB under /proc hung the CLI at 100% CPU).
 */
function ensureDir(dir: string): void {
  if (fs.existsSync(dir)) return;
  const parent = path.dirname(dir);
  if (parent !== dir) ensureDir(parent);
  fs.mkdirSync(dir);
}

export function closeDb(file: string): void {
  const map = cache.__memtrustDb;
  const hit = map?.get(file);
  if (hit) {
    hit.sqlite.close();
    map!.delete(file);
  }
}

/**
 * drizzle's own migrator reads the last applied migration outside its transaction,
 * so a dashboard and a CLI opening a fresh database at once could both apply it.
 * Same bookkeeping table, but checked and applied inside one BEGIN IMMEDIATE.
 */
function applyMigrations(sqlite: Database.Database): void {
  const migrations = readMigrationFiles({ migrationsFolder: projectPath('db', 'migrations') });
  sqlite.exec(
    'CREATE TABLE IF NOT EXISTS __drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)',
  );
  const lastApplied = () =>
    Number(
      (sqlite.prepare('SELECT max(created_at) AS m FROM __drizzle_migrations').get() as { m: number | null }).m ?? 0,
    );
  const newest = Math.max(0, ...migrations.map((m) => m.folderMillis));
  if (lastApplied() >= newest) return;
  sqlite
    .transaction(() => {
      const last = lastApplied();
      for (const m of migrations) {
        if (m.folderMillis <= last) continue;
        for (const stmt of m.sql) if (stmt.trim()) sqlite.exec(stmt);
        sqlite.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run(m.hash, m.folderMillis);
      }
    })
    .immediate();
}
