/**
 * The kept checks as a snapshot plus appended lines (check-cache.ts; docs/session-context.md,
 * "The hook keeps its checks"): a session start after one file changed appends that file's
 * entry; a line stands only beside the snapshot it names; torn lines are skipped; past the
 * bound the file is rewritten whole; a file of the first format (one JSON object) is read.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OwnerIdentity } from '../../validators/types';
import { type CheckedFile, DELTAS_MAX, openCheckCache } from './check-cache';

const OWNER: OwnerIdentity = { emails: ['owner@example.com'], homeUser: 'owner' };
const OTHER: OwnerIdentity = { emails: ['someone@example.com'], homeUser: 'someone' };

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-checks-log-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const entry = (size: number, mtimeMs: number, injection = false): CheckedFile => ({
  size,
  mtimeMs,
  name: `n${size}`,
  credentialLines: size % 3 === 0 ? [size % 7] : [],
  injection,
});
const rels = Array.from({ length: 50 }, (_, i) => `m${i}.md`);
const file = () => path.join(tmp, 'session-checks', 'src.json');
const lines = () =>
  fs
    .readFileSync(file(), 'utf8')
    .split('\n')
    .filter((l) => l !== '');

/**
 * One session start: every file in `files` (path → its size and mtime now) looked up, those
 * the cache does not stand for put as `entry` says; then saved. Returns the paths it put.
 */
function session(files: Map<string, CheckedFile>, owner = OWNER): string[] {
  const cache = openCheckCache(tmp, owner)!;
  const r = cache.root('src', '/root');
  const put: string[] = [];
  for (const [rel, c] of files) {
    if (r.file(rel, c.size, c.mtimeMs)) continue;
    r.put(rel, c);
    put.push(rel);
  }
  cache.save();
  return put;
}

/** What a fresh session start finds kept for each file as it is now. */
function kept(files: Map<string, CheckedFile>, owner = OWNER): Map<string, CheckedFile | undefined> {
  const r = openCheckCache(tmp, owner)!.root('src', '/root');
  return new Map([...files].map(([rel, c]) => [rel, r.file(rel, c.size, c.mtimeMs)]));
}

const initial = () => new Map(rels.map((rel, i) => [rel, entry(100 + i, 1000)]));

