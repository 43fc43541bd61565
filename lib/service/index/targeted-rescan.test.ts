/**
 * Targeted rescans (docs/freshness.md): after the watcher's events, the keeper reads no folder
 * and lstat's only the files the events named. The index it leaves must be the
 * index a full scan of the same disk writes, for the real shapes (lib/service/fixtures/scan-corpus.ts)
 * and every kind of change: touches, edits, appends, deletes, adds, a move to quarantine/, a
 * file swapped for a symlink, a new archive month, a folder named like a memory.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type Database from 'better-sqlite3';
import { loadConfig } from '../../core/config';
import { closeDb } from '../../../db/client';
import { createContext, type ServiceContext } from '../context';
import { scan } from './scan-service';
import { keepFresh, LEAD_MS, scanDelay, SETTLE_MS, type Keeper } from './keep-fresh';
import type { ScanStats } from './scan';
import { corpusEnv, writeScanCorpus } from '../fixtures/scan-corpus';

const dirs: string[] = [];
const dbs: string[] = [];
const keepers: Keeper[] = [];
// Outside changes append audit events, which the watcher sees and answers with one more
// (mirror-only) scan; these tests count scans, so versions are off here (docs/versions.md).
beforeEach(() => {
  vi.stubEnv('MEMTRUST_VERSIONS', 'off');
});
afterEach(() => {
  vi.unstubAllEnvs();
  for (const k of keepers.splice(0)) k.close();
  for (const db of dbs.splice(0)) closeDb(db);
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const envFor = corpusEnv;

function contextFor(tmp: string, roots: string[], name: string): ServiceContext {
  const db = path.join(tmp, `${name}.sqlite`);
  dbs.push(db);
  const env = envFor(tmp, roots, name);
  return createContext(loadConfig({ env }), env);
}

function rows(sqlite: Database.Database): Record<string, string[]> {
  const all = (sql: string) => (sqlite.prepare(sql).all() as unknown[]).map((r) => JSON.stringify(r)).sort();
  return {
    memories: all('SELECT * FROM entries'),
    findings: all('SELECT * FROM findings'),
    index_findings: all('SELECT * FROM index_findings'),
  };
}

/** A keeper whose scans are recorded, with its first (full) scan done. */
function keeper(ctx: ServiceContext): { keep: Keeper; scans: ScanStats[] } {
  const scans: ScanStats[] = [];
  const keep = keepFresh(ctx, { onScan: (s) => scans.push(s) });
  keepers.push(keep);
  keep.fresh();
  return { keep, scans };
}

/** A scan corpus in a fresh temp folder, its context, and a keeper with its first (full) scan done. */
function keptCorpus(big: number, small: number) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-targeted-'));
  dirs.push(tmp);
  const corpus = writeScanCorpus(path.join(tmp, 'roots'), big, small);
  const ctx = contextFor(tmp, corpus.roots, 'kept');
  return { tmp, corpus, ctx, ...keeper(ctx) };
}

/** The memory files of a folder, sorted. */
const memoryNames = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.md'))
    .sort();

/** The kept index must be the one a full scan of the same disk writes into a fresh database; returns that scan's stats. */
function expectFullScanIndex(ctx: ServiceContext, tmp: string, roots: string[], name: string): ScanStats {
  const fresh = contextFor(tmp, roots, name);
  const stats = scan(fresh);
  const a = rows(ctx.handle.sqlite);
  const b = rows(fresh.handle.sqlite);
  for (const part of Object.keys(b)) expect(a[part], part).toEqual(b[part]);
  return stats;
}

/** Lets the event loop take the watchers' events (inotify delivers within milliseconds). */
const settle = () => new Promise((r) => setTimeout(r, 150));

/**
 * The keeper reads one event (dirty, one file named): `file` edited, then this process's event
 * loop turned for 150 ms without timers (they are faked by the callers, so it does not scan).
 */
