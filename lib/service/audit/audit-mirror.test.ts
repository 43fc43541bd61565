/**
 * The audit mirror's fast paths (docs/performance.md, "The audit mirror") against the plain
 * form they replace, kept here as the reference: the chunk decoded as one string and split,
 * each event upserted row by row with every index live. Both mirror the same audit files
 * into fresh databases; every row of `audit_events` (seq included) and `audit_cursors`, and
 * the count returned, must be equal — for first mirrors above and below the bulk size, ids
 * repeated inside and across files, later appends, a replaced file, and lines that are
 * not events.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDb, openDb } from '../../../db/client';
import type { AuditEvent } from '../../audit/event';
import { eventInserter, mirrorAudit } from './audit-mirror';
import { auditDir, listAuditFiles, readAuditFrom } from './audit-log';

let tmp: string;
let root: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-audit-mirror-'));
  root = path.join(tmp, 'root');
  fs.mkdirSync(auditDir(root), { recursive: true });
});
afterEach(() => {
  for (const f of fs.readdirSync(tmp)) if (f.endsWith('.sqlite')) closeDb(path.join(tmp, f));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The reader before per-line decoding: the whole chunk as one string, split on newlines. */
function referenceRead(file: string, offset: number) {
  const size = fs.statSync(file).size;
  if (size <= offset) return { events: [] as AuditEvent[], end: offset, size };
  const buf = fs.readFileSync(file).subarray(offset);
  const lastNl = buf.lastIndexOf(0x0a);
  if (lastNl === -1) return { events: [] as AuditEvent[], end: offset, size };
  const events: AuditEvent[] = [];
  for (const line of buf.subarray(0, lastNl).toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as AuditEvent;
      if (typeof e.id === 'string' && typeof e.memory === 'string' && typeof e.at === 'string') events.push(e);
    } catch {
      // not an event
    }
  }
  return { events, end: offset + lastNl + 1, size };
}

/** The mirror before this round: every event upserted with the table's indexes live. */
function referenceMirror(sqlite: Database.Database, source: string): number {
  const getCursor = sqlite.prepare('SELECT offset FROM audit_cursors WHERE file = ?');
  const setCursor = sqlite.prepare(
    'INSERT OR REPLACE INTO audit_cursors (file, source, offset, size) VALUES (?, ?, ?, ?)',
  );
  const insert = eventInserter(sqlite);
  let added = 0;
  for (const file of listAuditFiles(root)) {
    let offset = (getCursor.get(file) as { offset: number } | undefined)?.offset ?? 0;
    let chunk = referenceRead(file, offset);
    if (chunk.size < offset) {
      offset = 0;
      chunk = referenceRead(file, 0);
    }
    if (chunk.end === offset) continue;
    sqlite.transaction(() => {
      for (const e of chunk.events) added += insert(source, e).changes;
      setCursor.run(file, source, chunk.end, chunk.size);
    })();
  }
  return added;
}

/** Every row both mirrors write, in a fixed order, with the file paths made relative. */
function dump(sqlite: Database.Database) {
  return {
    events: sqlite.prepare('SELECT * FROM audit_events ORDER BY seq').all(),
    cursors: (sqlite.prepare('SELECT * FROM audit_cursors ORDER BY file').all() as { file: string }[]).map((c) => ({
      ...c,
      file: path.relative(root, c.file),
    })),
    indexes: sqlite
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_events' ORDER BY name")
      .all(),
  };
}

let dbs = 0;
function fresh(): Database.Database {
  return openDb(path.join(tmp, `db-${dbs++}.sqlite`)).sqlite;
}

const TEXTS = ['plain', 'naïve café', 'Пароль сменён', '密码已更新', 'emoji 🙂 here', 'tab\there', '"quoted"'];

function event(i: number, id: string, extra: Partial<AuditEvent> & Record<string, unknown> = {}): AuditEvent {
  return {
    v: 1,
    id,
    at: `2026-05-${String((i % 28) + 1).padStart(2, '0')}T09:30:00Z`,
    machine: 'm1',
    actor: i % 3 ? 'user:cli' : 'validator',
    action: i % 2 ? 'demote' : 'restore',
    memory: `memory-${i % 50}.md`,
    from: 'verified',
    to: 'quarantined',
    reason: TEXTS[i % TEXTS.length]!,
    findings: i % 4 ? [] : [{ check: 'secret', code: 'token', line: i, message: TEXTS[(i + 1) % TEXTS.length]! }],
    before_sha256: 'a'.repeat(64),
    after_sha256: null,
    recovered: i % 5 === 0,
    ...extra,
  } as AuditEvent;
}

/** One file's lines: events, with blank lines, CRLF ends, broken JSON and non-events mixed in. */
function lines(events: AuditEvent[], noise: number): string {
  const out: string[] = [];
  events.forEach((e, i) => {
    out.push(JSON.stringify(e));
    if (noise && i % noise === 1) out.push('');
    if (noise && i % noise === 2) out.push('{"id": "broken", ');
    if (noise && i % noise === 3) out.push(JSON.stringify({ id: 'no-memory', at: e.at }));
    if (noise && i % noise === 4) out[out.length - 1] += '\r';
  });
  return `${out.join('\n')}\n`;
}

function writeFile(name: string, text: string) {
  fs.writeFileSync(path.join(auditDir(root), name), text);
}

