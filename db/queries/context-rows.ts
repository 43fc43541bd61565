/**
 * The index rows the session context reads (docs/session-context.md, "Reading the folders
 * fast"): every memory of a source with what the planner needs of it, and the length of
 * its body — not the body. At 100,000 memories the budget quotes a few dozen bodies; the
 * rest are never turned into strings. Plain SQL on a better-sqlite3 handle (no drizzle):
 * the SessionStart hook loads this module.
 */
import type Database from 'better-sqlite3';

/** One memories/ row as the planner reads it. */
export interface ContextIndexRow {
  relPath: string;
  filename: string;
  size: number;
  mtimeMs: number;
  name: string | null;
  trustLevel: string | null;
  type: string | null;
  createdAt: string | null;
  lastVerified: string | null;
  secretExit: number;
  injectionExit: number;
  error: string | null;
  /**
   * The stored body's length and trimmed length (JavaScript `length`, `trim()`) when it is
   * plain ASCII — then SQLite's character count is the UTF-16 count and its trim set
   * (space, \t \n \v \f \r) is JavaScript's; null otherwise (see `wide`).
   */
  asciiLength: number | null;
  asciiTrimmed: number | null;
  /** The stored body itself when it is not plain ASCII (or holds a NUL): measured in JavaScript. */
  wide: string | null;
  /** `originSessionId` and `origin-reviewed` as the file says (the origin flags need no second read). */
  originSession: string | null;
  originReviewed: string | null;
}

/** A quarantine/ or archive/ row: never read, its directory is its tier. */
export interface ContextOtherRow {
  relPath: string;
  filename: string;
  location: 'quarantine' | 'archive';
  size: number;
  mtimeMs: number;
  error: string | null;
}

export interface ContextRows {
  memories(sourceId: string): ContextIndexRow[];
  others(sourceId: string): ContextOtherRow[];
  /** `line` of every credential-class secret finding, by rel_path (findingClass decides the class). */
  secretFindings(sourceId: string): Iterable<{ relPath: string; code: string; line: number | null }>;
  /** The stored body of one row, or null when the row is gone. */
  body(sourceId: string, relPath: string): string | null;
  /**
   * What tells a row's version without reading it (docs/session-context.md, "Between
   * changes"): `rowid size mtime_ms rel_path` of every row of a source, in rel_path order,
   * joined by NUL into one string — all from the rescan's covering index, and one string
   * instead of 120,000 rows handed over one by one. A row the scan wrote again has a new rowid
   * (it deletes and inserts); a file that changed has a new size or mtime.
   */
  signatures(sourceId: string): string;
  /** One row by its rel_path, in either shape, with its location; null when it is gone. */
  one(sourceId: string, relPath: string): (ContextIndexRow & { location: 'memories' }) | ContextOtherRow | null;
  /** The rules and owner signature the scan checked the rows under (meta `secret_rules`). */
  rulesSignature(): string | null;
}

// ASCII test: one character per byte, and no NUL (SQLite's length() stops at the first NUL).
const ASCII = 'length(body) = length(CAST(body AS BLOB))';
const TRIM_SET = "' ' || char(9, 10, 11, 12, 13)";

const MEMORY_COLUMNS = `rel_path, filename, size, mtime_ms, name, trust_level, type, created_at, last_verified,
  secret_exit, injection_exit, error,
  CASE WHEN ${ASCII} THEN length(body) END,
  CASE WHEN ${ASCII} THEN length(trim(body, ${TRIM_SET})) END,
  CASE WHEN ${ASCII} THEN NULL ELSE body END, origin_session, origin_reviewed`;

function memoryRow(r: unknown[]): ContextIndexRow {
  return {
    relPath: r[0] as string,
    filename: r[1] as string,
    size: r[2] as number,
    mtimeMs: r[3] as number,
    name: r[4] as string | null,
    trustLevel: r[5] as string | null,
    type: r[6] as string | null,
    createdAt: r[7] as string | null,
    lastVerified: r[8] as string | null,
    secretExit: r[9] as number,
    injectionExit: r[10] as number,
    error: r[11] as string | null,
    asciiLength: r[12] as number | null,
    asciiTrimmed: r[13] as number | null,
    wide: r[14] as string | null,
    originSession: r[15] as string | null,
    originReviewed: r[16] as string | null,
  };
}

