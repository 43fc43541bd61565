/** Reading an open file whole, without a second stat (the caller has the size from its fstat). */
import fs from 'node:fs';

/**
 * Up to `length` bytes of the open file `fd` from `position` on: fewer when the file ends
 * first (cut short since its size was taken). Only bytes read are returned, never the rest
 * of the unzeroed buffer. A length of 0 reads to the end, as readFileSync does for a file
 * whose size says nothing (procfs and the like report 0).
 */
export function readFd(fd: number, length: number, position = 0): Buffer {
  if (length === 0) return readToEnd(fd, position);
  const buf = Buffer.allocUnsafeSlow(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

function readToEnd(fd: number, position: number): Buffer {
  const parts: Buffer[] = [];
  for (;;) {
    const part = Buffer.allocUnsafeSlow(64 * 1024);
    const n = fs.readSync(fd, part, 0, part.length, position);
    if (n === 0) return Buffer.concat(parts);
    parts.push(part.subarray(0, n));
    position += n;
  }
}

/**
 * Flags to open a file named by a listing or a user for reading: never blocks (a FIFO put
 * where a file was would wait for a writer forever; on a regular file the flag does nothing).
 */
export const OPEN_READ = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;
