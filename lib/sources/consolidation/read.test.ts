/** Reading real temp stores: the contract fixture record by record, detection, the change token. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeSource } from '../index';
import { layoutAdapter, LAYOUT_ADAPTERS, detectLayoutAdapter } from '../registry';
import { consolidationAdapter } from './index';
import { changeToken, detect, read } from './read';
import {
  CONSOLIDATION_FIXTURE,
  CONSOLIDATION_FIXTURE_NOW,
  FIXTURE_IDS as I,
  rec,
  writeContractFixture,
  writeStore,
} from './test-fixtures';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-consol-read-'));
  dirs.push(d);
  return d;
}
const ctx = { sourceId: 'cons-abc123', now: new Date(CONSOLIDATION_FIXTURE_NOW) };

describe('the contract fixture', () => {
  it('every record maps to its tier, flags and native state', () => {
    const d = tmp();
    writeContractFixture(d);
    const r = read(d, ctx);
    expect(r.shape).toBe('jsonl');
    const got = Object.fromEntries(r.records.map((x) => [x.key, { tier: x.tier, flags: x.flags, native: x.native }]));
    expect(got).toEqual(CONSOLIDATION_FIXTURE.records);
    // Covers every status, confidence, type and sensitivity.
    const detail = r.records.map((x) => x.detail);
    expect(new Set(detail.map((x) => x.status))).toEqual(new Set(['active', 'needs-review', 'expired']));
    expect(new Set(detail.map((x) => x.confidence))).toEqual(new Set(['low', 'medium', 'high']));
    expect(new Set(detail.map((x) => x.type))).toEqual(new Set(['episodic', 'semantic', 'procedural', 'working']));
    expect(new Set(detail.map((x) => x.sensitivity))).toEqual(new Set(['public', 'internal', 'secret']));
  });

  it('record shape: id, location, origin, title, text, dates, fields with the unknown key, detail', () => {
    const d = tmp();
    writeContractFixture(d);
    const r = read(d, ctx);
    const v = r.records.find((x) => x.key === I.verified)!;
    expect(v).toMatchObject({
      id: `cons-abc123:${I.verified}`,
      layout: 'consolidation',
      location: { file: 'agent.memory.jsonl', line: 1, endLine: 1 },
      origin: 'B.1',
      createdAt: '2026-10-01T09:00:00Z',
      verifiedAt: null,
    });
    expect(v.title).toBe(`Fact ${I.verified}: the build uses the pinned toolchain in tools/versions.txt`);
    expect(v.text).toBe(`${v.title}\ntools/versions.txt:3\ncmd: make print-toolchain`);
    expect(v.fields.map((f) => f.name)).toEqual([
      'id',
      'type',
      'statement',
      'evidence',
      'confidence',
      'sensitivity',
      'sourceStep',
      'createdAt',
      'expiresAt',
      'status',
      'x-origin-session',
    ]);
    expect(v.fields.find((f) => f.name === 'x-origin-session')).toEqual({
      name: 'x-origin-session',
      value: '"sess-fake-0001"',
      line: 1,
    });
    expect(v.fields.find((f) => f.name === 'expiresAt')!.value).toBe('null');
    expect(v.detail).toMatchObject({
      type: 'semantic',
      confidence: 'high',
      sensitivity: 'public',
      sourceStep: 'B.1',
      status: 'active',
      expiresAt: '2027-03-30T09:00:00Z',
      conflictsWith: [],
      conflictNote: null,
      file: 'agent.memory.jsonl',
    });
    const young = r.records.find((x) => x.key === I.young)!;
    expect(young.detail.evidence).toEqual(['log: ci run 4411 (fake)']);
    expect(young.refused.promote).toBe(
      'promote refused: the 7-day observation from createdAt ends 2026-11-27T08:30:00Z; promote is possible from then',
    );
    const crlf = r.records.find((x) => x.key === I.crlfReview)!;
    expect(crlf.location).toEqual({ file: 'session.memory.jsonl', line: 2, endLine: 2 });
    expect(crlf.fields.at(-1)).toEqual({ name: 'reviewNote', value: '"only seen once"', line: 2 });
  });

  it('the contradiction pair: both quarantined + conflict, each naming the other and the note; restore and archive allowed', () => {
    const d = tmp();
    writeContractFixture(d);
    const r = read(d, ctx);
    const a = r.records.find((x) => x.key === I.pairKeep)!;
    const b = r.records.find((x) => x.key === I.pairOther)!;
    expect(a.flagReasons.conflict).toBe(`contradicts ${I.pairOther} (needs-review): ${a.detail.conflictNote}`);
    expect(b.flagReasons.conflict).toContain(`contradicts ${I.pairKeep} (needs-review)`);
    expect(a.detail.conflictNote).toMatch(/package\.json.*\.nvmrc/);
    expect(a.detail.conflictsWith).toEqual([I.pairOther]);
    expect(a.actions).toEqual(['restore', 'archive']);
    expect(b.actions).toEqual(['restore', 'archive']);
  });

  it('flag reasons for write rules and expiry', () => {
    const d = tmp();
    writeContractFixture(d);
    const by = new Map(read(d, ctx).records.map((x) => [x.key, x]));
    expect(by.get(I.noEvidence)!.flagReasons['write-rule']).toMatch(/no evidence/);
    expect(by.get(I.noSourceStep)!.flagReasons['write-rule']).toMatch(/no sourceStep/);
    expect(by.get(I.secret)!.flagReasons['write-rule']).toMatch(/sensitivity secret/);
    expect(by.get(I.secret)!.refused.restore).toMatch(/restore refused: .*sensitivity secret/);
    expect(by.get(I.working)!.flagReasons['write-rule']).toMatch(/type working/);
    expect(by.get(I.working)!.flagReasons.expired).toBe(
      'expired 2026-11-22T11:00:00Z (createdAt + 0 days for type working)',
    );
    expect(by.get(I.pastTtl)!.flagReasons.expired).toBe(
      'expired 2026-11-03T10:00:00Z (createdAt + 14 days for type episodic)',
    );
  });

  it('problems: the bad line with its number, the CRLF file; nothing else', () => {
    const d = tmp();
    writeContractFixture(d);
    const r = read(d, ctx);
    expect(r.problems).toHaveLength(2);
    expect(r.problems[0]).toMatchObject({
      ...CONSOLIDATION_FIXTURE.badLine,
      problem: expect.stringMatching(/^line 8 is not valid JSON .*; kept as it is, not read$/),
    });
    expect(r.problems[1]).toMatchObject({
      file: 'session.memory.jsonl',
      line: 1,
      problem: expect.stringMatching(/2 line\(s\) end in CRLF/),
    });
    expect(r.warnings).toEqual([]);
  });
});

describe('detection and registry', () => {
  it('a folder with *.memory.jsonl is jsonl; others are not', () => {
    const d = tmp();
    expect(detect(d)).toBeNull();
    fs.writeFileSync(path.join(d, 'memory.jsonl'), '{"type":"entity"}\n');
    fs.mkdirSync(path.join(d, 'x.memory.jsonl'));
    expect(detect(d)).toBeNull();
    writeStore(d, 'a.memory.jsonl', [rec('mem_1')]);
    expect(detect(d)).toEqual({ shape: 'jsonl' });
    expect(detect(path.join(d, 'missing'))).toBeNull();
  });

  it('is registered once and found by detectLayoutAdapter', () => {
    expect(LAYOUT_ADAPTERS.filter((a) => a.layout === 'consolidation')).toHaveLength(1);
    expect(layoutAdapter('consolidation')).toBe(consolidationAdapter);
    const d = tmp();
    writeContractFixture(d);
    expect(detectLayoutAdapter(d)).toEqual({ adapter: consolidationAdapter, shape: 'jsonl' });
    expect(consolidationAdapter.actions).toEqual(['promote', 'reaffirm', 'demote', 'restore', 'archive']);
    expect(consolidationAdapter.readOnly).toBeUndefined();
  });

  it('a configured consolidation root is a record source, not refused', () => {
    const d = tmp();
    writeContractFixture(d);
    const s = describeSource(d);
    expect(s).toMatchObject({ layout: 'consolidation', shape: 'jsonl', label: 'consolidation records', error: null });
    expect(s.adapter).toBe(consolidationAdapter);
    expect(s.refused).toBeUndefined();
  });

  it('files are read in name order; a root with none gives a warning', () => {
    const d = tmp();
    expect(read(d, ctx).warnings[0]).toMatch(/no \*\.memory\.jsonl files/);
    writeStore(d, 'b.memory.jsonl', [rec('mem_b')]);
    writeStore(d, 'a.memory.jsonl', [rec('mem_a')]);
    expect(read(d, ctx).records.map((x) => x.key)).toEqual(['mem_a', 'mem_b']);
  });
});

describe('changeToken', () => {
  it('moves when a file changes, is added or removed; stays on a no-op', () => {
    const d = tmp();
    const p = writeStore(d, 'a.memory.jsonl', [rec('mem_a')]);
    const t0 = changeToken(d);
    expect(changeToken(d)).toBe(t0);
    fs.appendFileSync(p, `${JSON.stringify(rec('mem_b'))}\n`);
    const t1 = changeToken(d);
    expect(t1).not.toBe(t0);
    writeStore(d, 'b.memory.jsonl', [rec('mem_c')]);
    const t2 = changeToken(d);
    expect(t2).not.toBe(t1);
    // same size, new inode (an atomic rename)
    const q = path.join(d, 'b.memory.jsonl');
    const bytes = fs.readFileSync(q);
    fs.writeFileSync(`${q}.tmp`, bytes);
    fs.renameSync(`${q}.tmp`, q);
    expect(changeToken(d)).not.toBe(t2);
    fs.rmSync(q);
    expect(changeToken(d)).not.toBe(t2);
  });
});