async function keeperHears(file: string): Promise<void> {
  fs.appendFileSync(file, '\nRead by the keeper.\n');
  const until = Date.now() + 150;
  while (Date.now() < until) await new Promise((r) => setImmediate(r));
}

const later = new Date('2026-11-02T08:00:00Z');

describe('a targeted rescan writes the index a full scan writes', () => {
  it('after touches, edits, deletes, adds, a move to quarantine/ and a symlink swap', async () => {
    const { tmp, corpus, ctx, keep, scans } = keptCorpus(300, 40);
    expect(scans[0]?.reused ?? 0).toBe(0); // the first scan lists everything
    await settle();
    corpus.mutate();
    const [trustA, , claude] = corpus.roots as [string, string, string];
    const mem = path.join(trustA, 'memories');
    const names = memoryNames(mem);
    // Same size, new bytes, new mtime: only an event says it changed.
    const same = path.join(mem, names[5]!);
    const text = fs.readFileSync(same, 'utf8');
    fs.writeFileSync(
      same,
      text.replace(/[a-z]/, (c) => (c === 'z' ? 'y' : String.fromCharCode(c.charCodeAt(0) + 1))),
    );
    fs.utimesSync(same, later, later);
    // Moved to quarantine/ by hand; another copied there, so it has a twin (a conflict).
    fs.mkdirSync(path.join(trustA, 'quarantine'), { recursive: true });
    fs.renameSync(path.join(mem, names[7]!), path.join(trustA, 'quarantine', names[7]!));
    fs.copyFileSync(path.join(mem, names[9]!), path.join(trustA, 'quarantine', names[9]!));
    // A Claude Code memory swapped for a symlink to another one.
    const claudeFiles = fs
      .readdirSync(claude)
      .filter((n) => n.endsWith('.md') && n !== 'MEMORY.md' && !fs.lstatSync(path.join(claude, n)).isSymbolicLink())
      .sort();
    fs.rmSync(path.join(claude, claudeFiles[3]!));
    fs.symlinkSync(path.join(claude, claudeFiles[4]!), path.join(claude, claudeFiles[3]!));
    await settle();
    keep.fresh();
    const targetedScan = scans.at(-1)!;
    expect(scans).toHaveLength(2);
    expect(targetedScan.reused).toBeGreaterThan(250); // most files were not lstat'ed again
    expect(targetedScan.compared).toBeGreaterThan(10); // and only the named and new ones compared with their rows
    expect(targetedScan.compared).toBeLessThan(150);
    const conflict = ctx.handle.sqlite.prepare('SELECT count(*) FROM entries WHERE conflict = 1').pluck().get();
    expect(conflict).toBeGreaterThanOrEqual(2);
    expectFullScanIndex(ctx, tmp, corpus.roots, 'fresh');
  });

  it('a new archive month, or a burst of more than 1,000 files, lists everything again', async () => {
    const { tmp, corpus, ctx, keep, scans } = keptCorpus(1400, 10);
    const [trustA] = corpus.roots as [string];
    const mem = path.join(trustA, 'memories');
    const names = memoryNames(mem);
    await settle();
    // A month folder appears with a file in it: a folder event, so no file is taken as listed.
    const month = path.join(trustA, 'archive', '2026-10');
    fs.mkdirSync(month, { recursive: true });
    fs.copyFileSync(path.join(mem, names[0]!), path.join(month, names[0]!));
    await settle();
    keep.fresh();
    expect(scans.at(-1)!.reused ?? 0).toBe(0);
    // More than 1,000 files named by events: the kernel may have dropped some, list everything.
    await settle();
    for (const n of names.slice(0, 1001)) fs.utimesSync(path.join(mem, n), later, later);
    await settle();
    keep.fresh();
    expect(scans.at(-1)!.reused ?? 0).toBe(0);
    // More than 1,000 events of any kind (an editor's hidden files beside the memories, which
    // name no memory): the kernel's queue may have dropped a memory file's event among them.
    await settle();
    for (let i = 0; i < 1001; i++) fs.writeFileSync(path.join(mem, `.swap-${i}`), '');
    fs.writeFileSync(path.join(mem, 'project_unnamed.md'), fs.readFileSync(path.join(mem, names[1]!)));
    await settle();
    keep.fresh();
    expect(scans.at(-1)!.reused ?? 0).toBe(0);
    // One more edit: targeted again.
    await settle();
    fs.appendFileSync(path.join(mem, names[2]!), '\nLater.\n');
    await settle();
    keep.fresh();
    expect(scans.at(-1)!.reused).toBeGreaterThan(1000);
    expect(scans.at(-1)!.compared).toBe(1);
    // Another process wrote the index (a CLI scan after the edits): the rows are read in one pass again.
    await settle();
    fs.appendFileSync(path.join(mem, names[3]!), '\nLater still.\n');
    fs.rmSync(path.join(mem, names[4]!));
    const cli = spawnSync(process.execPath, [path.resolve(__dirname, '../../cli/memtrust.cjs'), 'scan'], {
      env: { ...process.env, ...envFor(tmp, corpus.roots, 'kept') },
      encoding: 'utf8',
    });
    expect(cli.status, cli.stderr).toBe(0);
    await settle();
    keep.fresh();
    expect(scans.at(-1)!.reused).toBeGreaterThan(1000);
    expect(scans.at(-1)!.compared ?? 0).toBe(0);
    expectFullScanIndex(ctx, tmp, corpus.roots, 'fresh');
  });

  it('reads no folder: a named folder, a named index file, a file where the folder was, over three rescans', async () => {
    const { tmp, corpus, ctx, keep, scans } = keptCorpus(300, 40);
    const [trustA, , claude] = corpus.roots as [string, string, string];
    const mem = path.join(trustA, 'memories');
    const names = memoryNames(mem);
    const same = () =>
      expect(scans.at(-1)!.files).toBe(expectFullScanIndex(ctx, tmp, corpus.roots, `fresh${scans.length}`).files);
    await settle();
    // A folder named like a memory, a new memory, an edit of MEMORY.md (never a memory) and a deletion.
    fs.mkdirSync(path.join(mem, 'project_folder.md'));
    fs.writeFileSync(path.join(mem, 'project_new.md'), fs.readFileSync(path.join(mem, names[1]!)));
    fs.appendFileSync(path.join(claude, 'MEMORY.md'), '- [Later](project_later.md) — added later\n');
    fs.rmSync(path.join(mem, names[2]!));
    await settle();
    keep.fresh();
    expect(scans.at(-1)!.compared).toBe(4);
    same();
    // Over the patched listing: the folder becomes a file, the new memory goes, the deleted one comes back.
    await settle();
    fs.rmdirSync(path.join(mem, 'project_folder.md'));
    fs.writeFileSync(path.join(mem, 'project_folder.md'), fs.readFileSync(path.join(mem, names[3]!)));
    fs.rmSync(path.join(mem, 'project_new.md'));
    fs.copyFileSync(path.join(mem, names[4]!), path.join(mem, names[2]!));
    await settle();
    keep.fresh();
    expect(scans.at(-1)!.compared).toBe(3);
    expect(scans.at(-1)!.reused).toBeGreaterThan(250);
    same();
    // A third rescan over that listing: what went in the second must not come back.
    await settle();
    fs.appendFileSync(path.join(mem, names[5]!), '\nLater.\n');
    await settle();
    keep.fresh();
    expect(scans.at(-1)!.compared).toBe(1);
    same();
  });
});

