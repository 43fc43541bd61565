/**
 * Every action's bytes on real temp files: the one edited line is exactly as expected,
 * every other line and every other key of that line is byte-for-byte what it was.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanContext } from '../layout-adapter';
import type { LayoutRecord, RecordPlan, ReplaceLines } from '../record';
import { applyLineEdits } from './lines';
import { plan } from './plan';
import { read } from './read';
import { scanObject } from './scan';
import { CONSOLIDATION_FIXTURE_NOW, FIXTURE_IDS as I, rec, writeContractFixture, writeStore } from './test-fixtures';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-consol-plan-'));
  dirs.push(d);
  return d;
}
const NOW = new Date(CONSOLIDATION_FIXTURE_NOW);
const STAMP = '2026-11-22T12:00:00Z';

function pctx(root: string, extra: Partial<PlanContext> = {}): PlanContext {
  return {
    now: NOW,
    read: (f) => {
      try {
        return fs.readFileSync(path.join(root, f));
      } catch {
        return null;
      }
    },
    ...extra,
  };
}

function recordOf(root: string, key: string): LayoutRecord {
  const r = read(root, { sourceId: 's', now: NOW }).records.find((x) => x.key === key);
  expect(r, key).toBeDefined();
  return r!;
}

function planOk(root: string, key: string, action: string, extra: Partial<PlanContext> = {}): RecordPlan {
  const res = plan(recordOf(root, key), action, pctx(root, extra));
  if (!res.ok) throw new Error(res.reason);
  return res.plan;
}

/** Applies the plan to the file on disk (as the write pipeline would) and returns before/after bytes. */
function apply(root: string, p: RecordPlan): { before: Buffer; after: Buffer; file: string } {
  const file = p.files[0]!;
  const abs = path.join(root, file);
  const before = fs.readFileSync(abs);
  const after = applyLineEdits(before, p.edits);
  fs.writeFileSync(abs, after);
  return { before, after, file };
}

/** Lines with their terminators, byte-exact. */
function rawLines(b: Buffer): string[] {
  return b.toString('latin1').split(/(?<=\n)/);
}

/** Checks every line but `line` is unchanged and returns the old and new text of `line`. */
function onlyLineChanged(before: Buffer, after: Buffer, line: number): { old: string; now: string } {
  const a = rawLines(before);
  const b = rawLines(after);
  expect(b.length).toBe(a.length);
  for (let i = 0; i < a.length; i++) if (i !== line - 1) expect(b[i], `line ${i + 1}`).toBe(a[i]);
  return {
    old: Buffer.from(a[line - 1]!, 'latin1').toString('utf8'),
    now: Buffer.from(b[line - 1]!, 'latin1').toString('utf8'),
  };
}

/** Every member of the old line keeps its raw text and position unless named in `changed`; appended ones come last. */
function otherKeysKept(oldLine: string, newLine: string, changed: Record<string, unknown>): void {
  const strip = (s: string) => s.replace(/\r?\n$/, '');
  const o = scanObject(strip(oldLine))!;
  const n = scanObject(strip(newLine))!;
  const raw = (s: string, m: { valueStart: number; valueEnd: number }) => strip(s).slice(m.valueStart, m.valueEnd);
  expect(n.members.slice(0, o.members.length).map((m) => m.name)).toEqual(o.members.map((m) => m.name));
  for (let i = 0; i < o.members.length; i++) {
    const name = o.members[i]!.name;
    if (name in changed) expect(JSON.parse(raw(newLine, n.members[i]!))).toEqual(changed[name]);
    else expect(raw(newLine, n.members[i]!), name).toBe(raw(oldLine, o.members[i]!));
  }
  const appended = n.members.slice(o.members.length);
  for (const m of appended) expect(JSON.parse(raw(newLine, m))).toEqual(changed[m.name]);
  expect(new Set([...o.members.map((m) => m.name), ...appended.map((m) => m.name)])).toEqual(
    new Set([...o.members.map((m) => m.name), ...Object.keys(changed)]),
  );
}

