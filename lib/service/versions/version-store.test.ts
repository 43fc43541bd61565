import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VERSIONS_BY_DEFAULT, VersionStore, versionsEnabled, versionsOn } from './version-store';
import { parseSettings } from '../../core/settings';
import { chunksOf, decodeChunk } from './pack';
import { prune } from './prune';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const v = (rel: string, text: string) => ({
  id: `s:${rel}`,
  rel,
  sha: sha(text),
  size: Buffer.byteLength(text),
  stored: Buffer.from(text),
  redacted: 0,
});

function tmpStore(): { dir: string; store: VersionStore } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-vstore-'));
  dirs.push(dir);
  return { dir, store: new VersionStore(dir) };
}

/** Every chunk of every pack, decompressed: what a reader of the disk would find. */
function packText(store: VersionStore): string {
  return store
    .packNames()
    .flatMap((p) => [...chunksOf(fs.readFileSync(store.packFile(p)))].map((c) => decodeChunk(c.payload)!))
    .map((d) => `${JSON.stringify(d.header)}\n${d.body.toString('utf8')}`)
    .join('\n');
}

describe('the version pack', () => {
  it('keeps stored bytes once per root, reads every chunk back, names the root', () => {
    const { dir, store } = tmpStore();
    store.put('/r', '2026-01-01T00:00:00Z', [v('a.md', 'alpha'), v('b.md', 'beta'), v('b2.md', 'beta')]);
    // Same bytes under another name, in a later chunk: named by sha256, not written again.
    store.put('/r', '2026-01-02T00:00:00Z', [v('c.md', 'alpha')]);
    store.flush();
    expect(store.packNames()).toHaveLength(1);
    expect(packText(store).split('alpha')).toHaveLength(2);
    expect(packText(store).split('beta')).toHaveLength(2);
    const fresh = new VersionStore(dir);
    const lines = fresh.readIndex('/r');
    expect(lines.map((l) => [l.rel, l.at.slice(0, 10)])).toEqual([
      ['a.md', '2026-01-01'],
      ['b.md', '2026-01-01'],
      ['b2.md', '2026-01-01'],
      ['c.md', '2026-01-02'],
    ]);
    expect(lines.map((l) => l.sha)).toEqual([sha('alpha'), sha('beta'), sha('beta'), sha('alpha')]);
    expect(fresh.bytesOf(lines[3]!)!.toString()).toBe('alpha');
    expect(fresh.bytesOf(lines[2]!)!.toString()).toBe('beta');
    expect(fresh.roots()).toEqual(['/r']);
    // A few paths without reading the whole pack; one naming bytes stored under another path still resolves.
    const few = new VersionStore(dir);
    expect(few.linesOf('/r', new Set(['b.md']))).toEqual([lines[1]]);
    expect(few.linesOf('/r', new Set(['c.md']))).toEqual([lines[3]]);
    expect(few.bytesOf(few.linesOf('/r', new Set(['c.md']))[0]!)!.toString()).toBe('alpha');
    expect(fs.statSync(fresh.indexFile('/r')).mode & 0o777).toBe(0o600);
    // The same bytes at the same path again: no new line, no new chunk.
    const size = fs.statSync(fresh.indexFile('/r')).size;
    fresh.put('/r', '2026-01-03T00:00:00Z', [v('c.md', 'alpha')]);
    expect(fs.statSync(fresh.indexFile('/r')).size).toBe(size);
  });

  it('a torn append is skipped; chunks appended after it still read', () => {
    const { dir, store } = tmpStore();
    store.put('/r', '2026-01-01T00:00:00Z', [v('a.md', 'alpha')]);
    const file = store.indexFile('/r');
    const good = fs.statSync(file).size;
    store.put('/r', '2026-01-02T00:00:00Z', [v('b.md', 'beta '.repeat(50))]);
    // A crash mid-append: the second chunk cut short.
    fs.truncateSync(file, good + 20);
    expect(new VersionStore(dir).readIndex('/r').map((l) => l.rel)).toEqual(['a.md']);
    // Another process appends after the torn chunk: read, the torn one still skipped.
    new VersionStore(dir).put('/r', '2026-01-03T00:00:00Z', [v('c.md', 'gamma')]);
    const lines = new VersionStore(dir).readIndex('/r');
    expect(lines.map((l) => l.rel)).toEqual(['a.md', 'c.md']);
    expect(new VersionStore(dir).bytesOf(lines[1]!)!.toString()).toBe('gamma');
    // A flipped byte inside a chunk fails its hash: that chunk is skipped, not misread.
    const raw = fs.readFileSync(file);
    raw[good - 3] = raw[good - 3]! ^ 0xff;
    fs.writeFileSync(file, raw);
    expect(new VersionStore(dir).readIndex('/r').map((l) => l.rel)).toEqual(['c.md']);
  });

  it('retention compacts the pack: expired versions and their bytes go, shared bytes stay', () => {
    const { dir, store } = tmpStore();
    const old = 'old body '.repeat(40);
    store.put('/r', '2026-01-01T00:00:00Z', [v('a.md', old), v('b.md', 'kept as it is')]);
    store.put('/r', '2026-02-01T00:00:00Z', [v('a.md', 'a, rewritten')]);
    store.markGone('/r', '2026-02-01T00:00:00Z', [{ id: 's:b.md', rel: 'b.md' }]);
    store.flush();
    const before = fs.statSync(store.indexFile('/r')).size;
    // 30 days after the rewrite and the deletion: with 10 days kept, a.md's old bytes and b.md go.
    const dropped = prune(new VersionStore(dir), new Date('2026-03-03T00:00:00Z'), 10);
    expect(dropped).toBe(3);
    const after = new VersionStore(dir);
    const lines = after.readIndex('/r');
    expect(lines.map((l) => [l.rel, l.at.slice(0, 10)])).toEqual([['a.md', '2026-02-01']]);
    expect(after.bytesOf(lines[0]!)!.toString()).toBe('a, rewritten');
    expect(fs.statSync(after.indexFile('/r')).size).toBeLessThan(before);
    expect(packText(after)).not.toContain('old body');
    // Nothing more to drop: the pack is left as it is.
    expect(prune(after, new Date('2026-03-03T00:00:00Z'), 10)).toBe(0);
  });

  it('compaction is refused when the pack grew since it was read (an append is never lost)', () => {
    const { dir, store } = tmpStore();
    store.put('/r', '2026-01-01T00:00:00Z', [v('a.md', 'one')]);
    store.put('/r', '2026-02-01T00:00:00Z', [v('a.md', 'two')]);
    const reader = new VersionStore(dir);
    const lines = reader.readIndex('/r');
    new VersionStore(dir).put('/r', '2026-02-02T00:00:00Z', [v('z.md', 'meanwhile')]);
    expect(reader.rewriteIndex('/r', lines.slice(1))).toBe(false);
    expect(
      new VersionStore(dir)
        .readIndex('/r')
        .map((l) => l.rel)
        .sort(),
    ).toEqual(['a.md', 'a.md', 'z.md']);
  });

  it('a version with credential values replaced keeps the file own sha256 and size, and only the stored bytes', () => {
    const { dir, store } = tmpStore();
    const original = 'password: Hunter2-not-real\n';
    const stored = 'password: [removed]\n';
    store.put('/r', '2026-01-01T00:00:00Z', [
      {
        id: 's:p.md',
        rel: 'p.md',
        sha: sha(original),
        size: original.length,
        stored: Buffer.from(stored),
        redacted: 1,
      },
    ]);
    const [line] = new VersionStore(dir).readIndex('/r');
    expect(line).toMatchObject({ sha: sha(original), size: original.length, blob: sha(stored), redacted: 1 });
    expect(new VersionStore(dir).bytesOf(line!)!.toString()).toBe(stored);
    expect(packText(store)).not.toContain('Hunter2');
  });
});

