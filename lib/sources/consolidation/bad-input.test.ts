/**
 * Bad input: each case is a read problem with its file and line, the rest of the store
 * is read, and nothing on disk changes (the bytes are compared before and after).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LayoutRead } from '../record';
import { applyLineEdits } from './lines';
import { plan } from './plan';
import { read } from './read';
import { bigStoreText, rec, storeText, writeStore } from './test-fixtures';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-consol-bad-'));
  dirs.push(d);
  return d;
}
const NOW = new Date('2026-11-22T12:00:00Z');
const ctx = { sourceId: 's', now: NOW };

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of fs.readdirSync(dir).sort())
    out[n] = crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(dir, n)))
      .digest('hex');
  return out;
}

/** Reads the store and checks the folder is byte-for-byte unchanged. */
function readUnchanged(dir: string): LayoutRead {
  const before = snapshot(dir);
  const r = read(dir, ctx);
  expect(snapshot(dir)).toEqual(before);
  return r;
}

function keys(r: LayoutRead): string[] {
  return r.records.map((x) => x.key);
}

describe('lines that are not records', () => {
  it('invalid JSON in the middle: named with its line, the records around it read', () => {
    const d = tmp();
    writeStore(d, 's.memory.jsonl', [rec('mem_1'), '{"id":"mem_2","type": semantic}', rec('mem_3')]);
    const r = readUnchanged(d);
    expect(keys(r)).toEqual(['mem_1', 'mem_3']);
    expect(r.records[1]!.location.line).toBe(3);
    expect(r.problems).toEqual([
      {
        file: 's.memory.jsonl',
        line: 2,
        problem: expect.stringMatching(/^line 2 is not valid JSON \(.+\); kept as it is, not read$/),
      },
    ]);
  });

  it('a truncated last line (no newline, cut JSON)', () => {
    const d = tmp();
    const full = JSON.stringify(rec('mem_2'));
    writeStore(d, 's.memory.jsonl', [rec('mem_1'), full.slice(0, 60)], { noFinalEol: true });
    const r = readUnchanged(d);
    expect(keys(r)).toEqual(['mem_1']);
    expect(r.problems).toEqual([
      {
        file: 's.memory.jsonl',
        line: 2,
        problem: expect.stringMatching(
          /^line 2 is truncated: the file ends inside it with no newline \(not valid JSON .*\); kept as it is, not read$/,
        ),
      },
    ]);
  });

  it('a complete last line without a newline is a record, no problem', () => {
    const d = tmp();
    writeStore(d, 's.memory.jsonl', [rec('mem_1'), rec('mem_2')], { noFinalEol: true });
    const r = readUnchanged(d);
    expect(keys(r)).toEqual(['mem_1', 'mem_2']);
    expect(r.problems).toEqual([]);
  });

  it.each([
    ['an array', '[1,2]', /line 1 is JSON an array, not a record object/],
    ['a string', '"mem_1"', /line 1 is JSON a string, not a record object/],
    ['a number', '42', /line 1 is JSON a number, not a record object/],
    ['null', 'null', /line 1 is JSON null, not a record object/],
    ['no id', '{"type":"semantic","statement":"s"}', /line 1 has no id; kept as it is, not read/],
    ['a numeric id', '{"id":7,"statement":"s"}', /line 1 has id 7, not a non-empty text/],
    ['an empty id', '{"id":"  ","statement":"s"}', /line 1 has id " {2}", not a non-empty text/],
  ])('%s', (_l, line, re) => {
    const d = tmp();
    writeStore(d, 's.memory.jsonl', [line, rec('mem_ok')]);
    const r = readUnchanged(d);
    expect(keys(r)).toEqual(['mem_ok']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ file: 's.memory.jsonl', line: 1, problem: expect.stringMatching(re) });
  });

  it('blank lines are skipped, named once with their numbers, line numbers stay true', () => {
    const d = tmp();
    fs.writeFileSync(
      path.join(d, 's.memory.jsonl'),
      `\n${JSON.stringify(rec('mem_1'))}\n   \n\n${JSON.stringify(rec('mem_2'))}\n\n`,
    );
    const r = readUnchanged(d);
    expect(r.records.map((x) => [x.key, x.location.line])).toEqual([
      ['mem_1', 2],
      ['mem_2', 5],
    ]);
    expect(r.problems).toEqual([
      { file: 's.memory.jsonl', line: 1, problem: 'blank line(s) 1, 3, 4, 6 skipped; kept as they are' },
    ]);
  });
});

