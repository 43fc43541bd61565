/**
 * Where the two install tests put their copies (docs/install.md, "Tests"): a plugin copy with
 * its node_modules (~650 MB) and a package prefix (~500 MB). On a RAM-backed /dev/shm the
 * writes and the removal afterwards take seconds; on this machine's disk, removing one of
 * them alone took 60–80 s. What npm does is the same on either file system.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Room the two tests need together, with margin. */
const NEEDED = 2 * 1024 ** 3;

export function installTempDir(prefix: string): string {
  const shm = '/dev/shm';
  try {
    fs.accessSync(shm, fs.constants.W_OK);
    const st = fs.statfsSync(shm);
    if (st.bavail * st.bsize > NEEDED) return fs.mkdtempSync(path.join(shm, prefix));
  } catch {
    // no RAM disk here: the ordinary temp folder
  }
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
