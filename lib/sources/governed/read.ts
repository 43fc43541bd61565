/**
 * Finds and reads codeclone's engineering-memory store without ever writing it
 * (docs/governed-layout.md, "Reading without writing"). The store and its -wal are
 * read into memory, the log folded in, and the image opened read-only with SQLite;
 * nothing is written anywhere, so codeclone's files, locks and -shm stay untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { CommandOptions } from './commands';
import { mapRecords, type Row } from './map';
import { foldWal } from './wal';
import { statKey } from '../stat-key';
import { OPEN_READ } from '../../core/read-fd';
import {
  STORE_FILE,
  STORE_REL,
  TESTED_SCHEMA,
  type Detected,
  type GovernedError,
  type GovernedErrorCode,
  type GovernedRead,
} from './types';

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * The store for `dir`: a project root (`<dir>/.codeclone/memory/…`), its `.codeclone`
 * folder, the memory folder itself, or the store file. Null when there is none.
 */
export function detect(dir: string): Detected | null {
  const abs = path.resolve(dir);
  let store: string | null = null;
  let project = abs;
  if (path.basename(abs) === STORE_FILE && isFile(abs)) return detect(path.dirname(abs));
  if (isFile(path.join(abs, STORE_REL))) store = path.join(abs, STORE_REL);
  else if (path.basename(abs) === '.codeclone' && isFile(path.join(abs, 'memory', STORE_FILE))) {
    store = path.join(abs, 'memory', STORE_FILE);
    project = path.dirname(abs);
  } else if (isFile(path.join(abs, STORE_FILE))) {
    store = path.join(abs, STORE_FILE);
    const parent = path.dirname(abs);
    project = path.basename(abs) === 'memory' && path.basename(parent) === '.codeclone' ? path.dirname(parent) : abs;
  }
  if (!store) return null;
  return { store, project, wal: fs.existsSync(`${store}-wal`), shm: fs.existsSync(`${store}-shm`) };
}

/** Changes whenever codeclone commits (the store or its -wal): compare to refresh a view. */
export function changeToken(store: string): string {
  return `${statKey(store)}|${statKey(`${store}-wal`)}`;
}

const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

/** A rollback journal with a live header: another connection is in a write transaction. */
function hotJournal(store: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(`${store}-journal`, OPEN_READ);
  } catch {
    return false;
  }
  try {
    const b = Buffer.alloc(8);
    return fs.readSync(fd, b, 0, 8, 0) === 8 && b.equals(JOURNAL_MAGIC);
  } catch {
    return false; // not a file one can read (a FIFO answers EAGAIN at once)
  } finally {
    fs.closeSync(fd);
  }
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function fail(code: GovernedErrorCode, file: string, problem: string): GovernedError {
  return { ok: false, code, file, message: `${file}: ${problem}` };
}

function firstLine(e: unknown): string {
  return String(e instanceof Error ? e.message : e).split('\n')[0]!;
}

export const SNAPSHOT_ATTEMPTS = 5;

/**
 * Reads the store and its -wal into memory, again while codeclone changes them
 * mid-read, and folds the log into the image. The -shm is never read: it is only an
 * index of the -wal. Nothing is written anywhere.
 */
function snapshot(
  store: string,
  afterRead?: (attempt: number) => void,
): { ok: true; image: Buffer; token: string; walIgnored: string | null } | GovernedError {
  for (let attempt = 1; attempt <= SNAPSHOT_ATTEMPTS; attempt++) {
    if (hotJournal(store)) {
      if (attempt === SNAPSHOT_ATTEMPTS)
        return fail(
          'locked',
          store,
          'locked: another process is in a write transaction (hot -journal); try again when it finishes',
        );
      sleepMs(20 * attempt);
      continue;
    }
    const before = changeToken(store);
    let main: Buffer;
    let wal: Buffer | null = null;
    try {
      main = fs.readFileSync(store);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return fail(
        code === 'ENOENT' ? 'not-found' : 'unreadable',
        store,
        `cannot read the store (${code ?? firstLine(e)})`,
      );
    }
    try {
      wal = fs.readFileSync(`${store}-wal`);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT')
        return fail('unreadable', `${store}-wal`, `cannot read the write-ahead log (${code ?? firstLine(e)})`);
    }
    afterRead?.(attempt);
    if (changeToken(store) === before && !hotJournal(store)) {
      const folded = foldWal(main, wal);
      return { ok: true, image: folded.image, token: before, walIgnored: folded.ignored };
    }
    sleepMs(20 * attempt);
  }
  return fail(
    'locked',
    store,
    `busy: codeclone kept writing while it was read (${SNAPSHOT_ATTEMPTS} attempts); try again`,
  );
}

export interface ReadOptions {
  /** Prefix of record ids (the service's source id); default `governed`. */
  sourceId?: string;
  /** `--by` / `--reason` for the command lines shown. */
  command?: CommandOptions;
  /** Test hook: runs after each read of the files, before they are checked for changes. */
  afterRead?: (attempt: number) => void;
}

