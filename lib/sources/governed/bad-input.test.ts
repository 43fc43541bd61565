/**
 * Stores memtrust cannot read: each gives one typed error line naming the file, never
 * a throw, never a change on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildGovernedFixture, fixtureId, type Fixture } from './test-fixtures';
import { changeToken, read } from './read';
import { fingerprint, tmpProject } from './test-support';
import type { GovernedError, GovernedRead } from './types';

const cleanup: (() => void)[] = [];
afterEach(() => {
  while (cleanup.length) cleanup.pop()!();
});

function fixture(opts: Parameters<typeof buildGovernedFixture>[1] = {}): Fixture & { dir: string } {
  const f = buildGovernedFixture(tmpProject(), opts);
  cleanup.push(() => {
    f.writer?.close();
    fs.rmSync(f.project, { recursive: true, force: true });
  });
  return { ...f, dir: path.dirname(f.store) };
}

function expectError(r: GovernedRead, code: GovernedError['code'], pattern: RegExp): GovernedError {
  expect(r.ok, r.ok ? 'read succeeded' : r.message).toBe(false);
  const e = r as GovernedError;
  expect(e.code).toBe(code);
  expect(e.message).toMatch(pattern);
  expect(e.message.split('\n')).toHaveLength(1);
  expect(e.message).not.toMatch(/\n\s+at /);
  return e;
}

/** Reads and checks that nothing in the store's folder changed. */
function readUnchanged(dir: string, project: string): GovernedRead {
  const before = fingerprint(dir);
  const r = read(project);
  expect(fingerprint(dir)).toEqual(before);
  return r;
}

describe('locked stores', () => {
  it('a rollback-journal writer that has begun writing the file: "locked", nothing written', () => {
    const f = fixture();
    const w = new Database(f.store);
    cleanup.push(() => w.close());
    w.pragma('journal_mode = DELETE');
    w.pragma('cache_size = 2'); // the change spills into the file before commit
    w.exec('BEGIN EXCLUSIVE');
    w.prepare("UPDATE memory_records SET statement = 'half-written ' || hex(randomblob(200))").run();
    expect(fs.existsSync(`${f.store}-journal`)).toBe(true);
    const e = expectError(
      readUnchanged(f.dir, f.project),
      'locked',
      /engineering_memory\.sqlite3: locked: another process is in a write transaction/,
    );
    expect(e.file).toBe(f.store);
    w.exec('ROLLBACK');
    const r = readUnchanged(f.dir, f.project);
    expect(r.ok && r.records.every((x) => !x.governed.statement.startsWith('half-written'))).toBe(true);
  });

  it('a rollback-journal writer whose change is still in its cache: the committed state', () => {
    const f = fixture();
    const w = new Database(f.store);
    cleanup.push(() => w.close());
    w.pragma('journal_mode = DELETE');
    w.exec('BEGIN EXCLUSIVE');
    w.prepare("UPDATE memory_records SET statement = 'in cache' WHERE rowid = 1").run();
    expect(fs.existsSync(`${f.store}-journal`)).toBe(true);
    const r = readUnchanged(f.dir, f.project);
    expect(r.ok && r.records.length).toBe(f.count);
    expect(r.ok && r.records.some((x) => x.governed.statement === 'in cache')).toBe(false);
    w.exec('ROLLBACK');
  });

  it('a WAL writer holding an open write transaction: the last committed state, nothing written', () => {
    const f = fixture({ wal: 'live' });
    f.writer!.exec('BEGIN IMMEDIATE');
    f.writer!.prepare("UPDATE memory_records SET statement = 'uncommitted'").run();
    const r = readUnchanged(f.dir, f.project);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.records).toHaveLength(f.count);
      expect(r.records.some((x) => x.governed.statement === 'uncommitted')).toBe(false);
    }
    f.writer!.exec('ROLLBACK');
  });

  it('a WAL writer in exclusive locking mode (no -shm): its committed rows, nothing written', () => {
    const f = fixture();
    const w = new Database(f.store);
    cleanup.push(() => w.close());
    w.pragma('locking_mode = EXCLUSIVE');
    w.pragma('wal_autocheckpoint = 0');
    const id = fixtureId('exclusive-commit');
    w.prepare(`INSERT INTO memory_records (id, project_id, identity_key, type, status, confidence, origin, ingest_source,
      statement, created_at_utc, updated_at_utc, created_by, schema_version)
      VALUES (?, 'proj-fixture0001', 'fixture:x', 'human_note', 'active', 'verified', 'human', 'human', 'committed under lock',
      '2026-06-02T00:00:00Z', '2026-06-02T00:00:00Z', 'human', '1.7')`).run(id);
    // SQLite's own readers are refused here; the adapter still never writes.
    const direct = new Database(f.store, { readonly: true, fileMustExist: true, timeout: 50 });
    expect(() => direct.prepare('SELECT count(*) FROM memory_records').get()).toThrow(/locked|busy/i);
    direct.close();
    const r = readUnchanged(f.dir, f.project);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.records.find((x) => x.key === id)?.tier).toBe('verified');
  });
});

