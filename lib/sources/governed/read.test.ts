import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BREAK_GLASS, commandLine, shellQuote } from './commands';
import { NAMED, buildGovernedFixture, fixtureId, matrixName, type Fixture } from './test-fixtures';
import { capabilities, changeToken, detect, plan, read } from './index';
import { fingerprint, tmpProject } from './test-support';
import {
  CONFIDENCES,
  EVIDENCE_KINDS,
  LINK_RELATIONS,
  ORIGINS,
  STATUSES,
  type GovernedReadResult,
  type GovernedRecord,
} from './types';

let live: Fixture;
let memDir: string;

function ok(r: ReturnType<typeof read>): GovernedReadResult {
  if (!r.ok) throw new Error(`read failed: ${r.message}`);
  return r;
}
/** Every read in this file: the store's folder (store, -wal, -shm) must not change. */
function readChecked(dir: string, opts?: Parameters<typeof read>[1]): GovernedReadResult {
  const d = detect(dir);
  if (!d) throw new Error(`no store in ${dir}`);
  const folder = path.dirname(d.store);
  const before = fingerprint(folder);
  const r = ok(read(dir, opts));
  expect(fingerprint(folder), 'store folder changed by a read').toEqual(before);
  return r;
}
function byName(records: GovernedRecord[], name: string): GovernedRecord {
  const r = records.find((x) => x.key === live.ids[name]);
  if (!r) throw new Error(`no record ${name}`);
  return r;
}

beforeAll(() => {
  live = buildGovernedFixture(tmpProject(), { wal: 'live' });
  memDir = path.dirname(live.store);
});
afterAll(() => {
  live.writer?.close();
  fs.rmSync(live.project, { recursive: true, force: true });
});

describe('detect', () => {
  it('finds the store from the project, its .codeclone folder or the memory folder', () => {
    for (const d of [live.project, path.join(live.project, '.codeclone'), memDir, live.store]) {
      const got = detect(d);
      expect(got?.store).toBe(live.store);
      expect(got?.project).toBe(live.project);
    }
    expect(detect(live.project)?.wal).toBe(true);
    const empty = tmpProject();
    expect(detect(empty)).toBeNull();
    const r = read(empty);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.code).toBe('not-found');
    fs.rmSync(empty, { recursive: true });
  });
});