describe('actions as field changes, byte for byte', () => {
  it('promote: confidence high + verifiedAt appended in the compact style', () => {
    const d = tmp();
    writeContractFixture(d);
    const p = planOk(d, I.promotable, 'promote');
    expect(p.edits).toHaveLength(1);
    const e = p.edits[0] as ReplaceLines;
    expect(e).toMatchObject({ kind: 'replace-lines', file: 'agent.memory.jsonl', line: 2, count: 1 });
    const { before, after } = apply(d, p);
    const { old, now } = onlyLineChanged(before, after, 2);
    expect(e.expect.toString()).toBe(old);
    expect(now).toBe(
      old.replace('"confidence":"medium"', '"confidence":"high"').replace(/}\n$/, `,"verifiedAt":"${STAMP}"}\n`),
    );
    otherKeysKept(old, now, { confidence: 'high', verifiedAt: STAMP });
    expect(p.summary).toBe(
      `promote ${I.promotable} (agent.memory.jsonl line 2): confidence "medium" → "high", verifiedAt (absent) → "${STAMP}"`,
    );
    expect(p.memo).toMatchObject({
      file: 'agent.memory.jsonl',
      line: 2,
      confidenceBefore: '"medium"',
      verifiedAtBefore: '(absent)',
    });
    const r = recordOf(d, I.promotable);
    expect(r.tier).toBe('verified');
    expect(r.verifiedAt).toBe(STAMP);
  });

  it('reaffirm: verifiedAt written; a second reaffirm replaces the value in place', () => {
    const d = tmp();
    writeContractFixture(d);
    const first = apply(d, planOk(d, I.verified, 'reaffirm'));
    const l1 = onlyLineChanged(first.before, first.after, 1);
    otherKeysKept(l1.old, l1.now, { verifiedAt: STAMP });
    expect(l1.now).toContain('"x-origin-session":"sess-fake-0001","verifiedAt":"2026-11-22T12:00:00Z"}');
    const later = new Date('2026-11-23T08:00:00Z');
    const res = plan(recordOf(d, I.verified), 'reaffirm', { ...pctx(d), now: later });
    expect(res.ok).toBe(true);
    const second = apply(d, (res as { plan: RecordPlan }).plan);
    const l2 = onlyLineChanged(second.before, second.after, 1);
    expect(l2.now).toBe(l2.old.replace(STAMP, '2026-11-23T08:00:00Z'));
  });

  it('demote: status needs-review + reviewNote (one line, quotes escaped); refused without a reason', () => {
    const d = tmp();
    writeContractFixture(d);
    const no = plan(recordOf(d, I.verified), 'demote', pctx(d));
    expect(no).toEqual({ ok: false, reason: expect.stringMatching(/^demote refused: give a one-line reason/) });
    const { before, after } = apply(d, planOk(d, I.verified, 'demote', { reason: 'wrong "path"\nsee ticket' }));
    const { old, now } = onlyLineChanged(before, after, 1);
    otherKeysKept(old, now, { status: 'needs-review', reviewNote: 'wrong "path" see ticket' });
    expect(recordOf(d, I.verified).tier).toBe('quarantined');
  });

  it('restore and archive: status only', () => {
    const d = tmp();
    writeContractFixture(d);
    const a = apply(d, planOk(d, I.young, 'archive'));
    const la = onlyLineChanged(a.before, a.after, 3);
    expect(la.now).toBe(la.old.replace('"status":"active"', '"status":"expired"'));
    const r = apply(d, planOk(d, I.young, 'restore'));
    const lr = onlyLineChanged(r.before, r.after, 3);
    expect(lr.now).toBe(la.old);
  });

  it('CRLF and spaced style: the line keeps its CRLF, appended keys use ": " and ", "', () => {
    const d = tmp();
    writeContractFixture(d);
    const p = planOk(d, I.crlfVerified, 'demote', { reason: 'superseded by docs/release.md' });
    const { before, after } = apply(d, p);
    const { old, now } = onlyLineChanged(before, after, 1);
    expect(now.endsWith('"status": "needs-review", "reviewNote": "superseded by docs/release.md"}\r\n')).toBe(true);
    otherKeysKept(old, now, { status: 'needs-review', reviewNote: 'superseded by docs/release.md' });
    const q = apply(d, planOk(d, I.crlfReview, 'restore'));
    const l2 = onlyLineChanged(q.before, q.after, 2);
    expect(l2.now).toBe(l2.old.replace('"status": "needs-review"', '"status": "active"'));
    expect(l2.now.endsWith('\r\n')).toBe(true);
  });

  it('a BOM on line 1 and a last line without a newline are kept', () => {
    const d = tmp();
    writeStore(d, 'b.memory.jsonl', [rec('mem_1'), rec('mem_2')], { bom: true, noFinalEol: true });
    const a = apply(d, planOk(d, 'mem_1', 'archive'));
    expect(a.after.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    onlyLineChanged(a.before, a.after, 1);
    const b = apply(d, planOk(d, 'mem_2', 'archive'));
    const l = onlyLineChanged(b.before, b.after, 2);
    expect(l.now.endsWith('"status":"expired"}')).toBe(true);
    expect(b.after.at(-1)).toBe(0x7d);
  });

  it('non-ASCII text, escapes and nested unknown values on the edited line survive', () => {
    const d = tmp();
    const line =
      '{"id":"mem_u","type":"semantic","statement":"Café \\u00e9 \\"quoted\\" ✓","evidence":["a\\\\b"],"confidence":"medium","sensitivity":"public","sourceStep":"B.2","createdAt":"2026-11-01T00:00:00.000+01:00","expiresAt":null,"status":"active","meta":{"tags":["x",{"deep":[1,2.50,-0e0]}]}}';
    writeStore(d, 'u.memory.jsonl', [line]);
    const { before, after } = apply(d, planOk(d, 'mem_u', 'promote'));
    const { now } = onlyLineChanged(before, after, 1);
    expect(now).toBe(
      `${line.replace('"confidence":"medium"', '"confidence":"high"').replace(/}$/, `,"verifiedAt":"${STAMP}"}`)}\n`,
    );
  });
});

