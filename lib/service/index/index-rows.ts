/**
 * Writes of memory rows and their findings. Raw prepared statements on purpose:
 * a full scan inserts 100,000 rows, and drizzle's per-call query building costs
 * more than the insert itself. Only lib/service writes rows (STYLE habit 1).
 */
import type Database from 'better-sqlite3';
import type { Inspected } from './inspect';
import { clockBases } from './inspect';
import type { ListedFile } from '../../sources';
import type { Location } from '../../trust/tiers';

export interface RowWriter {
  /** `isNew`: the caller knows no row exists (first scan), so the delete is skipped. */
  upsert(source: string, file: ListedFile, ins: Inspected, isNew?: boolean): void;
  /** The same as `upsert`, from the row prepareRow made (maybe on a worker thread: inspect-pool.ts). */
  insertPrepared(row: PreparedRow, isNew?: boolean): void;
  upsertError(source: string, file: ListedFile, error: string, isNew?: boolean): void;
  remove(key: string): void;
  /**
   * Same bytes, new size/mtime (a touch, a checkout, a sync): only the columns that come
   * from the mtime change; every finding and field stays (docs/performance.md).
   */
  touch(key: string, file: ListedFile, clock: ReturnType<typeof clockBases>): void;
}

/**
 * One memory row as the writer inserts it: the values of the memories INSERT in its column
 * order, the rare changed-since-verified column, and each finding's INSERT values. Plain
 * arrays of primitives: the inspect pool's workers make them, and they cross to the main
 * thread far cheaper than the inspection they come from (docs/performance.md, "Both cores").
 */
export interface PreparedRow {
  key: string;
  values: unknown[];
  changedSinceVerified: string | null;
  findings: unknown[][];
  /** Each credential_values INSERT's values (hashes only: docs/credentials.md, "Value propagation"). */
  credentialValues: unknown[][];
}

/** The row's identity columns (key, id, source, rel_path, filename, location). */
function identity(source: string, file: ListedFile) {
  const key = `${source}:${file.relPath}`;
  return [key, `${source}:${file.filename}`, source, file.relPath, file.filename, file.location] as const;
}

/** The row of one inspected file (no db). */
export function prepareRow(source: string, file: ListedFile, ins: Inspected): PreparedRow {
  const id = identity(source, file);
  const f = ins.fields;
  const c = clockBases(ins.facts);
  const checks = [...new Set(ins.findings.filter((x) => x.label !== 'PASS').map((x) => x.check))].join(' ');
  return {
    key: id[0],
    values: [
      ...id,
      ins.tier,
      f['trust-level'] ?? null,
      f.type ?? null,
      ins.display.name ?? null,
      ins.display.description ?? null,
      f['source-machine'] ?? null,
      f['created-at'] ?? null,
      f['last-verified'] ?? null,
      f['quarantined-at'] ?? null,
      ins.display.quarantineReason ?? null,
      c.createdMs,
      c.createdFromMtime ? 1 : 0,
      c.lastVerifiedMs,
      c.quarantineSinceMs,
      file.size,
      file.mtimeMs,
      ins.sha256,
      ins.verdicts.validate.exit,
      ins.verdicts.secret.exit,
      ins.verdicts.injection.exit,
      ins.findings.length,
      checks,
      ins.needsBackfill ? 1 : 0,
      null,
      ins.body,
      // The origin itself is filled after the read, from the transcript cache (lib/service/origin/origin-index.ts).
      f.originSessionId ?? null,
      f['origin-reviewed'] ?? null,
    ],
    changedSinceVerified: f['changed-since-verified'] || null,
    findings: ins.findings.map((x) => [id[0], x.check, x.code, x.label, x.line ?? null, x.message, x.class ?? null]),
    credentialValues: ins.credentialValues.map((v) => [id[0], source, ...v]),
  };
}

