/**
 * A first index lists a root without an lstat and takes each file's size and mtime from the
 * open file (docs/performance.md, "A first index stats each file once"). same-index.test.ts
 * holds its rows to a forced re-inspection through lstat'ed listings; this holds the cases
 * a listing and a read can disagree on: a file removed, swapped for a symlink or grown past
 * the cap between the readdir and the open, and the listing the watcher keeps.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb, closeDb } from '../../../db/client';
import { describeSource, type FileSourceInfo, type ListedFile } from '../../sources';
import { STAT_LATER } from '../../sources/list-dir';
import { openListedLater, SCAN_READ_CAP, scanSources } from './scan';

let tmp: string;
let root: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-stat-later-'));
  root = path.join(tmp, 'root');
  for (const d of ['memories', 'quarantine', 'archive']) fs.mkdirSync(path.join(root, d), { recursive: true });
});
afterEach(() => {
  closeDb(path.join(tmp, 'index.sqlite'));
  fs.rmSync(tmp, { recursive: true, force: true });
});

const MEMORY = '---\nname: A\ndescription: d\ntype: user\ntrust-level: inferred\n---\n\nBody.\n';
const later = (rel: string): ListedFile => ({
  relPath: rel,
  filename: path.basename(rel),
  location: 'memories',
  size: STAT_LATER,
  mtimeMs: STAT_LATER,
});

describe('openListedLater', () => {
  it('reads the bytes and sets the size and mtime an lstat gives', () => {
    const file = path.join(root, 'memories', 'a.md');
    fs.writeFileSync(file, MEMORY);
    fs.utimesSync(file, new Date('2026-05-01T10:00:00.700Z'), new Date('2026-05-01T10:00:00.700Z'));
    const f = later('memories/a.md');
    const got = openListedLater(file, f);
    expect(Buffer.isBuffer(got) && got.toString()).toBe(MEMORY);
    const st = fs.lstatSync(file);
    expect({ size: f.size, mtimeMs: f.mtimeMs }).toEqual({ size: st.size, mtimeMs: Math.floor(st.mtimeMs) });
  });

  it('a file removed since the readdir is gone; one swapped for a symlink is not followed', () => {
    expect(openListedLater(path.join(root, 'memories', 'gone.md'), later('memories/gone.md'))).toEqual({ gone: true });
    const outside = path.join(tmp, 'outside.md');
    fs.writeFileSync(outside, MEMORY);
    const link = path.join(root, 'memories', 'link.md');
    fs.symlinkSync(outside, link);
    const f = later('memories/link.md');
    expect(openListedLater(link, f)).toEqual({ error: 'file unreadable (ELOOP)' });
    expect(f.size).toBe(fs.lstatSync(link).size); // the link's own, as the listing's lstat gave
  });

  it("a FIFO put in a file's place is refused without waiting for a writer", () => {
    const fifo = path.join(root, 'memories', 'fifo.md');
    execFileSync('mkfifo', [fifo]);
    expect(openListedLater(fifo, later('memories/fifo.md'))).toEqual({
      error: 'file unreadable (not a regular file)',
    });
  });

  it('a file over the cap is not read, and its row names its size', () => {
    const file = path.join(root, 'memories', 'big.md');
    fs.writeFileSync(file, Buffer.alloc(SCAN_READ_CAP + 1, 0x61));
    const f = later('memories/big.md');
    expect(openListedLater(file, f)).toEqual({ error: `file too large (${SCAN_READ_CAP + 1} bytes, limit 1 MiB)` });
    expect(f.size).toBe(SCAN_READ_CAP + 1);
  });
});

describe('a first index', () => {
  it('gives the watcher a listing with the sizes and mtimes of the files, as a listing with lstat does', () => {
    for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(root, 'memories', `m${i}.md`), MEMORY.repeat(i + 1));
    fs.symlinkSync(path.join(root, 'memories', 'm0.md'), path.join(root, 'memories', 'sym.md'));
    const source = describeSource(root) as FileSourceInfo;
    const sqlite = openDb(path.join(tmp, 'index.sqlite')).sqlite;
    const kept = new Map<string, ListedFile[]>();
    const owner = { emails: ['owner@example.com'], names: [], allowNetworks: [] } as never;
    const stats = scanSources(sqlite, [source], owner, new Date('2026-11-22T12:00:00Z'), {
      onListed: (id, listed) => kept.set(id, listed),
    });
    expect(stats.read).toBe(6);
    const byLstat = source.adapter.files.list(root); // a plain listing: every file lstat'ed
    const strip = (l: ListedFile[]) =>
      l
        .map(({ relPath, size, mtimeMs, refused }) => ({ relPath, size, mtimeMs, refused }))
        .sort((a, b) => a.relPath.localeCompare(b.relPath));
    expect(strip(kept.get(source.id)!)).toEqual(strip(byLstat));
    const rows = sqlite
      .prepare('SELECT rel_path AS relPath, size, mtime_ms AS mtimeMs FROM entries ORDER BY rel_path')
      .all();
    expect(rows).toEqual(strip(byLstat).map(({ relPath, size, mtimeMs }) => ({ relPath, size, mtimeMs })));
  });
});