describe('encodings and line endings', () => {
  it('a BOM: named on line 1, the first record read, kept by a rewrite of line 1', () => {
    const d = tmp();
    writeStore(d, 's.memory.jsonl', [rec('mem_1'), rec('mem_2')], { bom: true });
    const r = readUnchanged(d);
    expect(keys(r)).toEqual(['mem_1', 'mem_2']);
    expect(r.problems).toEqual([
      { file: 's.memory.jsonl', line: 1, problem: expect.stringMatching(/byte-order mark/) },
    ]);
    expect(r.records[0]!.fields[0]).toEqual({ name: 'id', value: '"mem_1"', line: 1 });
  });

  it('CRLF, all lines or mixed: one problem with the count, records read', () => {
    const d = tmp();
    writeStore(d, 'a.memory.jsonl', [rec('mem_1'), rec('mem_2')], { eol: '\r\n' });
    fs.writeFileSync(
      path.join(d, 'b.memory.jsonl'),
      `${JSON.stringify(rec('mem_3'))}\n${JSON.stringify(rec('mem_4'))}\r\n${JSON.stringify(rec('mem_5'))}\n`,
    );
    const r = readUnchanged(d);
    expect(keys(r)).toEqual(['mem_1', 'mem_2', 'mem_3', 'mem_4', 'mem_5']);
    expect(r.problems).toEqual([
      {
        file: 'a.memory.jsonl',
        line: 1,
        problem: '2 line(s) end in CRLF: read as usual; a rewritten line keeps its own ending',
      },
      {
        file: 'b.memory.jsonl',
        line: 2,
        problem:
          '1 line(s) end in CRLF (2 other line(s) end in LF): read as usual; a rewritten line keeps its own ending',
      },
    ]);
    expect(r.records[1]!.fields.at(-1)!.value).toBe('"active"');
  });

  it('bytes that are not UTF-8: named for the file; that line is never rewritten, others are', () => {
    const d = tmp();
    const good = Buffer.from(`${JSON.stringify(rec('mem_1'))}\n`);
    const bad = Buffer.concat([
      Buffer.from('{"id":"mem_2","type":"semantic","statement":"caf'),
      Buffer.from([0xe9]),
      Buffer.from(
        '","evidence":["e"],"confidence":"low","sensitivity":"public","sourceStep":"B.1","createdAt":"2026-11-01T00:00:00Z","status":"active"}\n',
      ),
    ]);
    fs.writeFileSync(path.join(d, 's.memory.jsonl'), Buffer.concat([good, bad]));
    const r = readUnchanged(d);
    expect(keys(r)).toEqual(['mem_1', 'mem_2']);
    expect(r.problems).toEqual([
      { file: 's.memory.jsonl', line: 0, problem: expect.stringMatching(/not valid UTF-8/) },
    ]);
    const rd = (f: string) => fs.readFileSync(path.join(d, f));
    const refused = plan(r.records[1]!, 'archive', { now: NOW, read: rd });
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringMatching(/line 2 of s\.memory\.jsonl holds bytes that are not valid UTF-8/),
    });
    const ok = plan(r.records[0]!, 'archive', { now: NOW, read: rd });
    expect(ok.ok).toBe(true);
    const after = applyLineEdits(rd('s.memory.jsonl'), (ok as unknown as { plan: { edits: never[] } }).plan.edits);
    expect(after.subarray(after.indexOf(0x0a) + 1).equals(bad)).toBe(true);
  });
});

