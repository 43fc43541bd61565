/** readFd against readFileSync on the same open files: whole, cut short, empty, size-0 procfs. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OPEN_READ, readFd } from './read-fd';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-read-fd-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function withFd<T>(file: string, fn: (fd: number) => T): T {
  const fd = fs.openSync(file, OPEN_READ);
  try {
    return fn(fd);
  } finally {
    fs.closeSync(fd);
  }
}

describe('readFd', () => {
  it('reads what readFileSync reads, for sizes around the buffer and chunk lengths', () => {
    for (const size of [1, 100, 8191, 8192, 65536, 65537, 300_000]) {
      const file = path.join(tmp, `f${size}`);
      fs.writeFileSync(file, Buffer.from(Array.from({ length: size }, (_, i) => (i * 7) % 256)));
      const got = withFd(file, (fd) => readFd(fd, fs.fstatSync(fd).size));
      expect(got.equals(fs.readFileSync(file))).toBe(true);
    }
  });

  it('from a position; and fewer bytes when the file was cut short since its size was taken', () => {
    const file = path.join(tmp, 'short');
    fs.writeFileSync(file, 'hello world\n');
    expect(withFd(file, (fd) => readFd(fd, 6, 6)).toString()).toBe('world\n');
    const got = withFd(file, (fd) => {
      const size = fs.fstatSync(fd).size;
      fs.truncateSync(file, 5);
      return readFd(fd, size);
    });
    expect(got.toString()).toBe('hello');
  });

  it('an empty file is empty; a file whose size says 0 is read to its end, as readFileSync does', () => {
    const empty = path.join(tmp, 'empty');
    fs.writeFileSync(empty, '');
    expect(withFd(empty, (fd) => readFd(fd, 0)).length).toBe(0);
    const proc = '/proc/self/status';
    expect(fs.statSync(proc).size).toBe(0);
    const got = withFd(proc, (fd) => readFd(fd, 0)).toString();
    expect(got).toMatch(/^Name:/);
  });
});
