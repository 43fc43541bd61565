/**
 * A file memtrust alone writes, replaced whole: written to a temp name beside it, then renamed
 * over it, so a reader sees the old bytes or the new ones, never a part. The one place for this
 * rule: the hooks' caches (the version store's tip, the kept checks, the kept session texts, the
 * origin cache, the pre-write note) and Claude Code's settings file the hook installer merges.
 * A failure removes the temp file and throws. Files others edit go through
 * lib/service/write/fs-atomic.ts instead.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ReplaceOptions {
  /** Set exactly, whatever the umask or a temp file a killed process left (0o600: the data folder's files). Default: created 0o666 less the umask. */
  mode?: number;
  encoding?: BufferEncoding;
  /** fsync before the rename: for what cannot be worked out again. The caches can, so they skip it. */
  durable?: boolean;
}

export function replaceFile(file: string, data: string | Buffer, opts: ReplaceOptions = {}): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'w', opts.mode ?? 0o666);
    try {
      // open's mode applies only to a file it creates: a temp file left by a killed process keeps its own.
      if (opts.mode !== undefined) fs.fchmodSync(fd, opts.mode);
      fs.writeFileSync(fd, data, typeof data === 'string' ? { encoding: opts.encoding ?? 'utf8' } : undefined);
      if (opts.durable) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // nothing left to do
    }
    throw e;
  }
}

/** replaceFile's temp name: `<file>.<pid>.tmp`. */
const TEMP_NAME = /\.(\d+)\.tmp$/;

/**
 * Removes from `dir` the temp files replaceFile left when its process was killed between the
 * write and the rename: `<file>.<pid>.tmp` of a process that no longer runs (one that runs may be
 * writing it now). Called where a cache folder is written whole anyway (a kept session text, a kept
 * checks snapshot), never on a path that must be fast; never an error. Returns how many it removed.
 */
export function sweepStaleTemps(dir: string): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || running(pid)) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
      removed++;
    } catch {
      // the next sweep tries again
    }
  }
  return removed;
}

/** Signal 0 tests a pid without touching it: EPERM means it runs under another user. */
function running(pid: number): boolean {
  if (pid <= 0) return true; // not a process of its own: leave the file alone
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