describe('read: the live store (writer open, commits in the -wal)', () => {
  it('sees every committed record while codeclone holds the store, and writes nothing', () => {
    const wal = fs.statSync(`${live.store}-wal`).size;
    expect(wal).toBeGreaterThan(0);
    expect(fs.existsSync(`${live.store}-shm`)).toBe(true);
    const before = fingerprint(memDir);
    const r = readChecked(live.project);
    expect(fingerprint(memDir)).toEqual(before);
    expect(r.records).toHaveLength(live.count);
    expect(r.schemaVersion).toBe('1.7');
    expect(r.warnings).toEqual([]);
  });

  it('maps native state onto tiers and flags (docs/governed-layout.md)', () => {
    const { records } = readChecked(live.project);
    const expectTier = (name: string, tier: string, flags: string[]) => {
      const rec = byName(records, name);
      expect([rec.tier, rec.flags], name).toEqual([tier, flags]);
    };
    expectTier('approved', 'verified', []);
    expectTier('verified-system', 'verified', []);
    expectTier('active-inferred', 'inferred', []);
    expectTier('draft', 'inferred', ['pending-human']);
    expectTier('stale-approved', 'verified', ['stale']);
    expectTier('stale-plain', 'inferred', ['stale']);
    expectTier('stale-noreason', 'inferred', ['stale']);
    for (const n of ['historical', 'rejected', 'archived', 'chain-v1', 'chain-v2']) expectTier(n, 'archived', []);
    expect(byName(records, 'stale-approved').flagReasons.stale).toBe(
      'stale: scope files changed: src/billing/ledger.py',
    );
    expect(byName(records, 'stale-noreason').flagReasons.stale).toBe('stale: codeclone stored no reason');
    const a = byName(records, 'approved');
    expect(a.native).toBe('active/supported/agent');
    expect(a.origin).toBe('agent');
    expect(a.layout).toBe('governed');
    expect(a.id).toBe(`governed:${live.ids.approved}`);
    expect(a.location).toMatchObject({
      file: '.codeclone/memory/engineering_memory.sqlite3',
      line: 0,
      table: 'memory_records',
    });
    expect(a.governed.approvedBy).toBe('maintainer');
    expect(a.fields.find((f) => f.name === 'approved_by')?.value).toBe('maintainer');
    expect(a.fields.some((f) => f.name === 'expires_at_utc')).toBe(false); // NULL columns are left out
  });

  it('covers the whole status × confidence × origin matrix with the written-out rule', () => {
    const { records } = readChecked(live.project);
    const want: Record<string, (c: string) => string> = {
      active: (c) => (c === 'verified' ? 'verified' : 'inferred'),
      draft: () => 'inferred',
      stale: (c) => (c === 'verified' ? 'verified' : 'inferred'),
      historical: () => 'archived',
      superseded: () => 'archived',
      rejected: () => 'archived',
      archived: () => 'archived',
    };
    let cells = 0;
    for (const s of STATUSES)
      for (const c of CONFIDENCES)
        for (const o of ORIGINS) {
          const rec = byName(records, matrixName(s, c, o));
          expect(rec.native).toBe(`${s}/${c}/${o}`);
          expect(rec.tier, `${s}/${c}/${o}`).toBe(want[s]!(c));
          expect(rec.flags.includes('pending-human')).toBe(s === 'draft');
          expect(rec.flags.includes('stale')).toBe(s === 'stale');
          if (s === 'stale') expect(rec.flagReasons.stale).toBe(`stale: drift in ${c}/${o}`);
          cells++;
        }
    expect(cells).toBe(63);
  });

  it('attaches evidence, subjects and links of every kind', () => {
    const { records } = readChecked(live.project);
    const kinds = new Set(records.flatMap((r) => r.governed.evidence.map((e) => e.kind)));
    expect([...kinds].sort()).toEqual([...EVIDENCE_KINDS].sort());
    const rels = new Set(records.flatMap((r) => r.governed.links.map((l) => l.relation)));
    expect([...rels].sort()).toEqual([...LINK_RELATIONS].sort());
    const d = byName(records, 'draft');
    expect(d.governed.evidence.length).toBeGreaterThan(0);
    expect(d.governed.evidence[0]).toMatchObject({
      ref: expect.stringMatching(/^src\//),
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(d.governed.subjects[0]).toMatchObject({ kind: 'path', relation: 'about' });
    // Every link shows on both ends, once each way.
    const all = records.flatMap((r) => r.governed.links.map((l) => `${l.id}:${l.direction}`));
    expect(new Set(all).size).toBe(all.length);
    expect(all.filter((x) => x.endsWith(':out')).length).toBe(all.filter((x) => x.endsWith(':in')).length);
  });

  it('flags both sides of a contradicts link and resolves the supersedes chain', () => {
    const { records } = readChecked(live.project);
    const a = byName(records, 'claim-a');
    const b = byName(records, 'claim-b');
    expect(a.flags).toContain('conflict');
    expect(b.flags).toEqual(['pending-human', 'conflict']);
    expect(a.governed.conflictsWith).toEqual([b.key]);
    expect(b.flagReasons.conflict).toBe(`contradicts ${a.key}`);
    const [v1, v2, v3] = ['chain-v1', 'chain-v2', 'chain-v3'].map((n) => byName(records, n));
    expect(v1!.governed.chain).toEqual([v1!.key, v2!.key, v3!.key]);
    expect(v1!.governed.current).toBe(v3!.key);
    expect(v2!.governed.current).toBe(v3!.key);
    expect(v2!.governed.supersedes).toEqual([v1!.key]);
    expect(v3!.governed.current).toBeNull();
    expect(v3!.governed.supersedes).toEqual([v2!.key]);
    expect(records.filter((r) => r.flags.includes('conflict'))).toHaveLength(2);
  });

  it("shows codeclone's own command lines, exact and in full, and never plans an edit", () => {
    const { records } = readChecked(live.project);
    const root = live.project;
    const d = byName(records, 'draft');
    const id = d.key;
    expect(d.actions).toEqual(['approve', 'reject', 'promote', 'demote']);
    expect(d.commands.approve).toBe(`codeclone memory approve --root ${root} --i-know-what-im-doing ${id}`);
    expect(d.commands.reject).toBe(`codeclone memory reject --root ${root} --i-know-what-im-doing ${id}`);
    expect(d.commands.demote).toBe(d.commands.reject);
    expect(d.refused.archive).toBe('governed record is draft: codeclone allows approve / reject for it');
    const act = byName(records, 'approved');
    expect(act.commands.demote).toBe(`codeclone memory archive --root ${root} --i-know-what-im-doing ${act.key}`);
    expect(act.refused.approve).toMatch(/is active: codeclone allows archive/);
    const st = byName(records, 'stale-plain');
    expect(st.actions).toEqual(['approve', 'promote']);
    expect(st.refused.demote).toMatch(/is stale: codeclone allows approve/);
    const ar = byName(records, 'archived');
    expect(ar.actions).toEqual([]);
    expect(ar.refused.approve).toBe('governed record is archived: codeclone allows no governance command for it');
    for (const r of records) for (const line of Object.values(r.commands)) expect(line).toContain(BREAK_GLASS);

    for (const r of records) {
      const cap = capabilities(r);
      expect(cap.readOnly).toBe(true);
      expect({ actions: cap.actions, refused: cap.refused, commands: cap.commands }).toEqual({
        actions: r.actions,
        refused: r.refused,
        commands: r.commands,
      });
    }
    const p = plan(d, 'reject', { by: 'Jane Q. Example', reason: "dup of Bob's note" });
    expect(p.ok).toBe(false);
    expect(p.command).toBe(
      `codeclone memory reject --root ${root} --i-know-what-im-doing --by 'Jane Q. Example' --reason 'dup of Bob'\\''s note' ${id}`,
    );
    expect(plan(act, 'restore')).toEqual({
      ok: false,
      reason: `${act.key}: governed records have no restore (codeclone has no such command); record is active: codeclone allows archive for it`,
      command: null,
    });
    expect(plan(ar, 'demote')).toEqual({
      ok: false,
      reason: `${ar.key}: governed record is archived: codeclone allows no governance command for it`,
      command: null,
    });
  });

  it('sees a new commit on the next read (the view refreshes from the store)', () => {
    const token = changeToken(live.store);
    const r1 = readChecked(live.project);
    expect(r1.token).toBe(token);
    const id = fixtureId('late-draft');
    live
      .writer!.prepare(`INSERT INTO memory_records (id, project_id, identity_key, type, status, confidence, origin, ingest_source,
      statement, created_at_utc, updated_at_utc, created_by, schema_version)
      VALUES (?, 'proj-fixture0001', 'fixture:late', 'human_note', 'draft', 'inferred', 'agent', 'agent', 'late note',
      '2026-06-02T00:00:00Z', '2026-06-02T00:00:00Z', 'agent', '1.7')`)
      .run(id);
    expect(changeToken(live.store)).not.toBe(token);
    const before = fingerprint(memDir);
    const r2 = readChecked(live.project);
    expect(fingerprint(memDir)).toEqual(before);
    expect(r2.records).toHaveLength(r1.records.length + 1);
    expect(r2.records.find((x) => x.key === id)?.flags).toEqual(['pending-human']);
  });
});

describe('odd links', () => {
  it('a dangling contradicts link still flags the record; a supersedes cycle ends the chain', () => {
    const f = buildGovernedFixture(tmpProject());
    const w = new Database(f.store);
    w.pragma('foreign_keys = OFF');
    const link = w.prepare(
      "INSERT INTO memory_links VALUES (?, 'proj-fixture0001', ?, ?, ?, 'system', '2026-06-03T00:00:00Z')",
    );
    const ghost = fixtureId('deleted-by-vacuum');
    link.run('link-ghost', f.ids.approved, ghost, 'contradicts');
    link.run('link-c1', f.ids.historical, f.ids.rejected, 'supersedes');
    link.run('link-c2', f.ids.rejected, f.ids.historical, 'supersedes');
    w.close();
    const { records } = readChecked(f.project);
    const find = (name: string) => records.find((r) => r.key === f.ids[name])!;
    const a = find('approved');
    expect(a.flags).toEqual(['conflict']);
    expect(a.flagReasons.conflict).toBe(`contradicts ${ghost} (not in the store)`);
    expect(a.governed.links.find((l) => l.id === 'link-ghost')).toMatchObject({
      direction: 'out',
      other: ghost,
      otherExists: false,
    });
    expect(find('historical').governed.chain).toEqual([f.ids.historical, f.ids.rejected]);
    expect(find('rejected').governed.chain).toEqual([f.ids.rejected, f.ids.historical]);
    fs.rmSync(f.project, { recursive: true });
  });
});

describe('read: a store codeclone closed cleanly (no -wal, no -shm)', () => {
  it('reads it and creates no -wal or -shm beside it', () => {
    const f = buildGovernedFixture(tmpProject());
    const dir = path.dirname(f.store);
    expect(fs.readdirSync(dir)).toEqual(['engineering_memory.sqlite3']);
    const before = fingerprint(dir);
    for (let i = 0; i < 3; i++) expect(readChecked(dir).records).toHaveLength(f.count);
    expect(fingerprint(dir)).toEqual(before);
    expect(fs.readdirSync(dir)).toEqual(['engineering_memory.sqlite3']);
    fs.rmSync(f.project, { recursive: true });
  });
});

describe('why the reader never opens the store with SQLite', () => {
  it('a direct read-only open of the store changes its files; the check above would catch it', () => {
    // The control for every fingerprint test: SQLite itself, opened read-only with
    // query_only on the original, creates -wal/-shm on a clean store and moves read
    // marks in the -shm of a live one (docs/governed-layout.md, "Reading without writing").
    const f = buildGovernedFixture(tmpProject());
    const dir = path.dirname(f.store);
    const before = fingerprint(dir);
    const db = new Database(f.store, { readonly: true, fileMustExist: true });
    db.pragma('query_only = ON');
    db.prepare('SELECT count(*) FROM memory_records').get();
    db.close();
    expect(fingerprint(dir)).not.toEqual(before);
    expect(fs.readdirSync(dir).sort()).toEqual([
      'engineering_memory.sqlite3',
      'engineering_memory.sqlite3-shm',
      'engineering_memory.sqlite3-wal',
    ]);
    fs.rmSync(f.project, { recursive: true });

    live.writer!.prepare("UPDATE memory_records SET summary = 'touched' WHERE id = ?").run(live.ids.draft);
    const liveBefore = fingerprint(memDir);
    const db2 = new Database(live.store, { readonly: true, fileMustExist: true });
    db2.pragma('query_only = ON');
    db2.prepare('SELECT count(*) FROM memory_records').get();
    db2.close();
    expect(fingerprint(memDir)['engineering_memory.sqlite3-shm']).not.toBe(
      liveBefore['engineering_memory.sqlite3-shm'],
    );
  });
});

describe('commands', () => {
  it('quotes for a POSIX shell and keeps an id that looks like a flag positional', () => {
    expect(shellQuote('mem-0af')).toBe('mem-0af');
    expect(shellQuote('/home/x/my project')).toBe("'/home/x/my project'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
    expect(shellQuote('$(rm -rf ~)')).toBe("'$(rm -rf ~)'");
    expect(commandLine('archive', '/p q', '-odd')).toBe(
      "codeclone memory archive --root '/p q' --i-know-what-im-doing -- -odd",
    );
  });

  it('names every named fixture record', () => {
    expect(NAMED.every((n) => live.ids[n.name])).toBe(true);
  });
});
