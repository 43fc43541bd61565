/** A cheap fingerprint of the index: open pages refresh when it changes. */
import type Database from 'better-sqlite3';

export function indexSignature(sqlite: Database.Database): string {
  const m = sqlite.prepare('SELECT count(*) AS n, coalesce(max(mtime_ms), 0) AS t, coalesce(sum(size), 0) AS s FROM memories').get() as { n: number; t: number; s: number };
  const a = sqlite.prepare('SELECT coalesce(max(seq), 0) AS e FROM audit_events').get() as { e: number };
  return `${m.n}:${m.t}:${m.s}:${a.e}`;
}