describe('a store that changes while it is read', () => {
  const insert = (f: Fixture, name: string) =>
    f
      .writer!.prepare(`INSERT INTO memory_records (id, project_id, identity_key, type, status, confidence, origin, ingest_source,
      statement, created_at_utc, updated_at_utc, created_by, schema_version)
      VALUES (?, 'proj-fixture0001', ?, 'human_note', 'draft', 'inferred', 'agent', 'agent', 'mid-read note',
      '2026-06-02T00:00:00Z', '2026-06-02T00:00:00Z', 'agent', '1.7')`)
      .run(fixtureId(name), `fixture:${name}`);

  it('reads again after a commit lands mid-read, and sees that commit', () => {
    const f = fixture({ wal: 'live' });
    const attempts: number[] = [];
    const r = read(f.project, {
      afterRead: (a: number) => {
        attempts.push(a);
        if (a === 1) insert(f, 'mid-read');
      },
    });
    expect(attempts).toEqual([1, 2]);
    expect(r.ok && r.token).toBe(changeToken(f.store)); // the token of the bytes that were read
    expect(r.ok && r.records.find((x) => x.key === fixtureId('mid-read'))?.flags).toEqual(['pending-human']);
  });

  it('gives up with "locked" when every read is overtaken by a commit', () => {
    const f = fixture({ wal: 'live' });
    let n = 0;
    const r = read(f.project, { afterRead: () => insert(f, `busy-${n++}`) });
    expectError(r, 'locked', /: busy: codeclone kept writing while it was read \(5 attempts\); try again$/);
    expect(n).toBe(5);
  });
});

describe('corrupt and foreign files', () => {
  it('random bytes: "corrupt"', () => {
    const p = tmpProject();
    cleanup.push(() => fs.rmSync(p, { recursive: true, force: true }));
    const dir = path.join(p, '.codeclone', 'memory');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'engineering_memory.sqlite3'),
      Buffer.from('this is not a database, just text that happens to be here\n'.repeat(100)),
    );
    expectError(readUnchanged(dir, p), 'corrupt', /engineering_memory\.sqlite3: not a readable SQLite database/);
  });

  it('a store with its pages overwritten: "corrupt"', () => {
    const f = fixture();
    const fd = fs.openSync(f.store, 'r+');
    fs.writeSync(fd, Buffer.alloc(64 * 1024, 0xab), 0, 64 * 1024, 4096);
    fs.closeSync(fd);
    expectError(readUnchanged(f.dir, f.project), 'corrupt', /not a readable SQLite database/);
  });

  it('a -wal of garbage beside a good store: SQLite ignores it, the committed store is read', () => {
    const f = fixture();
    fs.writeFileSync(`${f.store}-wal`, Buffer.alloc(8192, 0x5a));
    const r = readUnchanged(f.dir, f.project);
    expect(r.ok && r.records.length).toBe(f.count);
  });

  it('an empty file: "missing-table"', () => {
    const p = tmpProject();
    cleanup.push(() => fs.rmSync(p, { recursive: true, force: true }));
    const dir = path.join(p, '.codeclone', 'memory');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'engineering_memory.sqlite3'), '');
    expectError(readUnchanged(dir, p), 'missing-table', /no table memory_meta/);
  });

  it('a missing table: "missing-table" naming it', () => {
    const f = fixture();
    const w = new Database(f.store);
    w.exec('DROP TABLE memory_links');
    w.close();
    expectError(
      readUnchanged(f.dir, f.project),
      'missing-table',
      /: no table memory_links: not a codeclone engineering-memory store/,
    );
  });

  it('a missing column: "schema-unsupported" naming it', () => {
    const f = fixture();
    const w = new Database(f.store);
    w.exec('DROP INDEX idx_records_origin; ALTER TABLE memory_records DROP COLUMN origin');
    w.close();
    expectError(readUnchanged(f.dir, f.project), 'schema-unsupported', /memory_records has no column origin/);
  });
});

describe('schema versions', () => {
  it('a newer 1.x: read, with a warning', () => {
    const f = fixture({ schemaVersion: '1.9' });
    const r = readUnchanged(f.dir, f.project);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.records).toHaveLength(f.count);
      expect(r.warnings).toEqual([
        `${f.store}: schema version 1.9 is newer than the 1.7 memtrust was tested with; read anyway`,
      ]);
    }
  });

  it('an older 1.x: read without a warning', () => {
    const f = fixture({ schemaVersion: '1.0' });
    const r = readUnchanged(f.dir, f.project);
    expect(r.ok && r.warnings).toEqual([]);
  });

  it('a new major version or none at all: "schema-unsupported"', () => {
    const f = fixture({ schemaVersion: '2.0' });
    expectError(
      readUnchanged(f.dir, f.project),
      'schema-unsupported',
      /schema version 2\.0 is not one memtrust reads \(1\.x; tested 1\.7\)/,
    );
    const g = fixture();
    const w = new Database(g.store);
    w.exec("DELETE FROM memory_meta WHERE key = 'schema_version'");
    w.close();
    expectError(readUnchanged(g.dir, g.project), 'schema-unsupported', /memory_meta has no schema_version/);
  });
});

describe('read-only places', () => {
  it('a read-only folder and files: read as usual, nothing created', () => {
    // Simulated with permissions (no mount here). Root ignores them, so under root this
    // only shows that the reader never tries to write; as another user SQLite itself
    // could not create the -shm here, and the adapter still reads.
    const f = fixture({ wal: 'live' });
    f.writer!.close();
    const live = fixture({ wal: 'live' });
    for (const g of [f, live]) {
      for (const n of fs.readdirSync(g.dir)) fs.chmodSync(path.join(g.dir, n), 0o444);
      fs.chmodSync(g.dir, 0o555);
      cleanup.push(() => fs.chmodSync(g.dir, 0o755));
      const r = readUnchanged(g.dir, g.project);
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.records).toHaveLength(g.count);
    }
  });

  it('an unreadable store: "unreadable" (not as root: root reads anything)', () => {
    const f = fixture();
    fs.chmodSync(f.store, 0o000);
    cleanup.push(() => fs.chmodSync(f.store, 0o644));
    const r = readUnchanged(f.dir, f.project);
    if (process.getuid?.() === 0) expect(r.ok).toBe(true);
    else expectError(r, 'unreadable', /cannot read the store \(EACCES\)/);
  });
});