describe('duplicate ids', () => {
  it('in one file: the last line is the record, each earlier line named with the winner', () => {
    const d = tmp();
    writeStore(d, 's.memory.jsonl', [
      rec('mem_1', { statement: 'first' }),
      rec('mem_2'),
      rec('mem_1', { statement: 'second' }),
      rec('mem_1', { statement: 'third' }),
    ]);
    const r = readUnchanged(d);
    expect(keys(r)).toEqual(['mem_2', 'mem_1']);
    const m = r.records[1]!;
    expect([m.title, m.location.line]).toEqual(['third', 4]);
    expect(m.detail.duplicates).toEqual([
      { file: 's.memory.jsonl', line: 1 },
      { file: 's.memory.jsonl', line: 3 },
    ]);
    expect(r.problems).toEqual([
      {
        file: 's.memory.jsonl',
        line: 1,
        problem:
          'duplicate id mem_1 (3 lines hold it): the last one, line 4, is the record; line 1 is kept as it is and ignored',
      },
      {
        file: 's.memory.jsonl',
        line: 3,
        problem:
          'duplicate id mem_1 (3 lines hold it): the last one, line 4, is the record; line 3 is kept as it is and ignored',
      },
    ]);
  });

  it('across files: the later file (name order) wins; a rewrite touches only its line', () => {
    const d = tmp();
    writeStore(d, 'a.memory.jsonl', [rec('mem_1', { statement: 'in a' })]);
    writeStore(d, 'b.memory.jsonl', [rec('mem_1', { statement: 'in b' })]);
    const r = readUnchanged(d);
    expect(r.records.map((x) => [x.title, x.location.file])).toEqual([['in b', 'b.memory.jsonl']]);
    expect(r.problems[0]).toMatchObject({
      file: 'a.memory.jsonl',
      line: 1,
      problem: expect.stringContaining('the last one, b.memory.jsonl line 1, is the record'),
    });
    const p = plan(r.records[0]!, 'archive', { now: NOW, read: (f) => fs.readFileSync(path.join(d, f)) });
    expect(p.ok && p.plan.files).toEqual(['b.memory.jsonl']);
  });
});

describe('wrong types', () => {
  it('each wrong field is a problem on the record line; the record is still read, the field counted missing', () => {
    const d = tmp();
    writeStore(d, 's.memory.jsonl', [
      rec('mem_1', {
        confidence: 3,
        evidence: { path: 'x' },
        createdAt: 5,
        status: true,
        type: 'sematic',
        conflictsWith: 9,
        statement: ['a'],
      }),
      rec('mem_2', { evidence: ['ok', 7, null], sourceStep: 12, sensitivity: 'top-secret' }),
    ]);
    const r = readUnchanged(d);
    expect(keys(r)).toEqual(['mem_1', 'mem_2']);
    const p1 = r.problems.filter((x) => x.line === 1).map((x) => x.problem);
    expect(p1).toEqual([
      'mem_1: type is "sematic" (string), expected one of episodic, semantic, procedural, working',
      'mem_1: statement is a list, expected text',
      'mem_1: evidence is an object, expected text or a list of text',
      'mem_1: confidence is 3 (number), expected one of low, medium, high',
      'mem_1: createdAt is 5 (number), expected text',
      'mem_1: status is true (boolean), expected one of active, needs-review, expired',
      'mem_1: conflictsWith is 9 (number), expected a list of ids',
    ]);
    const m1 = r.records[0]!;
    expect(m1.tier).toBe('quarantined');
    expect(m1.flags).toEqual(['write-rule']);
    expect(m1.title).toBe('(no statement)');
    const p2 = r.problems.filter((x) => x.line === 2).map((x) => x.problem);
    expect(p2).toEqual([
      'mem_2: evidence has 2 item(s) that are not text (7 (number)); they are not counted',
      'mem_2: sensitivity is "top-secret" (string), expected one of public, internal, secret',
      'mem_2: sourceStep is 12 (number), expected text',
    ]);
    expect(r.records[1]!.detail.evidence).toEqual(['ok']);
    expect(r.records[1]!.flagReasons['write-rule']).toMatch(/no sourceStep/);
  });

  it('problems per file are capped with a closing count', () => {
    const d = tmp();
    writeStore(
      d,
      's.memory.jsonl',
      Array.from({ length: 1200 }, (_, i) => `not json ${i}`),
    );
    const r = readUnchanged(d);
    expect(r.problems).toHaveLength(1001);
    expect(r.problems.at(-1)).toEqual({
      file: 's.memory.jsonl',
      line: 0,
      problem: '200 more problems in this file not listed (first 1000 shown)',
    });
  });

  it('an unreadable file is one problem, the other files are read', () => {
    if (process.getuid?.() === 0) return; // root reads everything
    const d = tmp();
    writeStore(d, 'a.memory.jsonl', [rec('mem_1')]);
    const p = writeStore(d, 'b.memory.jsonl', [rec('mem_2')]);
    fs.chmodSync(p, 0o000);
    const r = read(d, ctx);
    fs.chmodSync(p, 0o600);
    expect(keys(r)).toEqual(['mem_1']);
    expect(r.problems).toEqual([
      { file: 'b.memory.jsonl', line: 0, problem: 'cannot be read (EACCES); none of its records are shown' },
    ]);
  });
});