export function contextRows(sqlite: Database.Database): ContextRows {
  // `+source`: a plain walk of the table beats the rescan index's jump per row when the source
  // holds most of the rows. In a Claude Code home of 200 projects the session's project holds
  // a few hundred of 40,000: the walk read every page (docs/performance.md, "A home of 200
  // projects"), so below half of the table the index is used.
  const walk = sqlite.prepare(`SELECT ${MEMORY_COLUMNS} FROM entries WHERE +source = ? AND location = 'memories'`);
  const seek = sqlite.prepare(`SELECT ${MEMORY_COLUMNS} FROM entries WHERE source = ? AND location = 'memories'`);
  const countOf = sqlite.prepare('SELECT count(*) FROM entries WHERE source = ?').pluck();
  // The table's size from its largest rowid (one B-tree descent; count(*) walks an index): at least the row count.
  const countAll = sqlite.prepare('SELECT coalesce(max(rowid), 0) FROM entries').pluck();
  const most = (sourceId: string) => 2 * (countOf.get(sourceId) as number) >= (countAll.get() as number);
  const memoriesOf = (sourceId: string) => (most(sourceId) ? walk : seek);
  const one = sqlite.prepare(`SELECT ${MEMORY_COLUMNS}, location FROM entries WHERE key = ?`);
  // Ordered in a subquery, which walks the covering index in rel_path order: an ORDER BY
  // inside group_concat sorted the 100,000 strings again in a temporary B-tree (95 → 55 ms).
  // The walk in session-context.ts needs the order only to line the lists up quickly; a file
  // is kept only for an identical signature, whatever the order.
  const signatures = sqlite
    .prepare(
      `SELECT group_concat(s, char(0)) FROM (
         SELECT rowid || ' ' || size || ' ' || mtime_ms || ' ' || rel_path AS s
         FROM entries WHERE source = ? ORDER BY rel_path)`,
    )
    .pluck();
  const rules = sqlite.prepare("SELECT value FROM meta WHERE key = 'secret_rules'").pluck();
  const othersWalk = sqlite.prepare(
    `SELECT rel_path, filename, location, size, mtime_ms, error
     FROM entries WHERE +source = ? AND location <> 'memories'`,
  );
  const othersSeek = sqlite.prepare(
    `SELECT rel_path, filename, location, size, mtime_ms, error
     FROM entries WHERE source = ? AND location <> 'memories'`,
  );
  const secrets = sqlite.prepare(
    `SELECT key, code, line FROM findings WHERE "check" = 'secret' AND key >= ? AND key < ?`,
  );
  const body = sqlite.prepare('SELECT body FROM entries WHERE key = ?').pluck();
  return {
    memories(sourceId) {
      return (memoriesOf(sourceId).raw().all(sourceId) as unknown[][]).map(memoryRow);
    },
    signatures(sourceId) {
      return (signatures.get(sourceId) as string | null) ?? '';
    },
    one(sourceId, relPath) {
      const r = one.raw().get(`${sourceId}:${relPath}`) as unknown[] | undefined;
      if (!r) return null;
      const location = r[17] as ContextOtherRow['location'] | 'memories';
      if (location === 'memories') return { ...memoryRow(r), location };
      const m = memoryRow(r);
      return { relPath: m.relPath, filename: m.filename, location, size: m.size, mtimeMs: m.mtimeMs, error: m.error };
    },
    rulesSignature() {
      return (rules.get() as string | undefined) ?? null;
    },
    others(sourceId) {
      return ((most(sourceId) ? othersWalk : othersSeek).raw().all(sourceId) as unknown[][]).map((r) => ({
        relPath: r[0] as string,
        filename: r[1] as string,
        location: r[2] as 'quarantine' | 'archive',
        size: r[3] as number,
        mtimeMs: r[4] as number,
        error: r[5] as string | null,
      }));
    },
    *secretFindings(sourceId) {
      const prefix = `${sourceId}:`;
      for (const f of secrets.iterate(prefix, `${sourceId};`) as Iterable<{
        key: string;
        code: string;
        line: number | null;
      }>)
        yield { relPath: f.key.slice(prefix.length), code: f.code, line: f.line };
    },
    body(sourceId, relPath) {
      return (body.get(`${sourceId}:${relPath}`) as string | undefined) ?? null;
    },
  };
}