describe('turning versions on and off', () => {
  it('MEMTRUST_VERSIONS wins over the `versions` setting, which wins over the default', () => {
    expect(versionsEnabled({}, undefined)).toBe(VERSIONS_BY_DEFAULT);
    expect(versionsEnabled({}, true)).toBe(true);
    expect(versionsEnabled({}, false)).toBe(false);
    expect(versionsEnabled({ MEMTRUST_VERSIONS: 'off' }, true)).toBe(false);
    expect(versionsEnabled({ MEMTRUST_VERSIONS: 'on' }, false)).toBe(true);
    const { dir } = tmpStore();
    const env = { XDG_CONFIG_HOME: dir };
    fs.mkdirSync(path.join(dir, 'memtrust'));
    fs.writeFileSync(path.join(dir, 'memtrust', 'settings.json'), JSON.stringify({ versions: true }));
    expect(versionsOn(env)).toBe(true);
    fs.writeFileSync(path.join(dir, 'memtrust', 'settings.json'), JSON.stringify({ versions: false }));
    expect(versionsOn(env)).toBe(false);
    expect(parseSettings({ versions: 'yes' })).toEqual({ ok: false, message: '"versions" must be true or false' });
  });
});

describe('the tip beside a pack (a SessionStart keeps a file without reading the pack)', () => {
  /** The same puts through fresh stores, one per session start, with or without the tips. */
  function sessionStarts(tips: boolean): { pack: Buffer; loads: number } {
    const { dir } = tmpStore();
    // Whole-pack reads after the first session start (which has no tip yet).
    let loads = 0;
    const runs: [string, ReturnType<typeof v>[]][] = [
      ['2026-01-01T00:00:00Z', [v('a.md', 'alpha'), v('b.md', 'beta')]],
      ['2026-01-02T00:00:00Z', [v('a.md', 'alpha'), v('b.md', 'beta 2')]], // a.md unchanged: not kept again
      ['2026-01-03T00:00:00Z', [v('c.md', 'alpha')]], // bytes already stored: named, not written
      ['2026-01-04T00:00:00Z', [v('b.md', 'beta 2')]], // nothing new
    ];
    runs.forEach(([at, versions], i) => {
      const store = new VersionStore(dir);
      if (!tips) fs.rmSync(store.tipFile('/r'), { force: true });
      const spy = vi.spyOn(store as unknown as { load(root: string): unknown }, 'load');
      store.put('/r', at, versions, { stored: true });
      if (i > 0) loads += spy.mock.calls.length;
      store.flush();
    });
    const store = new VersionStore(dir);
    return { pack: fs.readFileSync(store.indexFile('/r')), loads };
  }

  it('leaves the pack byte for byte as a store that read it whole', () => {
    const withTips = sessionStarts(true);
    const without = sessionStarts(false);
    expect(withTips.pack.equals(without.pack)).toBe(true);
    expect([...chunksOf(withTips.pack)]).toHaveLength(3);
    expect([withTips.loads, without.loads]).toEqual([0, 3]);
  });

  it('stands only for the pack it was written for: after another append the pack is read', () => {
    const { dir, store } = tmpStore();
    store.put('/r', '2026-01-01T00:00:00Z', [v('a.md', 'alpha')], { stored: true });
    store.flush();
    expect(fs.existsSync(store.tipFile('/r'))).toBe(true);
    // A blind writer (the stamp) appends without updating the tip.
    const stamp = new VersionStore(dir);
    stamp.put('/r', '2026-01-02T00:00:00Z', [v('a.md', 'alpha 2')], { blind: true });
    stamp.flush();
    // The tip still says a.md is "alpha": trusted, it would keep "alpha" again as if unchanged.
    const next = new VersionStore(dir);
    next.put('/r', '2026-01-03T00:00:00Z', [v('a.md', 'alpha 2'), v('b.md', 'alpha')], { stored: true });
    next.flush();
    const lines = new VersionStore(dir).readIndex('/r');
    expect(lines.map((l) => [l.rel, l.sha])).toEqual([
      ['a.md', sha('alpha')],
      ['a.md', sha('alpha 2')],
      ['b.md', sha('alpha')],
    ]);
  });

  it('a stored chunk is a brotli stream any reader decodes, at every block boundary', async () => {
    const { brotliStored } = await import('./pack');
    const zlib = await import('node:zlib');
    for (const n of [0, 1, 65535, 65536, 65537, 200_001]) {
      const raw = crypto.randomBytes(n);
      expect(zlib.brotliDecompressSync(brotliStored(raw)).equals(raw), String(n)).toBe(true);
    }
  });
});