describe('a keeper rescan beside another process’s scan', () => {
  it('never writes back what its kept listing says where the rows another process wrote disagree', async () => {
    const { tmp, corpus, ctx, keep, scans } = keptCorpus(300, 40);
    const [trustA] = corpus.roots as [string];
    const mem = path.join(trustA, 'memories');
    const names = memoryNames(mem);
    await settle();
    // The keeper's own timer must not scan before the moment this test picks.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await keeperHears(path.join(mem, names[0]!));
      // Then, before the keeper's event loop reads theirs (they wait in the inotify queue, as
      // they do while a keeper is busy or short of CPU): an in-place edit, a deletion and a new
      // file; a command scans itself and writes their rows from the disk as it is now.
      fs.appendFileSync(path.join(mem, names[1]!), '\nNot yet heard of.\n');
      fs.rmSync(path.join(mem, names[2]!));
      fs.writeFileSync(path.join(mem, 'project_new_unheard.md'), fs.readFileSync(path.join(mem, names[3]!)));
      // spawnSync: this process's event loop does not turn meanwhile.
      const cli = spawnSync(process.execPath, [path.resolve(__dirname, '../../cli/memtrust.cjs'), 'scan'], {
        env: { ...process.env, ...envFor(tmp, corpus.roots, 'kept') },
        encoding: 'utf8',
      });
      expect(cli.status, cli.stderr).toBe(0);
      // The keeper's rescan runs now: its kept listing is from before those three changes.
      keep.fresh();
    } finally {
      vi.useRealTimers();
    }
    expect(scans).toHaveLength(2);
    expect(scans[1]!.reused).toBeGreaterThan(250); // the kept listing was used
    // The rows are the disk's, as the command left them: no old size for the edit, no error
    // row for the deleted file, the new file's row not removed.
    expectFullScanIndex(ctx, tmp, corpus.roots, 'fresh');
  });
});

