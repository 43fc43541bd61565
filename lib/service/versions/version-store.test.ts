import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VersionStore } from './version-store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const v = (rel: string, text: string) => ({
  id: `s:${rel}`,
  rel,
  sha: `sha-of-${text}`,
  size: text.length,
  stored: Buffer.from(text),
  redacted: 0,
});

describe('the version store on disk', () => {
  it('dedups stored bytes across batches, reads every batch back, and survives a torn last append', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-vstore-'));
    dirs.push(dir);
    const store = new VersionStore(dir);
    store.put('/r', '2026-01-01T00:00:00Z', [v('a.md', 'alpha'), v('b.md', 'beta')]);
    // Same bytes under another name: no new pack.
    store.put('/r', '2026-01-02T00:00:00Z', [v('c.md', 'alpha')]);
    expect(store.packNames()).toHaveLength(1);
    const fresh = new VersionStore(dir);
    const lines = fresh.readIndex('/r');
    expect(lines.map((l) => l.rel)).toEqual(['a.md', 'b.md', 'c.md']);
    expect(fresh.bytesOf(lines[2]!)!.toString()).toBe('alpha');
    expect(fresh.roots()).toEqual(['/r']);
    // A crash mid-append: the members before it still read.
    store.put('/r', '2026-01-03T00:00:00Z', [v('d.md', 'delta')]);
    const file = store.indexFile('/r');
    fs.truncateSync(file, fs.statSync(file).size - 10);
    expect(
      new VersionStore(dir)
        .readIndex('/r')
        .map((l) => l.rel)
        .slice(0, 3),
    ).toEqual(['a.md', 'b.md', 'c.md']);
  });
});
