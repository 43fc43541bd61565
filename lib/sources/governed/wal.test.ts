import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGovernedFixture, type Fixture } from './test-fixtures';
import { tmpProject } from './test-support';
import { foldWal } from './wal';

let f: Fixture;
let main: Buffer;
let wal: Buffer;

/** What SQLite itself sees: the same bytes as files in a scratch folder, opened normally. */
function sqliteView(mainBytes: Buffer, walBytes: Buffer | null): string {
  const dir = tmpProject();
  const p = path.join(dir, 'db.sqlite3');
  fs.writeFileSync(p, mainBytes);
  if (walBytes) fs.writeFileSync(`${p}-wal`, walBytes);
  const db = new Database(p);
  const out = dump(db);
  db.close();
  fs.rmSync(dir, { recursive: true });
  return out;
}
function imageView(image: Buffer): string {
  const db = new Database(image, { readonly: true });
  const out = dump(db);
  db.close();
  return out;
}
function dump(db: Database.Database): string {
  const tables = db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'memory_records'").pluck().get() as number;
  if (tables === 0) return 'no tables';
  const h = crypto.createHash('sha256');
  for (const t of ['memory_records', 'memory_evidence', 'memory_links', 'memory_meta'])
    h.update(JSON.stringify(db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).raw().all()));
  return `${db.prepare('SELECT count(*) FROM memory_records').pluck().get() as number}:${h.digest('hex')}`;
}

beforeAll(() => {
  f = buildGovernedFixture(tmpProject(), { wal: 'live' });
  main = fs.readFileSync(f.store);
  wal = fs.readFileSync(`${f.store}-wal`);
});
afterAll(() => {
  f.writer?.close();
  fs.rmSync(f.project, { recursive: true, force: true });
});

describe('foldWal', () => {
  it('gives the same database SQLite recovers from the same store and log', () => {
    const folded = foldWal(main, wal);
    expect(folded.ignored).toBeNull();
    expect(folded.frames).toBeGreaterThan(10);
    expect(imageView(folded.image)).toBe(sqliteView(main, wal));
    expect(imageView(folded.image).startsWith(`${f.count}:`)).toBe(true);
  });

  it('stops where SQLite stops: a torn last frame, a bad checksum mid-log', () => {
    const frame = 24 + 4096;
    const torn = wal.subarray(0, wal.length - 100);
    expect(imageView(foldWal(main, torn).image)).toBe(sqliteView(main, torn));
    const bad = Buffer.from(wal);
    const mid = 32 + Math.floor((wal.length - 32) / frame / 2) * frame + 24 + 10;
    bad[mid] = bad[mid]! ^ 0xff;
    const got = foldWal(main, bad);
    expect(got.frames).toBeLessThan(foldWal(main, wal).frames);
    expect(imageView(got.image)).toBe(sqliteView(main, bad));
  });

  it('ignores a log whose header is damaged, as SQLite does', () => {
    const bad = Buffer.from(wal);
    bad[20] = bad[20]! ^ 0x01; // salt: the header checksum no longer holds
    const got = foldWal(main, bad);
    expect(got.ignored).toBe('header checksum does not match');
    expect(imageView(got.image)).toBe(sqliteView(main, bad));
    expect(imageView(got.image)).toBe('no tables'); // everything was still in the log
    expect(foldWal(main, Buffer.alloc(10)).ignored).toBe('shorter than its header');
    expect(foldWal(main, Buffer.alloc(64, 7)).ignored).toBe('no WAL magic');
  });

  it("leaves the caller's buffers alone", () => {
    const m = Buffer.from(main);
    const w = Buffer.from(wal);
    foldWal(m, w);
    expect(m.equals(main) && w.equals(wal)).toBe(true);
  });
});