describe('a folder whose watch this scan placed', () => {
  it('is listed whole by that scan, whatever the events still unread say', async () => {
    const { tmp, corpus, ctx, keep, scans } = keptCorpus(300, 40);
    const [trustA] = corpus.roots as [string];
    const mem = path.join(trustA, 'memories');
    const names = memoryNames(mem);
    const month = path.join(trustA, 'archive', '2030-01');
    expect(fs.existsSync(month)).toBe(false);
    await settle();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await keeperHears(path.join(mem, names[0]!));
      // A new folder with a memory in it, both before any watch on it; the event in archive/
      // that says so is not read yet when the rescan places the new folder's watch.
      fs.mkdirSync(month);
      fs.copyFileSync(path.join(mem, names[1]!), path.join(month, names[1]!));
      keep.fresh();
    } finally {
      vi.useRealTimers();
    }
    expect(scans).toHaveLength(2);
    expect(scans[1]!.reused ?? 0).toBe(0); // listed whole
    expectFullScanIndex(ctx, tmp, corpus.roots, 'fresh');
  });
});

describe('when the keeper scans by itself', () => {
  it('soon after a change that follows a quiet spell, at the settle pace while changes keep coming', () => {
    expect(LEAD_MS).toBeLessThan(SETTLE_MS);
    expect(scanDelay(Number.POSITIVE_INFINITY)).toBe(LEAD_MS); // the first change ever
    expect(scanDelay(60_000)).toBe(LEAD_MS);
    expect(scanDelay(SETTLE_MS + 1)).toBe(LEAD_MS);
    expect(scanDelay(SETTLE_MS)).toBe(SETTLE_MS);
    expect(scanDelay(5)).toBe(SETTLE_MS);
  });

  it('scans a change with nobody reading, and the index then holds it', async () => {
    const { corpus, ctx, scans } = keptCorpus(40, 10);
    await settle();
    const before = scans.length;
    const mem = path.join(corpus.roots[0]!, 'memories');
    const file = path.join(mem, memoryNames(mem)[0]!);
    fs.appendFileSync(file, '\nOne more line, written while nobody reads.\n');
    const deadline = Date.now() + 5000;
    while (scans.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(scans.length).toBeGreaterThan(before);
    const size = ctx.handle.sqlite
      .prepare('SELECT size FROM entries WHERE rel_path = ?')
      .pluck()
      .get(`memories/${path.basename(file)}`);
    expect(size).toBe(fs.statSync(file).size);
  });
});