const REQUIRED_TABLES = ['memory_meta', 'memory_records', 'memory_evidence', 'memory_links'] as const;
const REQUIRED_COLUMNS = ['id', 'project_id', 'status', 'confidence', 'origin', 'statement'] as const;

function sqliteProblem(store: string, e: unknown): GovernedError {
  const code = String((e as { code?: string }).code ?? '');
  const msg = firstLine(e);
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT'))
    return fail('corrupt', store, `not a readable SQLite database (${msg})`);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return fail('locked', store, `locked by another process (${msg})`);
  return fail('unreadable', store, `cannot read the store (${code || msg}${code ? `: ${msg}` : ''})`);
}

/** Parses `1.7` → [1, 7]; null when it is not `major.minor`. */
export function parseVersion(v: string): [number, number] | null {
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** Reads every record; never throws, never writes the store. */
export function read(dirOrDetected: string | Detected, opts: ReadOptions = {}): GovernedRead {
  const detected = typeof dirOrDetected === 'string' ? detect(dirOrDetected) : dirOrDetected;
  if (!detected) {
    const where = typeof dirOrDetected === 'string' ? path.resolve(dirOrDetected) : '?';
    return fail('not-found', where, `no codeclone store (${STORE_REL})`);
  }
  const { store } = detected;
  let db: Database.Database | null = null;
  try {
    const t0 = performance.now();
    const snap = snapshot(store, opts.afterRead);
    if (!snap.ok) return snap;
    const t1 = performance.now();
    try {
      db = new Database(snap.image, { readonly: true, fileMustExist: true, timeout: 2000 });
      db.pragma('query_only = ON');
      db.pragma('busy_timeout = 2000');
      const tables = new Set(
        db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table','view')").pluck().all() as string[],
      );
      for (const t of REQUIRED_TABLES)
        if (!tables.has(t))
          return fail(
            'missing-table',
            store,
            `no table ${t}: not a codeclone engineering-memory store, or a damaged one`,
          );
      const version = db.prepare("SELECT value FROM memory_meta WHERE key = 'schema_version'").pluck().get() as
        | string
        | undefined;
      if (version === undefined || version === null)
        return fail('schema-unsupported', store, 'memory_meta has no schema_version');
      const parsed = parseVersion(String(version));
      const tested = parseVersion(TESTED_SCHEMA)!;
      if (!parsed || parsed[0] !== tested[0]) {
        return fail(
          'schema-unsupported',
          store,
          `schema version ${String(version)} is not one memtrust reads (1.x; tested ${TESTED_SCHEMA})`,
        );
      }
      const warnings: string[] = [];
      if (snap.walIgnored)
        warnings.push(`${store}-wal: not used (${snap.walIgnored}); the store is read as last checkpointed`);
      if (parsed[1] > tested[1])
        warnings.push(
          `${store}: schema version ${String(version)} is newer than the ${TESTED_SCHEMA} memtrust was tested with; read anyway`,
        );
      const cols = new Set(
        (db.prepare('PRAGMA table_info(memory_records)').all() as { name: string }[]).map((c) => c.name),
      );
      for (const c of REQUIRED_COLUMNS)
        if (!cols.has(c)) return fail('schema-unsupported', store, `memory_records has no column ${c}`);
      const recStmt = db.prepare('SELECT rowid AS _rowid, * FROM memory_records ORDER BY rowid').raw();
      const rows = { columns: recStmt.columns().map((x) => x.name), rows: recStmt.all() as unknown[][] };
      const evidence = db
        .prepare('SELECT * FROM memory_evidence ORDER BY memory_id, created_at_utc, id')
        .all() as Row[];
      const links = db.prepare('SELECT * FROM memory_links ORDER BY created_at_utc, id').all() as Row[];
      let subjects: Row[] = [];
      if (tables.has('memory_subjects'))
        subjects = db.prepare('SELECT * FROM memory_subjects ORDER BY memory_id, id').all() as Row[];
      else warnings.push(`${store}: no table memory_subjects; records are shown without subjects`);
      const t2 = performance.now();
      const records = mapRecords(rows, evidence, links, subjects, {
        sourceId: opts.sourceId ?? 'governed',
        projectRoot: detected.project,
        storeFile: path.relative(detected.project, store) || STORE_FILE,
        command: opts.command,
      });
      const t3 = performance.now();
      return {
        ok: true,
        detected,
        schemaVersion: String(version),
        warnings,
        records,
        token: snap.token,
        timings: { snapshotMs: t1 - t0, queryMs: t2 - t1, mapMs: t3 - t2 },
      };
    } catch (e) {
      return sqliteProblem(store, e);
    }
  } finally {
    try {
      db?.close();
    } catch {
      /* an in-memory image: nothing to release on disk */
    }
  }
}
