/**
 * Issue #3 item 7.4: two processes, each with its own service context on the
 * SAME root and SAME SQLite file, run 200 random transitions each at once.
 * Only refusals, never errors; and the audit log, replayed, explains the final
 * disk state exactly (each event's before hash is the previous event's after hash).
 */
import type { Step } from './fixtures/walk-step';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus, writeCorpus } from '../demo';
import { REFUSAL_CODES } from '../trust/refusals';
import { closeDb, openDb } from '../../db/client';
import type { AuditEvent } from '../audit/event';
import {
  NOW,
  PROJECT,
  fieldsOf,
  journalFiles,
  placements,
  readAudit,
  removeSandbox,
  runNodeAsync,
  sandbox,
  sha,
  tmpFiles,
  type CliRun,
  type Sandbox,
} from './test-support';

const STEPS = 200;
const SEED = process.env.WALK_SEED ?? '20261122';
const FIXTURE = path.join(PROJECT, 'lib', 'service', 'fixtures', 'random-walk.ts');

let sb: Sandbox;
let initial: Map<string, { dir: string; sha: string }>;
let initialEvents: number;
let runs: CliRun[];
let steps: Step[][];

const dirOf = (rel: string) => rel.split('/')[0]!;

beforeAll(async () => {
  sb = sandbox('memtrust-walk-');
  writeCorpus(
    sb.root,
    generateCorpus({ n: 40, seed: SEED, now: new Date(NOW), machine: 'test-machine', ownerEmail: 'owner@example.com' }),
  );
  initial = new Map(
    [...placements(sb.root)].map(([name, [rel]]) => [
      name,
      { dir: dirOf(rel!), sha: sha(fs.readFileSync(path.join(sb.root, rel!))) },
    ]),
  );
  initialEvents = readAudit(sb.root).length;
  const names = JSON.stringify([...initial.keys()].sort());
  const walk = (id: string) =>
    runNodeAsync(['--import', 'tsx', FIXTURE], sb.env, {
      WALK_ID: id,
      WALK_BARRIER: path.join(sb.tmp, 'barrier'),
      WALK_PEERS: 'a,b',
      WALK_SEED: `${SEED}:${id}`,
      WALK_STEPS: String(STEPS),
      WALK_NAMES: names,
      WALK_OUT: path.join(sb.tmp, `${id}.json`),
    });
  runs = await Promise.all([walk('a'), walk('b')]);
  steps = ['a', 'b'].map((id) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(sb.tmp, `${id}.json`), 'utf8')) as Step[];
    } catch {
      return [];
    }
  });
}, 120_000);

afterAll(() => removeSandbox(sb));

describe('two processes, one root, one database', () => {
  it('both walkers finish all their steps with results only: no exception, no unknown refusal', () => {
    for (const r of runs) expect(r, r.stderr).toMatchObject({ status: 0, signal: null });
    for (const s of steps) expect(s).toHaveLength(STEPS);
    const all = steps.flat();
    expect(all.filter((s) => s.error).map((s) => s.error)).toEqual([]);
    const known = new Set<string>([...REFUSAL_CODES, 'unwritable']);
    const codes = new Set(all.filter((s) => s.ok === false).map((s) => s.code!));
    expect([...codes].filter((c) => !known.has(c))).toEqual([]);
    // Serialised writers never see each other's half-done work: no conflict refusals at all.
    expect(codes.has('conflict')).toBe(false);
    // The walk did real work in both processes, not just refusals.
    for (const s of steps) expect(s.filter((x) => x.ok && !x.noop).length).toBeGreaterThan(10);
  });

  it('the audit log has exactly one event per applied transition', () => {
    const applied = steps
      .flat()
      .filter((s) => s.ok && !s.noop)
      .map((s) => s.op)
      .sort();
    const events = readAudit(sb.root).slice(initialEvents);
    expect(events.map((e) => e.id).sort()).toEqual(applied);
    // The two walks really overlapped: the log switches between their events more than once.
    const switches = events.filter((e, k) => k > 0 && e.id[0] !== events[k - 1]!.id[0]).length;
    expect(switches).toBeGreaterThan(1);
    const byOp = new Map(steps.flat().map((s) => [s.op, s]));
    for (const e of events) expect([e.memory, e.action]).toEqual([byOp.get(e.id)!.memory, byOp.get(e.id)!.action]);
  });

  it('replaying the audit events gives the final location, tier and bytes of every memory', () => {
    const state = new Map([...initial].map(([k, v]) => [k, { ...v, tier: null as string | null }]));
    const events: AuditEvent[] = readAudit(sb.root).slice(initialEvents);
    for (const e of events) {
      const s = state.get(e.memory)!;
      expect(e.before_sha256, `${e.id} ${e.memory}`).toBe(s.sha);
      s.sha = e.after_sha256!;
      s.tier = e.to;
      s.dir = e.to === 'quarantined' ? 'quarantine' : e.to === 'archived' ? 'archive' : 'memories';
    }
    const disk = placements(sb.root);
    expect([...disk.keys()].sort()).toEqual([...initial.keys()].sort());
    for (const [name, s] of state) {
      const where = disk.get(name)!;
      expect(where, name).toHaveLength(1);
      const bytes = fs.readFileSync(path.join(sb.root, where[0]!));
      expect({ name, dir: dirOf(where[0]!), sha: sha(bytes) }).toEqual({ name, dir: s.dir, sha: s.sha });
      if (s.tier === 'verified' || s.tier === 'inferred') expect(fieldsOf(bytes)['trust-level'], name).toBe(s.tier);
    }
    expect(events.length).toBeGreaterThan(20);
  });

  it('nothing left behind, and the shared index agrees with disk for every memory the walkers touched', () => {
    expect(tmpFiles(sb.root)).toEqual([]);
    expect(journalFiles(sb.root)).toEqual([]);
    expect(fs.readdirSync(path.join(sb.root, '.memtrust')).filter((n) => n.startsWith('lock'))).toEqual([]);
    const events = readAudit(sb.root).slice(initialEvents);
    const db = openDb(sb.db);
    try {
      const touched = [...new Set(events.map((e) => e.memory))];
      const disk = placements(sb.root);
      for (const name of touched) {
        const rel = disk.get(name)![0]!;
        const rows = db.sqlite.prepare('SELECT rel_path, sha256 FROM entries WHERE filename = ?').all(name);
        expect(rows, name).toEqual([{ rel_path: rel, sha256: sha(fs.readFileSync(path.join(sb.root, rel))) }]);
      }
      const mirrored = db.sqlite
        .prepare("SELECT count(*) AS n FROM audit_events WHERE id LIKE 'a-%' OR id LIKE 'b-%'")
        .get();
      expect(mirrored).toEqual({ n: events.length });
    } finally {
      closeDb(sb.db);
    }
  });
});
