/**
 * Issue #3 item 7.3: SIGKILL at every step of a transition (MEMTRUST_CRASH_AT),
 * for moves (demote, restore, archive), an in-place write (promote) and a Claude
 * Code folder (MEMORY.md edit), each on its own generated corpus and randomly
 * chosen memory. The next CLI start-up recovers; then every memory is in exactly
 * one place with exactly its before or after bytes, nothing temporary is left,
 * the audit log has the event iff the after state is on disk, and the index agrees.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRASH_STEPS, type CrashStep } from './crash';
import { transition } from './transition';
import { loadConfig } from '../../core/config';
import { closeDb, openDb } from '../../../db/client';
import { createContext } from '../context';
import { scan } from '../index/scan-service';
import { generateClaudeCodeFolder, generateCorpus, mulberry32, seedToInt, writeCorpus } from '../../demo';
import { shuffle } from '../../demo/prng';
import type { MemoryAction } from '../../trust/tiers';
import {
  NOW,
  copyRoot,
  envFor,
  fieldsOf,
  journalFiles,
  placements,
  pool,
  readAudit,
  runCliAsync,
  sandbox,
  sha,
  tmpFiles,
  treeHash,
  type CliRun,
  type Sandbox,
} from '../test-support';

const BASE_SEED = process.env.CRASH_SEED ?? '20261122';
// Until the source's private copy is removed (after-source-unlink) nothing is committed.
const ROLLED_BACK: CrashStep[] = ['after-journal', 'after-temp-write', 'after-aside'];
const BEFORE_AUDIT: CrashStep[] = CRASH_STEPS.slice(0, CRASH_STEPS.indexOf('after-audit'));

interface Case {
  name: string;
  flat: boolean;
  action: MemoryAction;
  step: CrashStep;
  seed: string;
}

const cases: Case[] = [];
for (const step of CRASH_STEPS) {
  for (const action of ['demote', 'promote', 'restore', 'archive'] as const) {
    // An in-place write moves its source aside too (docs/crash-safety.md): every step applies.
    cases.push({ name: `${action} @ ${step}`, flat: false, action, step, seed: `${BASE_SEED}:${action}:${step}` });
  }
  cases.push({
    name: `claude-code demote @ ${step}`,
    flat: true,
    action: 'demote',
    step,
    seed: `${BASE_SEED}:cc:${step}`,
  });
}

interface Prepared {
  c: Case;
  sb: Sandbox;
  op: string;
  memory: string;
  src: string;
  dst: string;
  before: Buffer;
  after: Buffer;
  tree: Record<string, string>;
  indexBefore?: string;
  indexAfter?: string;
  crash?: CliRun;
  rec?: CliRun;
}

/** Writes the corpus, then finds (on a copy, in-process, no crash) a memory the action applies to and its after bytes. */
function prepare(c: Case): Prepared {
  const sb = sandbox('memtrust-crash-');
  const now = new Date(NOW);
  if (c.flat) writeCorpus(sb.root, generateClaudeCodeFolder({ n: 12, seed: c.seed, now }));
  else
    writeCorpus(
      sb.root,
      generateCorpus({ n: 40, seed: c.seed, now, machine: 'test-machine', ownerEmail: 'owner@example.com' }),
    );
  const ref = path.join(sb.tmp, 'ref');
  copyRoot(sb.root, ref);
  const refDb = path.join(sb.tmp, 'ref.sqlite');
  const env = envFor(ref, refDb, sb.tmp);
  const ctx = createContext(loadConfig({ env }), env);
  scan(ctx);
  const op = `crash-${seedToInt(c.seed).toString(16)}`;
  const names = shuffle(mulberry32(seedToInt(c.seed)), [...placements(ref, c.flat).entries()]);
  try {
    for (const [memory, [src]] of names) {
      const before = fs.readFileSync(path.join(ref, src!));
      const indexBefore = c.flat ? fs.readFileSync(path.join(ref, 'MEMORY.md'), 'utf8') : undefined;
      const r = transition(ctx, { ref: memory, action: c.action, reason: 'crash test', actor: 'user:cli', opId: op });
      if (!r.ok || r.noop) continue;
      const dst = path.relative(ref, r.path).split(path.sep).join('/');
      const indexAfter = c.flat ? fs.readFileSync(path.join(ref, 'MEMORY.md'), 'utf8') : undefined;
      return {
        c,
        sb,
        op,
        memory,
        src: src!,
        dst,
        before,
        after: fs.readFileSync(r.path),
        tree: treeHash(sb.root),
        indexBefore,
        indexAfter,
      };
    }
  } finally {
    closeDb(refDb);
  }
  throw new Error(`${c.name}: no memory in corpus ${c.seed} accepts ${c.action}`);
}