describe('the contradiction resolution batch: restore(keep) + archive(other)', () => {
  it('both plans are made against the same bytes, applied together, and the pair is resolved', () => {
    const d = tmp();
    writeContractFixture(d);
    const keep = planOk(d, I.pairKeep, 'restore');
    const other = planOk(d, I.pairOther, 'archive');
    const abs = path.join(d, 'agent.memory.jsonl');
    const before = fs.readFileSync(abs);
    const after = applyLineEdits(before, [...keep.edits, ...other.edits]);
    fs.writeFileSync(abs, after);
    const a = rawLines(before);
    const b = rawLines(after);
    for (let i = 0; i < a.length; i++) if (i !== 5 && i !== 6) expect(b[i]).toBe(a[i]);
    expect(b[5]).toBe(a[5]!.replace('"status":"needs-review"', '"status":"active"'));
    expect(b[6]).toBe(a[6]!.replace('"status":"needs-review"', '"status":"expired"'));
    const r = read(d, { sourceId: 's', now: NOW });
    const k = r.records.find((x) => x.key === I.pairKeep)!;
    const o = r.records.find((x) => x.key === I.pairOther)!;
    expect([k.tier, k.flags]).toEqual(['inferred', []]);
    expect([o.tier, o.flags]).toEqual(['archived', []]);
    // conflictsWith and conflictNote stay as history
    expect(k.detail.conflictsWith).toEqual([I.pairOther]);
    expect(k.detail.conflictNote).toMatch(/compared evidence/);
    // undo = the reverse edits: the file is back byte for byte
    const undo = [...keep.edits, ...other.edits].map((e) => ({
      ...(e as ReplaceLines),
      expect: (e as ReplaceLines).bytes,
      bytes: (e as ReplaceLines).expect,
    }));
    expect(applyLineEdits(after, undo).equals(before)).toBe(true);
  });

  it('restore refuses when the write rules do not hold, naming the rule', () => {
    const d = tmp();
    writeContractFixture(d);
    const res = plan(recordOf(d, I.secret), 'restore', pctx(d));
    expect(res).toEqual({
      ok: false,
      reason: `restore refused: ${I.secret} breaks the seed's write rules (sensitivity secret (secrets are never persisted)); fix the record first`,
    });
  });
});

