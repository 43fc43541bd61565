/**
 * Scans the configured roots into MEMTRUST_DB and writes what the index holds, normalised,
 * to OUT as JSON: every row of every table the scan writes (sorted, without rowids), the
 * schema, and the full-text index's integrity and answers. bench/scan-compare.ts runs it
 * with today's code and with a baseline commit's code (a copy of this file goes into the
 * baseline's tree), so it only uses what both have: loadConfig, createContext, scan.
 *
 *   MEMTRUST_ROOT=… MEMTRUST_DB=… [MEMTRUST_WORKERS=N] npx tsx bench/scan-dump.ts OUT
 *
 * MEMTRUST_WORKERS=N (N ≥ 1): every root is read and inspected on N worker threads, however
 * few its files (docs/performance.md, "Both cores"); a baseline's scan ignores the option.
 */
import fs from 'node:fs';
import { loadConfig } from '../lib/core/config';
import { createContext } from '../lib/service/context';
import { scan } from '../lib/service/index/scan-service';
import { closeDb } from '../db/client';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: scan-dump.ts OUT\n');
  process.exit(64);
}
const ctx = createContext(loadConfig({ env: process.env }), process.env);
const workers = Number(process.env.MEMTRUST_WORKERS || 0);
const stats = scan(ctx, (workers > 0 ? { workers, poolMinFiles: 1 } : {}) as Parameters<typeof scan>[1]);
const sqlite = ctx.handle.sqlite;

const TABLES: Record<string, string> = {
  entries: 'SELECT * FROM entries',
  findings: 'SELECT * FROM findings',
  // seq is the insertion order of the mirror: compared through the sort, not as a value.
  audit_events: 'SELECT * FROM audit_events',
  audit_cursors: 'SELECT * FROM audit_cursors',
  index_findings: 'SELECT * FROM index_findings',
  sources: 'SELECT * FROM sources',
  meta: "SELECT * FROM meta WHERE key NOT IN ('fts_deferred', 'indexes_deferred')",
};
// How many workers inspected is not part of the index: kept apart, under a key the comparison skips.
const { workers: pooled, ...counts } = stats as typeof stats & { workers?: number };
const dump: Record<string, unknown> = { stats: { ...counts, errors: [...stats.errors].sort() }, _workers: pooled ?? 0 };
for (const [name, sql] of Object.entries(TABLES)) {
  let rows: Record<string, unknown>[];
  try {
    rows = sqlite.prepare(sql).all() as Record<string, unknown>[];
  } catch {
    rows = [];
  }
  dump[name] = rows
    .map((r) => {
      const { seq: _seq, ...rest } = r;
      return JSON.stringify(rest);
    })
    .sort();
}
dump.schema = (
  sqlite
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
    .all() as Record<string, unknown>[]
).map((r) => JSON.stringify(r));
// The full-text index: consistent with its content table, and the same keys for a few searches.
let integrity = 'ok';
try {
  sqlite.prepare("INSERT INTO entries_fts(entries_fts) VALUES ('integrity-check')").run();
} catch (e) {
  integrity = (e as Error).message;
}
const search: Record<string, string[]> = {};
for (const term of ['deploy', 'token', 'password', 'release', 'ignore', 'server']) {
  search[term] = (
    sqlite
      .prepare(
        'SELECT m.key FROM entries m WHERE m.rowid IN (SELECT rowid FROM entries_fts WHERE entries_fts MATCH ?) ORDER BY m.key',
      )
      .all(`"${term}"*`) as { key: string }[]
  ).map((r) => r.key);
}
dump.fts = { integrity, search };
closeDb(ctx.handle.path);
fs.writeFileSync(out, JSON.stringify(dump));
