/**
 * governedLayout (adapter.ts): codeclone's records as LayoutRecords, every read failure
 * one ReadProblem naming the file relative to the root, every plan a refusal with
 * codeclone's command, and the store's bytes (and -wal) unchanged throughout.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { describeSource } from '../index';
import { layoutAdapter } from '../registry';
import type { LayoutRecord } from '../record';
import { governedLayout } from './adapter';
import { READ_ONLY_REASON } from './commands';
import { changeToken } from './read';
import { buildGovernedFixture, type Fixture } from './test-fixtures';
import { fingerprint, tmpProject } from './test-support';

const NOW = new Date('2026-11-23T12:00:00Z');
const REL = '.codeclone/memory/engineering_memory.sqlite3';
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

const read = (root: string) => governedLayout.read(root, { sourceId: 'gov', now: NOW });
const byKey = (records: LayoutRecord[], key: string) => records.find((r) => r.key === key)!;
const noFile = () => null;

describe('governedLayout', () => {
  it('is registered, and a configured project root becomes a record source with it', () => {
    const f = fixture();
    expect(layoutAdapter('governed')).toBe(governedLayout);
    const s = describeSource(f.project);
    expect(s.layout).toBe('governed');
    expect(s.adapter).toBe(governedLayout);
    expect(s.error).toBeNull();
    expect(governedLayout.readOnly).toBe(READ_ONLY_REASON);
  });

  it('maps records with the detail the pages use; locations are relative to the root given', () => {
    const f = fixture({ wal: 'live' });
    const before = fingerprint(f.dir);
    const r = read(f.project);
    expect(r.problems).toEqual([]);
    expect(r.records).toHaveLength(f.count);
    expect(r.records.every((x) => x.location.file === REL && x.location.line === 0)).toBe(true);
    const draft = byKey(r.records, f.ids.draft!);
    expect(draft).toMatchObject({
      id: `gov:${f.ids.draft}`,
      layout: 'governed',
      native: 'draft/inferred/agent',
      tier: 'inferred',
      origin: 'agent',
      flags: ['pending-human'],
      actions: ['approve', 'reject', 'promote', 'demote'],
    });
    expect(draft.title).toMatch(/^Fixture note draft: /);
    expect(draft.text).toContain(draft.title);
    expect(draft.text).toContain('def public_api(): ...');
    expect(draft.detail).toMatchObject({ status: 'draft', confidence: 'inferred', origin: 'agent', staleReason: null });
    const commands = draft.detail.commands as Record<string, string>;
    expect(commands.approve).toBe(`codeclone memory approve --root ${f.project} --i-know-what-im-doing ${f.ids.draft}`);
    expect(commands.demote).toContain('codeclone memory reject');
    expect((draft.detail.evidence as unknown[]).length).toBeGreaterThan(0);
    expect(byKey(r.records, f.ids['stale-approved']!)).toMatchObject({
      flags: ['stale'],
      flagReasons: { stale: 'stale: scope files changed: src/billing/ledger.py' },
      detail: { staleReason: 'scope files changed: src/billing/ledger.py' },
    });
    expect(byKey(r.records, f.ids['claim-a']!).detail.conflictsWith).toEqual([f.ids['claim-b']]);
    expect(byKey(r.records, f.ids['claim-a']!).flags).toContain('conflict');
    expect(byKey(r.records, f.ids['chain-v1']!).detail.chain).toEqual([
      f.ids['chain-v1'],
      f.ids['chain-v2'],
      f.ids['chain-v3'],
    ]);
    expect(
      (byKey(r.records, f.ids['chain-v2']!).detail.links as { relation: string }[]).map((l) => l.relation).sort(),
    ).toEqual(['supersedes', 'supersedes']);
    // The memory folder itself as the root: the file is named from there.
    const inner = read(f.dir);
    expect(inner.records[0]!.location.file).toBe('engineering_memory.sqlite3');
    expect(fingerprint(f.dir)).toEqual(before);
  });

  it('plan always refuses: the command line when codeclone allows the action, the reason when not; nothing written', () => {
    const f = fixture();
    const before = fingerprint(f.dir);
    const r = read(f.project);
    const draft = byKey(r.records, f.ids.draft!);
    const p = governedLayout.plan(draft, 'approve', { now: NOW, read: noFile });
    expect(p).toEqual({
      ok: false,
      reason: expect.stringContaining(READ_ONLY_REASON),
      command: (draft.detail.commands as Record<string, string>).approve,
    });
    const hist = byKey(r.records, f.ids.historical!);
    const q = governedLayout.plan(hist, 'archive', { now: NOW, read: noFile });
    expect(q).toMatchObject({
      ok: false,
      command: null,
      reason: expect.stringMatching(/governed record is historical: codeclone allows no governance command/),
    });
    const z = governedLayout.plan(draft, 'reaffirm', { now: NOW, read: noFile });
    expect(z).toMatchObject({ ok: false, command: null, reason: expect.stringContaining('no reaffirm') });
    expect(fingerprint(f.dir)).toEqual(before);
  });

  it('a garbage store: no records, one problem naming the file relative to the root', () => {
    const f = fixture();
    fs.writeFileSync(f.store, Buffer.from('not a database\n'.repeat(300)));
    const before = fingerprint(f.dir);
    const r = read(f.project);
    expect(r.records).toEqual([]);
    expect(r.problems).toEqual([
      { file: REL, line: 0, problem: expect.stringMatching(/^not a readable SQLite database/) },
    ]);
    expect(fingerprint(f.dir)).toEqual(before);
  });

  it('a missing table and a new major schema: one problem each; a newer minor: records and a warning', () => {
    const a = fixture();
    const w = new Database(a.store);
    w.exec('DROP TABLE memory_links');
    w.close();
    expect(read(a.project).problems).toEqual([
      { file: REL, line: 0, problem: expect.stringContaining('no table memory_links') },
    ]);
    const b = fixture({ schemaVersion: '2.0' });
    expect(read(b.project)).toMatchObject({
      records: [],
      problems: [{ file: REL, problem: expect.stringContaining('schema version 2.0') }],
    });
    const c = fixture({ schemaVersion: '1.9' });
    const rc = read(c.project);
    expect(rc.problems).toEqual([]);
    expect(rc.records.length).toBe(c.count);
    expect(rc.warnings).toEqual([
      `${REL}: schema version 1.9 is newer than the 1.7 memtrust was tested with; read anyway`,
    ]);
  });

  it('a store locked by a writer mid-transaction: one "locked" problem, nothing written', () => {
    const f = fixture();
    const w = new Database(f.store);
    cleanup.push(() => w.close());
    w.pragma('journal_mode = DELETE');
    w.pragma('cache_size = 2');
    w.exec('BEGIN EXCLUSIVE');
    w.prepare("UPDATE memory_records SET statement = 'half ' || hex(randomblob(200))").run();
    const before = fingerprint(f.dir);
    const r = read(f.project);
    expect(r.records).toEqual([]);
    expect(r.problems).toEqual([{ file: REL, line: 0, problem: expect.stringMatching(/^locked: /) }]);
    expect(fingerprint(f.dir)).toEqual(before);
    w.exec('ROLLBACK');
  });

  it('changeToken is the store and -wal stat token, and moves when codeclone commits', () => {
    const f = fixture({ wal: 'live' });
    const t = governedLayout.changeToken(f.project);
    expect(t).toBe(changeToken(f.store));
    expect(governedLayout.changeToken(f.project)).toBe(t);
    f.writer!.prepare("UPDATE memory_records SET statement = 'changed by codeclone' WHERE id = ?").run(f.ids.draft);
    expect(governedLayout.changeToken(f.project)).not.toBe(t);
    expect(byKey(read(f.project).records, f.ids.draft!).title).toBe('changed by codeclone');
    expect(governedLayout.changeToken(tmpProject())).toBe('none');
  });
});
