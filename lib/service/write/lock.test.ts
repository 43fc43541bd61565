/**
 * Issue 19, defect 2: a root lock that recovers by itself (docs/crash-safety.md).
 * A lock left empty by a kill, or naming a process that is gone or a pid that now
 * belongs to another process, is broken (with a note beside the audit trail); a
 * lock held by a live writer is respected; reads show the last committed state
 * while a live writer holds the lock and an unfinished operation is pending.
 * Real CLI processes, real temp roots, real live processes as lock owners.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withRootLock, LockTimeoutError } from './lock';
import { loadConfig } from '../../core/config';
import { closeDb } from '../../../db/client';
import { createContext } from '../context';
import { keepFresh } from '../index/keep-fresh';
import type { ScanStats } from '../index/scan';
import {
  MACHINE,
  memoryFile,
  put,
  readAudit,
  removeSandbox,
  runCli,
  runCliAsync,
  sandbox,
  sha,
  type Sandbox,
} from '../test-support';

const BODY = '\nThe NAS at 10.0.0.9 is backed up nightly to the offsite bucket.\n';
const FILE = memoryFile(
  [
    ['name', 'Backups'],
    ['description', 'nightly'],
    ['type', 'project'],
    ['trust-level', 'inferred'],
    ['created-at', '2026-10-01T00:00:00Z'],
  ],
  BODY,
);
const NAME = 'project_backups.md';

let sb: Sandbox;
let children: ChildProcess[] = [];
beforeEach(() => {
  sb = sandbox('memtrust-lock-');
  put(sb.root, `memories/${NAME}`, FILE);
  fs.mkdirSync(path.join(sb.root, '.memtrust'), { recursive: true });
});
afterEach(() => {
  for (const c of children) c.kill('SIGKILL');
  children = [];
  removeSandbox(sb);
});

const lockFile = () => path.join(sb.root, '.memtrust', `lock.${MACHINE}`);
const notes = () => {
  try {
    return fs
      .readFileSync(path.join(sb.root, '.memtrust', 'audit', `${MACHINE}.notes.log`), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
};

/** A live process that is not memtrust (it could own a reused pid). */
function liveProcess(): number {
  const c = spawn('sleep', ['120'], { stdio: 'ignore' });
  children.push(c);
  return c.pid!;
}

/** Start time (clock ticks since boot) from /proc, read independently of lib/service/write/lock.ts. */
function startTicks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

function age(file: string, seconds: number) {
  const t = new Date(Date.now() - seconds * 1000);
  fs.utimesSync(file, t, t);
}

function demoteQuickly() {
  const t0 = Date.now();
  const r = runCli(['demote', NAME, '--reason', 'lock test'], sb.env);
  return { r, ms: Date.now() - t0 };
}