describe('refusals: nothing planned, nothing guessed', () => {
  it('the line that is not JSON is never rewritten', () => {
    const d = tmp();
    writeContractFixture(d);
    const fake = {
      ...recordOf(d, I.verified),
      key: 'mem_deadbeef',
      location: { file: 'agent.memory.jsonl', line: 8, endLine: 8 },
    };
    const res = plan(fake, 'archive', pctx(d));
    expect(res.ok).toBe(false);
    expect((res as { reason: string }).reason).toMatch(
      /^archive refused: line 8 of agent\.memory\.jsonl is not valid JSON .*; memtrust never rewrites a line it cannot parse$/,
    );
  });

  it('the file moved since the read: another id on the line, the line gone, the file gone', () => {
    const d = tmp();
    writeContractFixture(d);
    const r = recordOf(d, I.promotable);
    const abs = path.join(d, 'agent.memory.jsonl');
    const bytes = fs.readFileSync(abs);
    fs.writeFileSync(abs, Buffer.concat([Buffer.from(`${JSON.stringify(rec('mem_new'))}\n`), bytes]));
    expect((plan(r, 'promote', pctx(d)) as { reason: string }).reason).toMatch(
      /changed since it was read \(line 2 no longer holds/,
    );
    const far = { ...r, location: { ...r.location, line: 99 } };
    expect((plan(far, 'promote', pctx(d)) as { reason: string }).reason).toMatch(/line 99 is gone/);
    fs.rmSync(abs);
    expect((plan(r, 'promote', pctx(d)) as { reason: string }).reason).toMatch(/agent\.memory\.jsonl is gone/);
  });

  it('judged on the current line: a record promoted meanwhile refuses a second promote', () => {
    const d = tmp();
    writeContractFixture(d);
    const r = recordOf(d, I.promotable);
    apply(d, planOk(d, I.promotable, 'promote'));
    expect((plan(r, 'promote', pctx(d)) as { reason: string }).reason).toMatch(/already has confidence high/);
  });

  it('the edit checks its expect: bytes that moved after planning are not overwritten', () => {
    const d = tmp();
    writeContractFixture(d);
    const p = planOk(d, I.promotable, 'promote');
    const abs = path.join(d, 'agent.memory.jsonl');
    const changed = fs.readFileSync(abs, 'utf8').replace('"confidence":"medium"', '"confidence":"low"   ');
    expect(() => applyLineEdits(Buffer.from(changed), p.edits)).toThrow(/line 2 changed/);
  });

  it('a key written twice on the line is not guessed; other actions on that line still work', () => {
    const d = tmp();
    writeStore(d, 'd.memory.jsonl', [
      '{"id":"mem_d","type":"semantic","statement":"s","evidence":["e"],"confidence":"medium","sensitivity":"public","sourceStep":"B.1","createdAt":"2026-11-01T00:00:00Z","status":"active","status":"active"}',
    ]);
    expect((plan(recordOf(d, 'mem_d'), 'archive', pctx(d)) as { reason: string }).reason).toMatch(
      /key status appears 2 times/,
    );
    expect(read(d, { sourceId: 's', now: NOW }).problems).toEqual([
      {
        file: 'd.memory.jsonl',
        line: 1,
        problem:
          'mem_d: key status appears more than once on line 1; the last one is read, and the line is not rewritten for that key',
      },
    ]);
    expect(plan(recordOf(d, 'mem_d'), 'reaffirm', pctx(d)).ok).toBe(true);
  });

  it('unknown verbs and refused actions carry the reason', () => {
    const d = tmp();
    writeContractFixture(d);
    expect((plan(recordOf(d, I.verified), 'delete', pctx(d)) as { reason: string }).reason).toBe(
      'delete refused: consolidation records allow promote, reaffirm, demote, restore, archive',
    );
    expect((plan(recordOf(d, I.young), 'promote', pctx(d)) as { reason: string }).reason).toMatch(
      /ends 2026-11-27T08:30:00Z; promote is possible from then/,
    );
    expect((plan(recordOf(d, I.noEvidence), 'promote', pctx(d)) as { reason: string }).reason).toMatch(/no evidence/);
  });
});