describe('a 50 MB file', () => {
  it('is read in one linear pass with its bad lines named, nothing changed; a rewrite of one line keeps the rest', () => {
    const d = tmp();
    const n = 230_000;
    const small = storeText([]) + bigStoreText(n / 10);
    const bad = 'this line is not json';
    const body = bigStoreText(n);
    const mid = body.indexOf('\n', body.length >> 1) + 1;
    const text = `${body.slice(0, mid) + bad}\n${body.slice(mid)}{"id":"mem_cut","type":"sem`;
    fs.writeFileSync(path.join(d, 'big.memory.jsonl'), text);
    expect(fs.statSync(path.join(d, 'big.memory.jsonl')).size).toBeGreaterThan(50 * 1024 * 1024);
    const badLine = text.slice(0, mid).split('\n').length;

    const sd = tmp();
    fs.writeFileSync(path.join(sd, 'small.memory.jsonl'), small);
    read(sd, ctx); // warm-up
    let t = performance.now();
    read(sd, ctx);
    const smallMs = performance.now() - t;
    t = performance.now();
    const r = readUnchanged(d);
    const bigMs = performance.now() - t;

    expect(r.records).toHaveLength(n);
    expect(r.problems).toEqual([
      {
        file: 'big.memory.jsonl',
        line: badLine,
        problem: expect.stringMatching(new RegExp(`^line ${badLine} is not valid JSON`)),
      },
      {
        file: 'big.memory.jsonl',
        line: n + 2,
        problem: expect.stringMatching(new RegExp(`^line ${n + 2} is truncated`)),
      },
    ]);
    console.log(`50 MB read: ${bigMs.toFixed(0)} ms (5 MB: ${smallMs.toFixed(0)} ms)`);
    // Linear: 10x the lines costs about 10x (quadratic work would be ~100x). Loose for a loaded machine.
    expect(bigMs / smallMs, `small ${smallMs.toFixed(0)} ms, big ${bigMs.toFixed(0)} ms`).toBeLessThan(40);

    const last = r.records.at(-1)!;
    const rd = (f: string) => fs.readFileSync(path.join(d, f));
    const p = plan(last, 'archive', { now: NOW, read: rd });
    expect(p.ok).toBe(true);
    const before = rd('big.memory.jsonl');
    const after = applyLineEdits(before, (p as unknown as { plan: { edits: never[] } }).plan.edits);
    const at = before.indexOf(Buffer.from(`"id":"${last.key}"`));
    const lineStart = before.lastIndexOf(0x0a, at) + 1;
    expect(after.subarray(0, lineStart).equals(before.subarray(0, lineStart))).toBe(true);
    const tail = before.subarray(before.indexOf(0x0a, at) + 1);
    expect(after.subarray(after.length - tail.length).equals(tail)).toBe(true);
  }, 120_000);
});
