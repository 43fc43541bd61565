/**
 * Reading files named on the command line, with one-line errors instead of
 * exceptions. Memory stays bounded: nothing above READ_LIMIT is loaded.
 */
import fs from 'node:fs';

/** Above the validators' 1 MiB cap a file is only reported; this bounds what we load to say so. */
export const READ_LIMIT = 64 * 1024 * 1024;

export type ReadResult = { ok: true; bytes: Buffer } | { ok: false; message: string };

export function readInputFile(file: string): ReadResult {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, message: code === 'ENOENT' ? 'file not found' : `file unreadable (${code ?? 'error'})` };
  }
  if (st.isDirectory()) return { ok: false, message: 'file unreadable: is a directory' };
  if (!st.isFile()) return { ok: false, message: 'file unreadable: not a regular file' };
  if (st.size > READ_LIMIT) return { ok: false, message: `file too large (${st.size} bytes, limit 1 MiB)` };
  try {
    return { ok: true, bytes: fs.readFileSync(file) };
  } catch (e) {
    return { ok: false, message: `file unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}
