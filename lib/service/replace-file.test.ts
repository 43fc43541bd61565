import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { replaceFile, sweepStaleTemps } from './replace-file';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-replace-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('replaceFile', () => {
  it('replaces the bytes whole and leaves no temp file', () => {
    const f = path.join(dir, 'a.json');
    fs.writeFileSync(f, 'old and longer');
    replaceFile(f, 'new', { mode: 0o600 });
    expect(fs.readFileSync(f, 'utf8')).toBe('new');
    replaceFile(f, Buffer.from([0xff, 0x00, 0x41]), { durable: true });
    expect([...fs.readFileSync(f)]).toEqual([0xff, 0x00, 0x41]);
    replaceFile(f, '\u00e9', { encoding: 'latin1' });
    expect([...fs.readFileSync(f)]).toEqual([0xe9]);
    expect(fs.readdirSync(dir)).toEqual(['a.json']);
  });

  it('sets the mode exactly, even over a temp file a killed process left with another', () => {
    if (process.platform === 'win32') return;
    const f = path.join(dir, 'b.json');
    const stale = `${f}.${process.pid}.tmp`;
    fs.writeFileSync(stale, 'left behind', { mode: 0o644 });
    fs.chmodSync(stale, 0o644);
    replaceFile(f, 'x', { mode: 0o600 });
    expect(fs.statSync(f).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(f, 'utf8')).toBe('x');
    expect(fs.existsSync(stale)).toBe(false);
  });

  it('without a mode, a new file is created as writeFileSync creates one (0o666 less the umask)', () => {
    if (process.platform === 'win32') return;
    const f = path.join(dir, 'c.json');
    const plain = path.join(dir, 'plain.json');
    fs.writeFileSync(plain, 'x');
    replaceFile(f, 'x');
    expect(fs.statSync(f).mode & 0o777).toBe(fs.statSync(plain).mode & 0o777);
  });

  it('a failed rename throws and removes the temp file; the old file stays', () => {
    const f = path.join(dir, 'd');
    fs.mkdirSync(f);
    fs.writeFileSync(path.join(f, 'inside'), 'keep');
    expect(() => replaceFile(f, 'x', { mode: 0o600 })).toThrow();
    expect(fs.readFileSync(path.join(f, 'inside'), 'utf8')).toBe('keep');
    expect(fs.readdirSync(dir)).toEqual(['d']);
  });
});

describe('sweepStaleTemps', () => {
  it('removes the temp files of processes that no longer run, and only those', () => {
    // A pid that ran and ended: its temp file can never be renamed.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    try {
      const names = [
        `a.json.${gone}.tmp`, // killed between write and rename
        `b.json.${live.pid}.tmp`, // being written now
        `c.json.${process.pid}.tmp`, // this process's own
        'notes.tmp', // no pid: not replaceFile's
        'd.json',
      ];
      for (const n of names) fs.writeFileSync(path.join(dir, n), 'x');
      expect(sweepStaleTemps(dir)).toBe(1);
      expect(fs.readdirSync(dir).sort()).toEqual(names.slice(1).sort());
      expect(sweepStaleTemps(dir)).toBe(0);
    } finally {
      live.kill();
    }
  });

  it('is no error on a folder that is not there', () => {
    expect(sweepStaleTemps(path.join(dir, 'missing'))).toBe(0);
  });
});
