/**
 * The tip beside a pack as a snapshot plus appended deltas (tip.ts; docs/versions.md, "The
 * tip"): a chain that does not end exactly at the pack as it is now stands for nothing, so a
 * deleted, altered, torn or foreign line, another process's append or a compaction makes the
 * writer read the pack — never keep a version against a wrong tip.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Tip, TIP_DELTAS_MAX, tipCur, tipForMany } from './tip';
import { VersionStore } from './version-store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmpDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-tip-'));
  dirs.push(d);
  return d;
};

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const v = (rel: string, text: string) => ({
  id: `s:${path.posix.basename(rel)}`,
  rel,
  sha: sha(text),
  size: Buffer.byteLength(text),
  stored: Buffer.from(text),
  redacted: 0,
});

type Private = { readTip(root: string): Tip | null; load(root: string): unknown };
const priv = (s: VersionStore) => s as unknown as Private;

/** One session start: a fresh store keeps `files`; whether it read the whole pack. */
function session(dir: string, at: number, files: ReturnType<typeof v>[]): { loaded: boolean } {
  const store = new VersionStore(dir);
  const spy = vi.spyOn(priv(store), 'load');
  store.put('/r', new Date(Date.UTC(2026, 0, 1, 0, 0, at)).toISOString().replace('.000', ''), files, {
    stored: true,
  });
  store.flush();
  return { loaded: spy.mock.calls.length > 0 };
}

/** What the tip says now (every path and stored sha), or null when it stands for nothing. */
function tipView(dir: string): { cur: Map<string, string | null>; blobs: Set<string> } | null {
  const t = priv(new VersionStore(dir)).readTip('/r');
  if (!t) return null;
  tipForMany(t, Number.MAX_SAFE_INTEGER);
  return { cur: t.cur, blobs: t.blobs };
}

/** The same read from the whole pack. */
function fullView(dir: string): { cur: Map<string, string | null>; blobs: Set<string> } {
  const store = new VersionStore(dir);
  const lines = store.readIndex('/r');
  return {
    cur: new Map(store.currentOf('/r')),
    blobs: new Set(lines.filter((l) => l.off !== undefined).map((l) => l.blob!)),
  };
}

const tipText = (dir: string) => fs.readFileSync(new VersionStore(dir).tipFile('/r'), 'latin1');
const deltaLines = (dir: string) =>
  tipText(dir)
    .split('\n')
    .filter((l) => l.startsWith('d\t'));
const rels = ['a.md', 'b.md', 'notes/é ü 日本.md', 'tab\there "q".md', 'c.md'];

/** Session starts changing a file or two each (one of them many files at once), deterministic. */
function rounds(n: number): ReturnType<typeof v>[][] {
  return Array.from({ length: n }, (_, i) => {
    if (i === 7) return Array.from({ length: 40 }, (_, k) => v(`many/${k}.md`, `many ${k}`));
    const rel = rels[i % rels.length]!;
    // Every third round repeats bytes stored before (named, not written) or the file's own (nothing new).
    const text = i % 3 === 2 ? `${rels[(i + 1) % rels.length]} ${Math.floor(i / 6)}` : `${rel} ${Math.floor(i / 2)}`;
    return [v(rel, text), v('b.md', `b ${Math.floor(i / 4)}`)];
  });
}