describe('a lock recovers by itself', () => {
  it('an empty lock left by a kill before its owner was written, older than a few seconds, is broken with a note', () => {
    fs.writeFileSync(lockFile(), '');
    age(lockFile(), 60);
    const { r, ms } = demoteQuickly();
    expect(r.stderr).not.toMatch(/another memtrust process/);
    expect(r.status, r.stderr).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(fs.existsSync(path.join(sb.root, 'quarantine', NAME))).toBe(true);
    expect(fs.existsSync(lockFile())).toBe(false);
    expect(notes()).toEqual([expect.objectContaining({ note: 'lock-broken', why: expect.stringMatching(/empty/) })]);
    expect(readAudit(sb.root).map((e) => e.action)).toEqual(['demote']);
  });

  it('a lock naming a live pid that started after the lock was written (a reused pid) is broken', () => {
    const pid = liveProcess();
    fs.writeFileSync(lockFile(), String(pid)); // the old format: a bare pid
    age(lockFile(), 3600);
    const { r, ms } = demoteQuickly();
    expect(r.status, r.stderr).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(notes()).toEqual([
      expect.objectContaining({ note: 'lock-broken', why: expect.stringMatching(/reused|started/) }),
    ]);
  });

  it('a lock naming a live pid with a different start time is broken', () => {
    const pid = liveProcess();
    fs.writeFileSync(
      lockFile(),
      JSON.stringify({ v: 1, pid, host: os.hostname(), start: startTicks(pid) - 7, nonce: 'n-old' }),
    );
    const { r, ms } = demoteQuickly();
    expect(r.status, r.stderr).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(notes()).toEqual([
      expect.objectContaining({ note: 'lock-broken', owner: expect.objectContaining({ pid, nonce: 'n-old' }) }),
    ]);
  });

  it('a lock naming a dead process is broken', () => {
    fs.writeFileSync(
      lockFile(),
      JSON.stringify({ v: 1, pid: 2 ** 22 - 3, host: os.hostname(), start: 1, nonce: 'n-dead' }),
    );
    const { r } = demoteQuickly();
    expect(r.status, r.stderr).toBe(0);
    expect(notes()).toEqual([
      expect.objectContaining({ note: 'lock-broken', why: expect.stringMatching(/not running/) }),
    ]);
  });

  it('a lock held by a live process (same start time), or empty but fresh, is respected', () => {
    const pid = liveProcess();
    const held = JSON.stringify({ v: 1, pid, host: os.hostname(), start: startTicks(pid), nonce: 'n-live' });
    fs.writeFileSync(lockFile(), held);
    expect(() => withRootLock(sb.root, MACHINE, () => 1, 300)).toThrow(LockTimeoutError);
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(held);
    fs.writeFileSync(lockFile(), '');
    expect(() => withRootLock(sb.root, MACHINE, () => 1, 300)).toThrow(LockTimeoutError);
    expect(fs.existsSync(lockFile())).toBe(true);
    expect(notes()).toEqual([]);
  });

  it('the lock holds its owner (pid, host, start time, nonce) while held, and is gone after', () => {
    const seen = withRootLock(
      sb.root,
      MACHINE,
      () => JSON.parse(fs.readFileSync(lockFile(), 'utf8')) as Record<string, unknown>,
    );
    expect(seen).toMatchObject({
      pid: process.pid,
      host: os.hostname(),
      start: startTicks(process.pid),
      nonce: expect.any(String),
    });
    expect(fs.readdirSync(path.join(sb.root, '.memtrust')).filter((n) => n.startsWith('lock'))).toEqual([]);
  });
});

describe('several processes meet one stale lock', () => {
  it("four CLIs demoting at once behind a dead owner's lock: all succeed, the lock is broken once", async () => {
    const names = ['project_a.md', 'project_b.md', 'project_c.md', 'project_d.md'];
    for (const n of names) put(sb.root, `memories/${n}`, FILE);
    runCli(['list', '--json'], sb.env); // index first, so the racers do only the demote
    fs.writeFileSync(
      lockFile(),
      JSON.stringify({ v: 1, pid: 2 ** 22 - 5, host: os.hostname(), start: 1, nonce: 'n-gone' }),
    );
    const runs = await Promise.all(names.map((n) => runCliAsync(['demote', n, '--reason', 'race'], sb.env)));
    for (const r of runs) expect(r.status, r.stderr).toBe(0);
    expect(notes()).toEqual([
      expect.objectContaining({ note: 'lock-broken', owner: expect.objectContaining({ nonce: 'n-gone' }) }),
    ]);
    expect(
      readAudit(sb.root)
        .map((e) => e.memory)
        .sort(),
    ).toEqual(names);
    expect(fs.readdirSync(path.join(sb.root, '.memtrust')).filter((n) => n.startsWith('lock'))).toEqual([]);
  }, 60_000);
});

