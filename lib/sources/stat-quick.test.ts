/**
 * stat-quick.ts: the size and mtime a listing keeps, the same as `fs.lstatSync` gives, whether
 * Node's binding answers or not; a binding that answers otherwise is not used.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { beginTakenStats, endTakenStats, keepTakenStat, lstatBinding } from './lstat-binding';
import { lstatSizeMtime, resetStatQuick } from './stat-quick';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-stat-'));
  resetStatQuick();
});
afterEach(() => {
  resetStatQuick();
  endTakenStats();
  vi.restoreAllMocks();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const viaFs = (p: string) => {
  const st = fs.lstatSync(p);
  return { size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
};

/** Files of several sizes and mtimes with a fraction of a millisecond (floored, as the index does). */
function files(): string[] {
  return [0, 1, 517, 70_000].map((n, i) => {
    const f = path.join(tmp, `m${i}.md`);
    fs.writeFileSync(f, 'x'.repeat(n));
    const t = new Date(Date.UTC(2026, 10, 1 + i, 12, 0, 0) + 0.75 + i * 1000.4);
    fs.utimesSync(f, t, t);
    return f;
  });
}

describe('lstatSizeMtime', () => {
  it('gives what fs.lstatSync gives, file after file', () => {
    const all = files();
    for (const f of all) expect(lstatSizeMtime(f)).toEqual(viaFs(f));
    // Again once the binding has been checked against fs (the first call).
    fs.appendFileSync(all[2]!, 'more');
    for (const f of all) expect(lstatSizeMtime(f)).toEqual(viaFs(f));
  });

  it('a file that is gone throws as fs does, before and after the first answer', () => {
    const gone = path.join(tmp, 'gone.md');
    expect(() => lstatSizeMtime(gone)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    lstatSizeMtime(files()[0]!);
    expect(() => lstatSizeMtime(gone)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('a binding that answers otherwise than fs is dropped: fs answers', () => {
    const [a, b] = files();
    let calls = 0;
    const wrong = new Float64Array(18);
    wrong[8] = 999; // a size no file here has
    resetStatQuick(() => {
      calls++;
      return wrong;
    });
    expect(lstatSizeMtime(a!)).toEqual(viaFs(a!));
    expect(lstatSizeMtime(b!)).toEqual(viaFs(b!));
    expect(calls).toBe(1); // asked once, then never again
  });

  it('without the binding, fs answers', () => {
    const [a] = files();
    resetStatQuick(null);
    expect(lstatSizeMtime(a!)).toEqual(viaFs(a!));
  });

  it('takes a stat the kept text check took (once, and only while fresh), else lstats now', () => {
    const raw = lstatBinding();
    if (raw === null) return; // no binding here: nothing is ever taken (the listing lstats)
    const [a, b] = files();
    lstatSizeMtime(a!); // the binding checked against fs once
    // The check took a's stat, then a changed: the listing of the run that follows at once
    // answers as the check saw it (the run is about that instant), and only once.
    beginTakenStats([a!, b!]);
    keepTakenStat(0, Array.from(raw(a!, true)!));
    fs.writeFileSync(a!, 'changed after the check');
    expect(lstatSizeMtime(a!)).not.toEqual(viaFs(a!));
    expect(lstatSizeMtime(a!)).toEqual(viaFs(a!));
    // b's stat was not taken: lstat'ed now.
    expect(lstatSizeMtime(b!)).toEqual(viaFs(b!));
    // Taken longer ago than a run lasts: not used.
    beginTakenStats([a!]);
    keepTakenStat(0, Array.from(raw(a!, true)!));
    fs.writeFileSync(a!, 'changed again, to another size');
    const later = Date.now() + 5000;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    expect(lstatSizeMtime(a!)).toEqual(viaFs(a!));
  });
});