describe('the kept checks: a snapshot and appended lines', () => {
  it('one changed file appends its entry alone; a gone file is dropped; every entry read back', () => {
    const files = initial();
    expect(session(files)).toHaveLength(50);
    expect(lines()).toHaveLength(1);
    files.set('m7.md', entry(999, 2000));
    expect(session(files)).toEqual(['m7.md']);
    expect(lines()).toHaveLength(2);
    expect(Object.keys(JSON.parse(lines()[1]!).f)).toEqual(['m7.md']);
    files.delete('m9.md');
    files.set('m3.md', entry(998, 2000, true));
    expect(session(files)).toEqual(['m3.md']);
    expect(JSON.parse(lines()[2]!).f).toEqual({ 'm3.md': entry(998, 2000, true), 'm9.md': null });
    expect(kept(files)).toEqual(files);
    expect(kept(new Map([['m9.md', entry(109, 1000)]])).get('m9.md')).toBeUndefined();
    expect(session(files)).toEqual([]); // nothing changed: nothing written
    expect(lines()).toHaveLength(3);
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
  });

  it('past the bound the file is rewritten whole, with what a whole rewrite at every change would hold', () => {
    const files = initial();
    session(files);
    let most = 0;
    let rewritten = false;
    for (let i = 0; i < DELTAS_MAX + 8; i++) {
      files.set(rels[i % rels.length]!, entry(500 + i, 3000 + i));
      if (i % 5 === 4) files.delete(rels[(i * 7) % rels.length]!);
      session(files);
      const n = lines().length;
      if (n === 1) {
        rewritten = true;
        // Rewritten whole: the files looked at this time, no gone one.
        expect(Object.keys(JSON.parse(lines()[0]!).files).sort()).toEqual([...files.keys()].sort());
      }
      most = Math.max(most, n);
      expect(kept(files)).toEqual(files);
    }
    expect(most).toBe(DELTAS_MAX + 1);
    expect(rewritten).toBe(true);
  });

  it('a change of more than a quarter of the files is written whole', () => {
    const files = initial();
    session(files);
    for (const rel of rels.slice(0, 12)) files.set(rel, entry(700, 4000));
    session(files);
    expect(lines()).toHaveLength(2);
    for (const rel of rels.slice(0, 13)) files.set(rel, entry(701, 4001));
    session(files);
    expect(lines()).toHaveLength(1);
    expect(kept(files)).toEqual(files);
  });

  it('a torn line (a crash while writing it) is skipped; the lines after it are read', () => {
    const files = initial();
    session(files);
    files.set('m1.md', entry(901, 5000));
    session(files);
    fs.appendFileSync(file(), '\n{"n":"x","f":{"m2.md":{"si');
    expect(kept(files)).toEqual(files);
    files.set('m2.md', entry(902, 5000));
    expect(session(files)).toEqual(['m2.md']);
    expect(kept(files)).toEqual(files);
  });

  it('a line written beside another snapshot does not stand (another owner’s rules replaced it meanwhile)', () => {
    const files = initial();
    session(files);
    // A session start under this owner reads the snapshot …
    const mine = openCheckCache(tmp, OWNER)!;
    const r = mine.root('src', '/root');
    for (const [rel, c] of files) r.file(rel, c.size, c.mtimeMs);
    // … another owner's replaces it (nothing kept under other rules stands: all checked again) …
    const theirs = new Map(files);
    theirs.set('m5.md', entry(805, 6000));
    expect(session(theirs, OTHER)).toHaveLength(50);
    // … then the first appends its entry, checked under its own rules, to the new file.
    r.put('m5.md', entry(805, 6000, true));
    mine.save();
    expect(lines()).toHaveLength(2);
    // Under the other owner the line names a snapshot that is gone: its verdict is not taken.
    expect(kept(theirs, OTHER).get('m5.md')).toEqual(entry(805, 6000));
    expect(kept(theirs, OWNER).get('m5.md')).toBeUndefined();
  });

  it('two session starts that read the same snapshot: both lines stand', () => {
    const files = initial();
    session(files);
    const a = openCheckCache(tmp, OWNER)!;
    const b = openCheckCache(tmp, OWNER)!;
    const ra = a.root('src', '/root');
    const rb = b.root('src', '/root');
    for (const [rel, c] of files) {
      ra.file(rel, c.size, c.mtimeMs);
      rb.file(rel, c.size, c.mtimeMs);
    }
    ra.put('m1.md', entry(601, 7000));
    rb.put('m2.md', entry(602, 7000));
    a.save();
    b.save();
    files.set('m1.md', entry(601, 7000));
    files.set('m2.md', entry(602, 7000));
    expect(kept(files)).toEqual(files);
  });

  it('session starts in processes of their own at once: every line whole, no file dropped', async () => {
    const files = initial();
    session(files);
    const writer = path.join(path.dirname(fileURLToPath(import.meta.url)), 'check-cache-writer.ts');
    const run = (who: number) =>
      new Promise<number>((resolve) => {
        const p = spawn(process.execPath, ['--import', 'tsx', writer, tmp, String(who), '20'], { stdio: 'inherit' });
        p.on('exit', (code) => resolve(code ?? -1));
      });
    expect(await Promise.all([0, 1, 2].map(run))).toEqual([0, 0, 0]);
    // Every line whole (no two writers' lines mixed), and no file dropped: each still has an entry one of them put.
    for (const l of lines()) expect(() => JSON.parse(l)).not.toThrow();
    const r = openCheckCache(tmp, OWNER)!.root('src', '/root');
    for (let i = 0; i < 50; i++) {
      const found = [entry(100 + i, 1000), ...Array.from({ length: 20 }, (_, j) => entry(300 + i, 9000 + j))].find(
        (c) => r.file(`m${i}.md`, c.size, c.mtimeMs) !== undefined,
      );
      expect(found, `m${i}.md`).toBeDefined();
      expect(r.file(`m${i}.md`, found!.size, found!.mtimeMs)).toEqual(found);
    }
  }, 60_000);

  it('a file of the first format (one JSON object, no nonce) is read, then rewritten whole at the first change', () => {
    const files = initial();
    session(files);
    const whole = fs.readFileSync(file(), 'utf8');
    const { n: _, ...old } = JSON.parse(whole.slice(0, whole.indexOf('\n')));
    fs.writeFileSync(file(), JSON.stringify(old), { mode: 0o600 });
    expect(kept(files)).toEqual(files);
    files.set('m4.md', entry(404, 8000));
    expect(session(files)).toEqual(['m4.md']);
    expect(lines()).toHaveLength(1);
    expect(JSON.parse(lines()[0]!).n).toEqual(expect.any(String));
    expect(kept(files)).toEqual(files);
  });
});