const runs: Prepared[] = [];
beforeAll(async () => {
  const prepared = cases.map(prepare);
  await pool(prepared, 2, async (p) => {
    p.crash = await runCliAsync([p.c.action, p.memory, '--reason', 'crash test', '--op', p.op], p.sb.env, {
      MEMTRUST_CRASH_AT: p.c.step,
    });
    p.rec = await runCliAsync(['list', '--json'], p.sb.env);
  });
  runs.push(...prepared);
}, 240_000);

afterAll(() => {
  for (const p of runs) fs.rmSync(p.sb.tmp, { recursive: true, force: true });
}, 60_000);

const tierOnDisk = (rel: string, bytes: Buffer): string => {
  if (rel.startsWith('quarantine/')) return 'quarantined';
  if (rel.startsWith('archive/')) return 'archived';
  try {
    return fieldsOf(bytes)['trust-level'] === 'verified' ? 'verified' : 'inferred';
  } catch {
    return 'inferred'; // no complete frontmatter block
  }
};

describe('crash at every step, then recovery at the next start-up', () => {
  it('covers every step for moves, in-place writes and the index-file layout', () => {
    expect(cases.length).toBe(CRASH_STEPS.length * 5);
    expect(new Set(runs.map((p) => p.memory)).size).toBeGreaterThan(10);
  });

  it.each(cases.map((c, i) => [c.name, i] as const))('%s', (_name, i) => {
    const p = runs[i]!;
    const root = p.sb.root;
    const forward = !ROLLED_BACK.includes(p.c.step);
    const ctxt = `${p.c.name}, seed ${p.c.seed}, memory ${p.memory}\n${p.rec!.stderr}`;
    expect(p.crash!.signal, ctxt).toBe('SIGKILL');
    expect(p.rec!.status, ctxt).toBe(0);
    expect(p.rec!.stderr, ctxt).toMatch(forward ? /completed after an interruption/ : /undone; the file is as it was/);

    // Every memory in exactly one place; the target at src with before bytes or at dst with after bytes.
    const places = placements(root, p.c.flat);
    for (const [name, where] of places) expect(where, `${name} ${ctxt}`).toHaveLength(1);
    const at = forward ? p.dst : p.src;
    expect(places.get(p.memory), ctxt).toEqual([at]);
    expect(fs.readFileSync(path.join(root, at)).equals(forward ? p.after : p.before), ctxt).toBe(true);

    // Every other byte as it was (directories aside: an empty quarantine/ may stay).
    const expected = { ...p.tree };
    delete expected[p.src];
    expected[at] = sha(forward ? p.after : p.before);
    if (p.c.flat) expected['MEMORY.md'] = sha(Buffer.from(forward ? p.indexAfter! : p.indexBefore!));
    const files = (t: Record<string, string>) =>
      Object.fromEntries(Object.entries(t).filter(([k]) => !k.endsWith('/')));
    expect(files(treeHash(root)), ctxt).toEqual(files(expected));

    // Nothing temporary or pending; the lock released.
    expect(tmpFiles(root), ctxt).toEqual([]);
    expect(journalFiles(root), ctxt).toEqual([]);
    expect(
      fs.readdirSync(path.join(root, '.memtrust')).filter((n) => n.startsWith('lock')),
      ctxt,
    ).toEqual([]);

    // The audit event exactly once iff the after state is on disk; recovered iff written by recovery.
    const events = readAudit(root).filter((e) => e.id === p.op);
    expect(events.length, ctxt).toBe(forward ? 1 : 0);
    if (forward) {
      expect(events[0], ctxt).toMatchObject({
        action: p.c.action,
        memory: p.memory,
        before_sha256: sha(p.before),
        after_sha256: sha(p.after),
        recovered: BEFORE_AUDIT.includes(p.c.step),
      });
    }

    // The index (list --json) agrees with disk, file by file, and the event is mirrored iff applied.
    const listed = JSON.parse(p.rec!.stdout) as {
      total: number;
      items: { file: string; tier: string; sha256: string }[];
    };
    const onDisk = [...places.values()].map(([rel]) => rel!).sort();
    expect(listed.items.map((x) => x.file).sort(), ctxt).toEqual(onDisk);
    for (const item of listed.items) {
      const bytes = fs.readFileSync(path.join(root, item.file));
      expect({ file: item.file, tier: item.tier, sha256: item.sha256 }, ctxt).toEqual({
        file: item.file,
        tier: tierOnDisk(item.file, bytes),
        sha256: sha(bytes),
      });
    }
    const db = openDb(p.sb.db);
    try {
      expect(db.sqlite.prepare('SELECT count(*) AS n FROM audit_events WHERE id = ?').get(p.op), ctxt).toEqual({
        n: forward ? 1 : 0,
      });
    } finally {
      closeDb(p.sb.db);
    }
  });
});
