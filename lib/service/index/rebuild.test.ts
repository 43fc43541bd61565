/**
 * Issue #3 item 7.6 and 7.7: the SQLite file is a cache. Deleted (with its
 * -wal/-shm), the next CLI run rebuilds the same `list --json` and
 * `history --json` from disk and the audit files — recovered events included —
 * and an operation id already applied stays applied.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateCorpus, writeCorpus } from '../../demo';
import { transition } from '../write/transition';
import { closeDb } from '../../../db/client';
import {
  NOW,
  closeCtx,
  openCtx,
  placements,
  readAudit,
  removeSandbox,
  runCliAsync,
  sandbox,
  type Sandbox,
} from '../test-support';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox('memtrust-rebuild-');
  writeCorpus(
    sb.root,
    generateCorpus({
      n: 40,
      seed: 'rebuild',
      now: new Date(NOW),
      machine: 'test-machine',
      ownerEmail: 'owner@example.com',
    }),
  );
});
afterEach(() => removeSandbox(sb));

const dropDb = (file: string) => {
  closeDb(file);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
};

/** Some transitions of each kind the corpus allows, in-process. */
function work(): number {
  const ctx = openCtx(sb);
  let done = 0;
  for (const [name, [rel]] of placements(sb.root)) {
    const action = rel!.startsWith('quarantine/')
      ? done % 2
        ? 'archive'
        : 'restore'
      : done % 3
        ? 'demote'
        : 'promote';
    const r = transition(ctx, { ref: name, action, reason: `rebuild test ${done}`, actor: 'user:web' });
    if (r.ok && !r.noop) done++;
  }
  closeCtx(sb);
  return done;
}

describe('database deleted and rebuilt', () => {
  it('gives the same list --json and history --json, recovered events included', async () => {
    const done = work();
    expect(done).toBeGreaterThan(10);
    // One more transition cut short by a crash and finished by the next start-up: a recovered event.
    const victim = [...placements(sb.root)].find(([, [rel]]) => rel!.startsWith('memories/'))![0];
    const crash = await runCliAsync(['demote', victim, '--reason', 'crashed once', '--op', 'crashed-op'], sb.env, {
      MEMTRUST_CRASH_AT: 'after-index-file',
    });
    expect(crash.signal).toBe('SIGKILL');
    const list1 = await runCliAsync(['list', '--json'], sb.env);
    const hist1 = await runCliAsync(['history', '--json'], sb.env);
    expect([list1.status, hist1.status]).toEqual([0, 0]);
    const events = (JSON.parse(hist1.stdout) as { events: { id: string; recovered: boolean }[] }).events;
    expect(events.find((e) => e.id === 'crashed-op')).toMatchObject({ recovered: true });
    expect(events.length).toBe(
      readAudit(sb.root).length +
        readAudit(sb.root, 'work-linux').length +
        readAudit(sb.root, 'home-imac').length +
        readAudit(sb.root, 'ci-runner-02').length,
    );

    dropDb(sb.db);
    expect(fs.existsSync(sb.db)).toBe(false);
    const list2 = await runCliAsync(['list', '--json'], sb.env);
    const hist2 = await runCliAsync(['history', '--json'], sb.env);
    expect(fs.existsSync(sb.db)).toBe(true);
    expect(JSON.parse(list2.stdout)).toEqual(JSON.parse(list1.stdout));
    expect(JSON.parse(hist2.stdout)).toEqual(JSON.parse(hist1.stdout));
  });

  it('an operation id applied before the deletion is still applied once after it', () => {
    const ctx = openCtx(sb);
    const [name] = [...placements(sb.root)].find(([, [rel]]) => rel!.startsWith('memories/'))!;
    const first = transition(ctx, {
      ref: name,
      action: 'demote',
      reason: 'once',
      actor: 'user:web',
      opId: 'only-once',
    });
    expect(first).toMatchObject({ ok: true, noop: false });
    const again = transition(ctx, {
      ref: name,
      action: 'demote',
      reason: 'once',
      actor: 'user:web',
      opId: 'only-once',
    });
    expect(again).toMatchObject({ ok: true, noop: true, message: 'operation only-once was already applied' });
    const bytes = fs.readFileSync(path.join(sb.root, 'quarantine', name));
    dropDb(sb.db);
    const fresh = openCtx(sb);
    const third = transition(fresh, { ref: name, action: 'restore', actor: 'user:web', opId: 'only-once' });
    expect(third).toMatchObject({ ok: true, noop: true, message: 'operation only-once was already applied' });
    expect(fs.readFileSync(path.join(sb.root, 'quarantine', name)).equals(bytes)).toBe(true);
    expect(readAudit(sb.root).filter((e) => e.id === 'only-once')).toHaveLength(1);
    expect(fresh.handle.sqlite.prepare("SELECT count(*) AS n FROM audit_events WHERE id = 'only-once'").get()).toEqual({
      n: 1,
    });
  });
});
