/**
 * The durable file operations a transition is made of (CONTRACT §6): write to a
 * temp file in the destination directory, fsync, link without clobbering, fsync
 * the directories, unlink. `link` fails with EEXIST instead of replacing, which
 * is what "never overwrite" needs and `rename` cannot promise.
 */
import fs from 'node:fs';
import path from 'node:path';

export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic there.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export function writeFileDurable(file: string, bytes: Buffer): void {
  const fd = fs.openSync(file, 'wx', 0o644);
  try {
    let off = 0;
    while (off < bytes.length) off += fs.writeSync(fd, bytes, off, bytes.length - off);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Link `from` to `to`; false when `to` already exists (never replaced). */
export function linkNoClobber(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

export function unlinkIfExists(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

export function readIfExists(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Replaces a small file atomically (temp + fsync + rename); used for MEMORY.md. */
export function replaceFileAtomic(file: string, bytes: Buffer, tag: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${tag}.tmp`);
  unlinkIfExists(tmp);
  writeFileDurable(tmp, bytes);
  fs.renameSync(tmp, file);
  fsyncDir(path.dirname(file));
}