describe('the tip: a snapshot and a chain of deltas', () => {
  it('many session starts: none reads the pack, the pack is byte for byte a whole reader’s, the tip is rewritten past its bound', () => {
    const withTip = tmpDir();
    const without = tmpDir();
    const plan = rounds(TIP_DELTAS_MAX + 12);
    let maxDeltas = 0;
    let rewritten = false;
    plan.forEach((files, i) => {
      const a = session(withTip, i, files);
      if (i > 0) expect(a.loaded, `round ${i}`).toBe(false);
      fs.rmSync(new VersionStore(without).tipFile('/r'), { force: true });
      session(without, i, files);
      const n = deltaLines(withTip).length;
      if (n < maxDeltas) rewritten = true;
      maxDeltas = Math.max(maxDeltas, n);
      // At every step the tip says what the whole pack says.
      expect(tipView(withTip)).toEqual(fullView(withTip));
    });
    const pack = (d: string) => fs.readFileSync(new VersionStore(d).indexFile('/r'));
    expect(pack(withTip).equals(pack(without))).toBe(true);
    expect(maxDeltas).toBe(TIP_DELTAS_MAX);
    expect(rewritten).toBe(true);
    expect(tipText(withTip).startsWith('{"v":2,')).toBe(true);
  });

  it('a chain broken anywhere (a line lost or altered) stands for nothing: the pack is read, no version kept twice', () => {
    const base = tmpDir();
    session(base, 0, [v('a.md', 'alpha'), v('b.md', 'beta')]);
    session(base, 1, [v('a.md', 'alpha 2')]);
    session(base, 2, [v('c.md', 'gamma')]);
    session(base, 3, [v('b.md', 'beta 2')]);
    expect(deltaLines(base)).toHaveLength(3);
    const file = new VersionStore(base).tipFile('/r');
    const text = tipText(base);
    const deltas = deltaLines(base);
    const breaks: [string, (lines: string[]) => string[]][] = [];
    for (let k = 0; k < 3; k++) {
      breaks.push([`delta ${k} lost`, (ls) => ls.filter((l) => l !== deltas[k])]);
      for (const field of ['from', 'to'] as const)
        breaks.push([
          `delta ${k}'s ${field} altered`,
          (ls) =>
            ls.map((l) => {
              if (l !== deltas[k]) return l;
              const d = JSON.parse(l.slice(2));
              d[field][2] += 1; // the ctime alone
              return `d\t${JSON.stringify(d)}`;
            }),
        ]);
    }
    // In place (a copy of the pack is another inode, which no tip stands for): nothing new is kept, so the pack stays as it is.
    const dir = base;
    for (const [what, broken] of breaks) {
      fs.writeFileSync(file, broken(text.split('\n')).join('\n'), 'latin1');
      expect(tipView(dir), what).toBeNull();
      // Trusted, a lost or shifted first delta would say a.md is still "alpha" and keep "alpha 2" again.
      expect(session(dir, 4, [v('a.md', 'alpha 2'), v('c.md', 'gamma'), v('b.md', 'beta 2')]).loaded, what).toBe(true);
      expect(new VersionStore(dir).readIndex('/r'), what).toHaveLength(5);
      expect(tipView(dir), what).toEqual(fullView(dir)); // rewritten whole by the whole read
    }
    fs.writeFileSync(file, text, 'latin1');
    expect(tipView(dir)).toEqual(fullView(dir)); // the chain as written stands
  });

  it('another writer’s append (the stamp, blind) or a compaction of the pack: the tip stands for nothing', () => {
    const dir = tmpDir();
    session(dir, 0, [v('a.md', 'alpha'), v('b.md', 'beta')]);
    session(dir, 1, [v('a.md', 'alpha 2')]);
    const stamp = new VersionStore(dir);
    stamp.put('/r', '2026-01-01T00:00:02Z', [v('a.md', 'alpha 3')], { blind: true });
    stamp.flush();
    expect(tipView(dir)).toBeNull();
    expect(session(dir, 3, [v('a.md', 'alpha 3')]).loaded).toBe(true);
    expect(new VersionStore(dir).readIndex('/r')).toHaveLength(4);
    expect(tipView(dir)).toEqual(fullView(dir));
    // Compaction writes a new file: whatever the tip says, it is not this pack's.
    const store = new VersionStore(dir);
    expect(store.rewriteIndex('/r', store.readIndex('/r').slice(1))).toBe(true);
    expect(tipView(dir)).toBeNull();
    expect(session(dir, 4, [v('b.md', 'beta')]).loaded).toBe(true);
    expect(tipView(dir)).toEqual(fullView(dir));
  });

  it('a torn last line (a crash while writing it) stands for nothing; a torn fragment does not spoil the lines after it', () => {
    const dir = tmpDir();
    session(dir, 0, [v('a.md', 'alpha')]);
    session(dir, 1, [v('a.md', 'alpha 2')]);
    const file = new VersionStore(dir).tipFile('/r');
    const whole = fs.readFileSync(file, 'latin1');
    // The crash cut the delta of the last session start (its chunk is in the pack): the chain ends short.
    fs.writeFileSync(file, whole.slice(0, whole.length - 20), 'latin1');
    expect(tipView(dir)).toBeNull();
    expect(session(dir, 2, [v('a.md', 'alpha 2')]).loaded).toBe(true);
    expect(new VersionStore(dir).readIndex('/r')).toHaveLength(2);
    // A fragment with no pack append behind it (its writer appended nothing): the chain still ends at the pack.
    fs.appendFileSync(file, '\nd\t{"from":[1,2,', 'latin1');
    expect(tipView(dir)).toEqual(fullView(dir));
    // The next writer's line starts on a line of its own and is read.
    expect(session(dir, 3, [v('b.md', 'beta')]).loaded).toBe(false);
    expect(tipView(dir)).toEqual(fullView(dir));
    expect(session(dir, 4, [v('b.md', 'beta')]).loaded).toBe(false);
    expect(new VersionStore(dir).readIndex('/r')).toHaveLength(3);
  });

  it('two writers that read the same tip: neither writes a delta the other’s append breaks', () => {
    const dir = tmpDir();
    session(dir, 0, [v('a.md', 'alpha'), v('b.md', 'beta')]);
    const one = new VersionStore(dir);
    const two = new VersionStore(dir);
    // Both read the tip (nothing new to keep yet), then each appends.
    for (const s of [one, two]) s.put('/r', '2026-01-01T00:00:01Z', [v('a.md', 'alpha')], { stored: true });
    expect(deltaLines(dir)).toHaveLength(0);
    one.put('/r', '2026-01-01T00:00:01Z', [v('a.md', 'alpha 2')], { stored: true });
    two.put('/r', '2026-01-01T00:00:02Z', [v('b.md', 'beta 2')], { stored: true });
    one.flush();
    two.flush();
    // Each one's delta would leave out the other's chunk.
    expect(tipView(dir)).toBeNull();
    expect(session(dir, 3, [v('a.md', 'alpha 2'), v('b.md', 'beta 2')]).loaded).toBe(true);
    expect(new VersionStore(dir).readIndex('/r')).toHaveLength(4);
  });

  it('writers in processes of their own at once: the tip, when it stands, says what the pack says', async () => {
    const dir = tmpDir();
    session(dir, 0, [v('shared-0.md', 'start')]);
    const writer = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tip-writer.ts');
    const run = (who: string) =>
      new Promise<number>((resolve) => {
        const p = spawn(process.execPath, ['--import', 'tsx', writer, dir, who, '16'], { stdio: 'inherit' });
        p.on('exit', (code) => resolve(code ?? -1));
      });
    expect(await Promise.all(['w1', 'w2', 'w3'].map(run))).toEqual([0, 0, 0]);
    const full = fullView(dir);
    const tip = tipView(dir);
    if (tip) expect(tip).toEqual(full);
    // Every line of the tip file is whole: no two writers' lines mixed.
    for (const l of tipText(dir).split('\n').slice(1))
      if (l.startsWith('d\t')) expect(() => JSON.parse(l.slice(2))).not.toThrow();
    // Whatever the race left, the next session start keeps nothing twice and leaves a tip that stands.
    const before = new VersionStore(dir).readIndex('/r').length;
    session(
      dir,
      40,
      [...full.cur].map(([rel]) => v(rel, `${rel} final`)),
    );
    expect(new VersionStore(dir).readIndex('/r').length).toBe(before + full.cur.size);
    expect(tipView(dir)).toEqual(fullView(dir));
  }, 60_000);

  it('one store keeping twice, a flush after each: each delta starts where the last ended, and the tip stands', () => {
    const dir = tmpDir();
    session(dir, 0, [v('a.md', 'alpha')]);
    const store = new VersionStore(dir);
    store.put('/r', '2026-01-01T00:00:01Z', [v('a.md', 'alpha 2')], { stored: true });
    store.flush();
    store.put('/r', '2026-01-01T00:00:02Z', [v('b.md', 'beta')], { stored: true });
    store.flush();
    expect(deltaLines(dir)).toHaveLength(2);
    expect(tipView(dir)).toEqual(fullView(dir));
    expect(session(dir, 3, [v('a.md', 'alpha 2'), v('b.md', 'beta')]).loaded).toBe(false);
  });

  it('a tip of the first format (one JSON object) is used, then rewritten in this one', () => {
    const dir = tmpDir();
    session(dir, 0, [v('a.md', 'alpha'), v('notes/é.md', 'beta')]);
    const full = fullView(dir);
    const store = new VersionStore(dir);
    const st = fs.statSync(store.indexFile('/r'));
    const v1 = {
      v: 1,
      size: st.size,
      ino: st.ino,
      ctime: st.ctimeMs,
      cur: Object.fromEntries(full.cur),
      blobs: [...full.blobs],
    };
    fs.writeFileSync(store.tipFile('/r'), JSON.stringify(v1));
    const without = tmpDir();
    fs.cpSync(dir, without, { recursive: true });
    fs.rmSync(new VersionStore(without).tipFile('/r'));
    expect(tipView(dir)).toEqual(full);
    const next = [v('a.md', 'alpha'), v('notes/é.md', 'beta 2'), v('c.md', 'alpha')];
    expect(session(dir, 1, next).loaded).toBe(false);
    expect(session(without, 1, next).loaded).toBe(true);
    // The same chunk as a whole reader's: a.md not kept again, c.md's bytes named (the old tip's stored shas).
    const pack = (d: string) => fs.readFileSync(new VersionStore(d).indexFile('/r'));
    expect(pack(dir).equals(pack(without))).toBe(true);
    expect(new VersionStore(dir).readIndex('/r').map((l) => l.rel)).toEqual([
      'a.md',
      'notes/é.md',
      'notes/é.md',
      'c.md',
    ]);
    expect(tipText(dir).startsWith('{"v":2,')).toBe(true);
    expect(deltaLines(dir)).toHaveLength(0);
    expect(tipView(dir)).toEqual(fullView(dir));
    // The same file under the old format with a stale size stands for nothing.
    fs.writeFileSync(store.tipFile('/r'), JSON.stringify({ ...v1, size: v1.size + 1 }));
    expect(tipView(dir)).toBeNull();
  });

  it('a path asked of the snapshot is found exactly, whatever it holds', () => {
    const dir = tmpDir();
    const odd = ['a.md', 'x\ta.md', 'notes/a.md', '"a.md', 'é/日本\u2028.md'];
    session(
      dir,
      0,
      odd.map((rel) => v(rel, `${rel} 1`)),
    );
    session(dir, 1, [v('c.md', 'c')]); // a whole read wrote the snapshot; this a delta
    const t = priv(new VersionStore(dir)).readTip('/r')!;
    expect(t.text).not.toBeNull();
    for (const rel of odd) expect(tipCur(t, rel), rel).toBe(sha(`${rel} 1`));
    expect(tipCur(t, 'c.md')).toBe(sha('c'));
    expect(tipCur(t, 'b.md')).toBeUndefined();
    expect(tipCur(t, 'a')).toBeUndefined();
  });
});