describe('reads never need the write lock', () => {
  it('list shows the last committed state while a live writer holds the lock over an unfinished operation; recovery follows when it is free', async () => {
    // An operation cut short after its new copy was linked into quarantine/.
    const crash = await runCliAsync(['demote', NAME, '--reason', 'lock test', '--op', 'op-cut'], sb.env, {
      MEMTRUST_CRASH_AT: 'after-link',
    });
    expect(crash.signal).toBe('SIGKILL');
    // The lock now belongs to a live process (a writer still busy, as far as anyone can tell).
    const pid = liveProcess();
    fs.writeFileSync(
      lockFile(),
      JSON.stringify({ v: 1, pid, host: os.hostname(), start: startTicks(pid), nonce: 'n-busy' }),
    );
    const t0 = Date.now();
    const list = runCli(['list', '--json'], sb.env);
    expect(list.status, list.stderr).toBe(0);
    expect(Date.now() - t0).toBeLessThan(8_000);
    const items = (JSON.parse(list.stdout) as { items: { file: string; sha256: string }[] }).items;
    expect(items.map((i) => [i.file, i.sha256])).toEqual([[`memories/${NAME}`, sha(FILE)]]);
    const show = runCli(['show', NAME, '--json'], sb.env);
    expect(show.status, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ relPath: `memories/${NAME}`, sha256: sha(FILE) });
    expect(readAudit(sb.root)).toEqual([]);
    // The writer is gone: the next read recovers (rolls the demote forward).
    children[0]!.kill('SIGKILL');
    await new Promise((r) => children[0]!.once('exit', r));
    const after = runCli(['list', '--json'], sb.env);
    expect(after.status, after.stderr).toBe(0);
    expect(after.stderr).toMatch(/completed after an interruption/);
    expect((JSON.parse(after.stdout) as { items: { file: string }[] }).items.map((i) => i.file)).toEqual([
      `quarantine/${NAME}`,
    ]);
    expect(readAudit(sb.root).map((e) => [e.id, e.recovered])).toEqual([['op-cut', true]]);
  }, 60_000);

  it("the dashboard's watcher shows the last committed state too: a targeted rescan falls back to a whole listing", async () => {
    // A live writer holds the lock before the watcher starts, and quarantine/ and the journal
    // exist: the operation's steps below touch no folder the watcher reads as the layout, so
    // its events name two memory files, as a targeted rescan expects.
    fs.mkdirSync(path.join(sb.root, 'quarantine'));
    fs.mkdirSync(path.join(sb.root, '.memtrust', 'journal'));
    const pid = liveProcess();
    fs.writeFileSync(
      lockFile(),
      JSON.stringify({ v: 1, pid, host: os.hostname(), start: startTicks(pid), nonce: 'n' }),
    );
    const ctx = createContext(loadConfig({ env: sb.env }), sb.env);
    const scans: ScanStats[] = [];
    // What every scan left: each must show the last committed state, not only the last scan.
    const shown: unknown[] = [];
    const keep = keepFresh(ctx, {
      onScan: (s) => {
        scans.push(s);
        shown.push(ctx.handle.sqlite.prepare('SELECT rel_path AS p, sha256 AS s FROM entries').all());
      },
    });
    const settle = () => new Promise((r) => setTimeout(r, 150));
    try {
      keep.fresh();
      await settle();
      const before = scans.length;
      // The writer's steps up to the link (docs/crash-safety.md): intent, source moved aside, new copy linked.
      const aside = `memories/.${NAME}.op-cut.aside.tmp`;
      const intent = {
        v: 2,
        op: 'op-cut',
        machine: MACHINE,
        src: `memories/${NAME}`,
        dst: `quarantine/${NAME}`,
        aside,
        event: { from: 'inferred', to: 'quarantined' },
      };
      fs.writeFileSync(path.join(sb.root, '.memtrust', 'journal', `${MACHINE}-op-cut.json`), JSON.stringify(intent));
      fs.renameSync(path.join(sb.root, 'memories', NAME), path.join(sb.root, aside));
      fs.writeFileSync(path.join(sb.root, 'quarantine', NAME), `${FILE}\nnot committed\n`);
      await settle();
      keep.fresh();
      // Scanned since the writer's steps (by the keeper's own timer or by this read), and
      // every one of those scans showed the last committed state.
      expect(scans.length).toBeGreaterThan(before);
      for (const rows of shown.slice(before)) expect(rows).toEqual([{ p: `memories/${NAME}`, s: sha(FILE) }]);
    } finally {
      keep.close();
      closeDb(sb.db);
    }
  }, 60_000);
});
