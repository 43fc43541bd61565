/**
 * Reading files named on the command line, with one-line errors instead of
 * exceptions. Memory stays bounded: nothing above READ_LIMIT is loaded.
 */
import fs from 'node:fs';
import { OPEN_READ, readFd } from '../core/read-fd';

/** Above the validators' 1 MiB cap a file is only reported; this bounds what we load to say so. */
export const READ_LIMIT = 64 * 1024 * 1024;

export type ReadResult = { ok: true; bytes: Buffer } | { ok: false; message: string };

export function readInputFile(file: string): ReadResult {
  // One open + fstat + read: the size cap is checked on the open descriptor, no separate stat.
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_READ);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      ok: false,
      message:
        code === 'ENOENT'
          ? 'file not found'
          : code === 'EISDIR'
            ? 'file unreadable: is a directory'
            : `file unreadable (${code ?? 'error'})`,
    };
  }
  try {
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) return { ok: false, message: 'file unreadable: is a directory' };
    if (!st.isFile()) return { ok: false, message: 'file unreadable: not a regular file' };
    if (st.size > READ_LIMIT) return { ok: false, message: `file too large (${st.size} bytes, limit 1 MiB)` };
    return { ok: true, bytes: readFd(fd, st.size) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      ok: false,
      message: code === 'EISDIR' ? 'file unreadable: is a directory' : `file unreadable (${code ?? 'error'})`,
    };
  } finally {
    fs.closeSync(fd);
  }
}
