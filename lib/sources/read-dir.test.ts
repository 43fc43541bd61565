/** read-dir.ts: inside `withSharedReads` a folder is read once; outside, every read sees the disk. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEntries, withSharedReads } from './read-dir';

let dir = '';
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const names = () =>
  readEntries(dir)
    .map((e) => e.name)
    .sort();

describe('shared folder reads', () => {
  it('reads a folder once inside the scope, and anew outside it', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-read-dir-'));
    fs.writeFileSync(path.join(dir, 'a.md'), 'a');
    withSharedReads(() => {
      expect(names()).toEqual(['a.md']);
      fs.writeFileSync(path.join(dir, 'b.md'), 'b');
      expect(names()).toEqual(['a.md']); // the first read's entries
      expect(withSharedReads(names)).toEqual(['a.md']); // a nested scope shares the outer one
    });
    expect(names()).toEqual(['a.md', 'b.md']);
  });

  it('a folder that cannot be read fails as readdir does, and is tried again', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-read-dir-'));
    const sub = path.join(dir, 'later');
    withSharedReads(() => {
      expect(() => readEntries(sub)).toThrow(/ENOENT/);
      fs.mkdirSync(sub);
      expect(readEntries(sub)).toEqual([]);
    });
  });
});
