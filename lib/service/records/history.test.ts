/**
 * Record history (docs/records.md, "History and reports"): events of record roots are
 * mirrored by every scan, so a deleted or rebuilt database loses none; `memtrust history`
 * names a record by id or key, newest first, and refuses a key two roots share.
 * Real consolidation stores in temp dirs, real SQLite, the real CLI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rec, writeStore } from '../../sources/consolidation/test-fixtures';
import { loadConfig } from '../../core/config';
import { closeDb } from '../../../db/client';
import { createContext } from '../context';
import { scan } from '../index/scan-service';
import { envFor, removeSandbox, runCli, sandbox, type Sandbox } from '../test-support';
import { applyRecordActions } from './apply';
import { recordHistory } from './history';
import { historyTarget } from '../index/history-target';

let sb: Sandbox;
let team: string;
let lab: string;
let teamId: string;
let labId: string;
const PASSWORD = 'Hunter2-Fake-Pa55';
const cli = (...args: string[]) => runCli(args, sb.env);
const json = (...args: string[]) => {
  const r = cli(...args, '--json');
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

beforeAll(() => {
  sb = sandbox('memtrust-rechist-');
  team = path.join(sb.tmp, 'team');
  lab = path.join(sb.tmp, 'lab');
  writeStore(
    team,
    'team.memory.jsonl',
    [
      rec('mem_one'),
      rec('mem_two', { statement: `The NAS admin password is ${PASSWORD} (made up).` }),
      rec('mem_shared'),
    ],
    { eol: '\r\n' },
  );
  writeStore(lab, 'lab.memory.jsonl', [rec('mem_shared'), rec('mem_lab')]);
  sb.env = envFor([sb.root, team, lab].join(path.delimiter), sb.db, sb.tmp);
  const roots = json('roots').configured as { root: string; id: string }[];
  teamId = roots.find((r) => r.root === team)!.id;
  labId = roots.find((r) => r.root === lab)!.id;
});
afterAll(() => removeSandbox(sb));

describe('record history', () => {
  it('survives a deleted and a rebuilt database; newest first; text and JSON', () => {
    const d = cli('record-action', `${teamId}:mem_one`, 'demote', '--reason', 'the toolchain moved');
    expect(d.status, d.stderr).toBe(0);
    // A second write in-process, later: the service's own call.
    const ctx = createContext(loadConfig({ env: { ...sb.env, MEMTRUST_NOW: '2026-11-22T13:00:00Z' } }), {
      ...sb.env,
      MEMTRUST_NOW: '2026-11-22T13:00:00Z',
    });
    scan(ctx);
    const r = applyRecordActions(ctx, [{ id: `${teamId}:mem_one`, action: 'restore', reason: 'checked again' }], {
      actor: 'user:web',
    });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(recordHistory(ctx, teamId, 'mem_one').map((e) => e.recordAction)).toEqual(['restore', 'demote']);
    closeDb(sb.db);

    const before = json('history', 'mem_one');
    expect(before.record).toEqual({ id: `${teamId}:mem_one`, layout: 'consolidation' });
    expect(before.events.map((e: { action: string }) => e.action)).toEqual(['restore', 'demote']);
    expect(before.events[0]).toMatchObject({
      source: teamId,
      memory: 'mem_one',
      layout: 'consolidation',
      recordAction: 'restore',
      reason: 'checked again',
      actor: 'user:web',
    });

    // The database is a cache: deleted, the next command re-mirrors the record root's trail.
    for (const f of fs.readdirSync(sb.tmp).filter((f) => f.startsWith('index.sqlite'))) fs.rmSync(path.join(sb.tmp, f));
    expect(json('history', `${teamId}:mem_one`).events).toEqual(before.events);
    const rebuilt = json('scan', '--rebuild');
    expect(rebuilt.events).toBeGreaterThanOrEqual(2);
    expect(json('history', 'mem_one').events).toEqual(before.events);

    const text = cli('history', 'mem_one');
    expect(text.status, text.stderr).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`restore  consolidation ${teamId}:mem_one`);
    expect(lines[1]).toContain('demote');
    expect(lines[1]).toContain('“the toolchain moved”');

    // `show` carries the same history.
    expect(json('show', `${teamId}:mem_one`).history).toEqual(before.events);
    expect(cli('show', `${teamId}:mem_one`).stdout).toMatch(/^history:\n {2}\S+ user:web restore quarantined → /m);

    // The whole trail lists record events beside memory events.
    const all = json('history');
    expect(all.events.filter((e: { layout: string | null }) => e.layout === 'consolidation')).toHaveLength(2);
  }, 60_000);

  it('events mirrored before migration 0013 get their layout and verb once the cursors are reset', () => {
    const ctx = createContext(loadConfig({ env: sb.env }), sb.env);
    scan(ctx);
    const sqlite = ctx.handle.sqlite;
    // What a database mirrored before the migration holds: record events without the two columns.
    sqlite.prepare('UPDATE audit_events SET layout = NULL, record_action = NULL').run();
    sqlite.prepare('DELETE FROM audit_cursors').run();
    const n = (sqlite.prepare('SELECT count(*) AS n FROM audit_events').get() as { n: number }).n;
    const stats = scan(ctx);
    expect(stats.events).toBe(2);
    expect((sqlite.prepare('SELECT count(*) AS n FROM audit_events').get() as { n: number }).n).toBe(n);
    expect(recordHistory(ctx, teamId, 'mem_one').map((e) => [e.layout, e.recordAction])).toEqual([
      ['consolidation', 'restore'],
      ['consolidation', 'demote'],
    ]);
    closeDb(sb.db);
  });

  it('a key in two roots is ambiguous, naming both; the full id picks one; an unknown key is not found', () => {
    const amb = cli('history', 'mem_shared');
    expect(amb.status).toBe(2);
    expect(amb.stderr).toContain(`${teamId}:mem_shared`);
    expect(amb.stderr).toContain(`${labId}:mem_shared`);
    expect(amb.stderr.trim().split('\n')).toHaveLength(1);
    const one = json('history', `${labId}:mem_shared`);
    expect(one.record.id).toBe(`${labId}:mem_shared`);
    expect(one.events).toEqual([]);
    const none = cli('history', 'mem_nowhere');
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^memtrust history: no memory or record mem_nowhere in the configured roots/);
  });

  it('a record gone from its store keeps its history; no secret reaches the trail or the output', () => {
    const a = cli('record-action', `${teamId}:mem_two`, 'demote', '--reason', 'doubtful');
    expect(a.status, a.stderr).toBe(0);
    // The owner rewrites the store without the record: its events still answer by key and by id.
    writeStore(team, 'team.memory.jsonl', [rec('mem_one'), rec('mem_shared')]);
    const ctx = createContext(loadConfig({ env: sb.env }), sb.env);
    scan(ctx);
    const t = historyTarget(ctx, 'mem_two');
    expect(t).toMatchObject({ ok: true, source: teamId, memory: 'mem_two' });
    closeDb(sb.db);
    const h = cli('history', 'mem_two', '--json');
    expect(h.status, h.stderr).toBe(0);
    expect(JSON.parse(h.stdout).events.map((e: { action: string }) => e.action)).toEqual(['demote']);
    const all = cli('history');
    expect(all.stdout).not.toContain(PASSWORD);
    const audit = fs.readdirSync(path.join(team, '.memtrust', 'audit'));
    for (const f of audit)
      expect(fs.readFileSync(path.join(team, '.memtrust', 'audit', f), 'utf8')).not.toContain(PASSWORD);
  }, 60_000);
});