/** Mirrors the root with both forms into fresh databases and compares everything. */
function expectSame(dbA = fresh(), dbB = fresh()) {
  const a = mirrorAudit(dbA, 'src', root);
  const b = referenceMirror(dbB, 'src');
  expect(a).toBe(b);
  expect(dump(dbA)).toEqual(dump(dbB));
  return { dbA, dbB, added: a };
}

describe('audit mirror, against the row-by-row upsert it replaces', () => {
  it('a first bulk mirror of several files, then appends, a replaced file and a new file', () => {
    const many = Array.from({ length: 3000 }, (_, i) => event(i, `op-${(i * 7919) % 100003}`));
    writeFile('m1.jsonl', lines(many.slice(0, 2500), 7));
    writeFile('m2.jsonl', lines(many.slice(2500), 5));
    const { dbA, dbB, added } = expectSame();
    expect(added).toBe(3000); // the bulk path ran: files hold more than 512 KiB
    expect(fs.statSync(path.join(auditDir(root), 'm1.jsonl')).size).toBeGreaterThan(512 * 1024);

    // An append with a partial last line, a file replaced by a shorter one, a new file.
    fs.appendFileSync(
      path.join(auditDir(root), 'm1.jsonl'),
      `${lines([event(1, 'op-new-1'), event(2, 'op-new-2')], 0)}{"id":"partial`,
    );
    writeFile('m2.jsonl', lines([event(3, 'op-m2-only')], 0));
    writeFile('m3.jsonl', lines([event(4, 'op-m3'), event(5, 'op-new-1')], 0));
    expect(mirrorAudit(dbA, 'src', root)).toBe(referenceMirror(dbB, 'src'));
    expect(dump(dbA)).toEqual(dump(dbB));
  });

  it('an id repeated inside a bulk mirror falls back to the upsert: the first row stays, a later layout fills it', () => {
    const many = Array.from({ length: 2600 }, (_, i) => event(i, `op-${i}`));
    many[2000] = event(2000, 'op-17', { layout: 'canonical', record_action: 'retire' });
    many[2100] = event(2100, 'op-18');
    writeFile('m1.jsonl', lines(many, 0));
    const { dbA } = expectSame();
    const row = dbA.prepare("SELECT layout, record_action FROM audit_events WHERE id = 'op-17'").get();
    expect(row).toEqual({ layout: 'canonical', record_action: 'retire' });
    expect(dbA.prepare('SELECT count(*) AS n FROM audit_events').get()).toEqual({ n: 2598 });
  });

  it('an id repeated across two files of a bulk mirror', () => {
    const first = Array.from({ length: 2000 }, (_, i) => event(i, `op-${i}`));
    const second = Array.from({ length: 2000 }, (_, i) => event(i, `op-${i + 1990}`));
    writeFile('a.jsonl', lines(first, 0));
    writeFile('b.jsonl', lines(second, 0));
    expectSame();
  });

  it('random small and large files, first mirror and a second one after appends', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            n: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1500, max: 2200 })),
            dupEvery: fc.integer({ min: 0, max: 900 }),
            noise: fc.integer({ min: 0, max: 9 }),
            more: fc.integer({ min: 0, max: 30 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        (files) => {
          for (const f of fs.readdirSync(auditDir(root))) fs.rmSync(path.join(auditDir(root), f));
          let next = 0;
          const ids = (k: number, dupEvery: number) =>
            dupEvery > 0 && k % dupEvery === dupEvery - 1 ? `op-${k - 1}` : `op-${next++}`;
          for (const [j, f] of files.entries())
            writeFile(
              `f${j}.jsonl`,
              lines(
                Array.from({ length: f.n }, (_, k) => event(k, ids(k, f.dupEvery))),
                f.noise,
              ),
            );
          const { dbA, dbB } = expectSame();
          for (const [j, f] of files.entries())
            fs.appendFileSync(
              path.join(auditDir(root), `f${j}.jsonl`),
              lines(
                Array.from({ length: f.more }, (_, k) => event(k, ids(k, f.dupEvery))),
                f.noise,
              ),
            );
          expect(mirrorAudit(dbA, 'src', root)).toBe(referenceMirror(dbB, 'src'));
          expect(dump(dbA)).toEqual(dump(dbB));
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('readAuditFrom, line by line', () => {
  it('reads what the whole-chunk decode read, from any offset, for any bytes', () => {
    const file = path.join(auditDir(root), 'bytes.jsonl');
    // Lines of events (non-ASCII text in most), noise and raw bytes (invalid UTF-8 too),
    // ended by LF or CRLF, and maybe a partial last line.
    const line = fc.oneof(
      fc.constantFrom(...TEXTS.map((t, i) => Buffer.from(JSON.stringify(event(i, `op-${t}`))))),
      fc.constantFrom('', ' ', '{', '\ufeff{}', '\u00e9').map((t) => Buffer.from(t)),
      fc.uint8Array({ maxLength: 8 }).map((b) => Buffer.from(b)),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(line, fc.boolean()), { maxLength: 30 }), line, fc.nat(), (lines, tail, cut) => {
        const buf = Buffer.concat([
          ...lines.map(([l, crlf]) => Buffer.concat([l, Buffer.from(crlf ? '\r\n' : '\n')])),
          tail,
        ]);
        fs.writeFileSync(file, buf);
        // Mostly from the start (the whole file), else from any byte.
        const offset = cut % 3 === 0 || buf.length === 0 ? 0 : cut % (buf.length + 1);
        const today = readAuditFrom(file, offset);
        const before = referenceRead(file, offset);
        expect({ events: today.events, end: today.end, size: today.size }).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });
});