export function rowWriter(sqlite: Database.Database): RowWriter {
  const del = sqlite.prepare('DELETE FROM entries WHERE key = ?');
  const delFindings = sqlite.prepare('DELETE FROM findings WHERE key = ?');
  const insert = sqlite.prepare(`INSERT INTO entries (
    key, id, source, rel_path, filename, location, tier, trust_level, type, name, description, source_machine,
    created_at, last_verified, quarantined_at, quarantine_reason, created_ms, created_from_mtime, last_verified_ms,
    quarantine_since_ms, size, mtime_ms, sha256, validate_exit, secret_exit, injection_exit, finding_count,
    finding_checks, needs_backfill, conflict, indexed, error, body, origin_session, origin_reviewed
  ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?, ?, ?)`);
  // Kept out of the big INSERT above: most rows never carry it (docs/hooks.md).
  const setChanged = sqlite.prepare('UPDATE entries SET changed_since_verified = ? WHERE key = ?');
  const insertFinding = sqlite.prepare(
    'INSERT INTO findings (key, "check", code, label, line, message, class) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );

  const touch = sqlite.prepare(
    `UPDATE entries SET size = ?, mtime_ms = ?, created_ms = ?, created_from_mtime = ?, last_verified_ms = ?,
       quarantine_since_ms = ? WHERE key = ?`,
  );
  const insertValue = sqlite.prepare(
    'INSERT INTO credential_values (key, source, hash, len, quick, own) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const delValues = sqlite.prepare('DELETE FROM credential_values WHERE key = ?');
  const remove = (key: string) => {
    del.run(key);
    delFindings.run(key);
    delValues.run(key);
  };

  /**
   * `isNew` comes from the scan's snapshot of the rows, taken outside this transaction: another
   * process scanning the same roots (the dashboard, `memtrust watch`, a CLI command) may have
   * inserted the row since. Then its row goes and ours replaces it.
   */
  const insertRow = (key: string, isNew: boolean, values: unknown[]) => {
    if (!isNew) remove(key);
    try {
      insert.run(...values);
    } catch (err) {
      if (!isNew || (err as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw err;
      remove(key);
      insert.run(...values);
    }
  };

  const insertPrepared = (row: PreparedRow, isNew = false) => {
    insertRow(row.key, isNew, row.values);
    if (row.changedSinceVerified) setChanged.run(row.changedSinceVerified, row.key);
    for (const x of row.findings) insertFinding.run(...x);
    for (const v of row.credentialValues) insertValue.run(...v);
  };

  return {
    remove,
    touch(key, file, c) {
      touch.run(
        file.size,
        file.mtimeMs,
        c.createdMs,
        c.createdFromMtime ? 1 : 0,
        c.lastVerifiedMs,
        c.quarantineSinceMs,
        key,
      );
    },
    upsert(source, file, ins, isNew = false) {
      insertPrepared(prepareRow(source, file, ins), isNew);
    },
    insertPrepared,
    upsertError(source, file, error, isNew = false) {
      const id = identity(source, file);
      const key = id[0];
      const tier = errorRowTier(file.location);
      insertRow(key, isNew, [
        ...id,
        tier,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        file.mtimeMs,
        1,
        null,
        file.mtimeMs,
        file.size,
        file.mtimeMs,
        '',
        1,
        0,
        0,
        1,
        'validate',
        0,
        error,
        '',
        null,
        null,
      ]);
      insertFinding.run(key, 'validate', 'unreadable', 'FAIL-STRUCT', null, error, null);
    },
  };
}

/** The tier of a file the scan could not read (an error row): its folder's, inferred in memories/. */
export function errorRowTier(location: Location): 'quarantined' | 'archived' | 'inferred' {
  return location === 'quarantine' ? 'quarantined' : location === 'archive' ? 'archived' : 'inferred';
}

/** Same filename in memories/ and quarantine/ of one source: both rows are conflicts (docs/trust-model.md). */
export function markConflicts(sqlite: Database.Database, source: string): void {
  sqlite.prepare('UPDATE entries SET conflict = 0 WHERE source = ? AND conflict = 1').run(source);
  sqlite
    .prepare(
      `UPDATE entries SET conflict = 1 WHERE source = ? AND location IN ('memories','quarantine') AND id IN (
         SELECT id FROM entries WHERE source = ? AND location IN ('memories','quarantine')
         GROUP BY id HAVING count(*) > 1)`,
    )
    .run(source, source);
}

/** The same rule for one memory id: all a transition can change (it moves one file). */
export function markConflictFor(sqlite: Database.Database, id: string): void {
  sqlite
    .prepare(
      `UPDATE entries SET conflict = (
         SELECT count(*) > 1 FROM entries m2 WHERE m2.id = entries.id AND m2.location IN ('memories','quarantine'))
       WHERE id = ?`,
    )
    .run(id);
  // Archived copies never count as a conflict.
  sqlite.prepare("UPDATE entries SET conflict = 0 WHERE id = ? AND location = 'archive'").run(id);
}
