/**
 * The durable file operations the write path is made of
 * (docs/crash-safety.md): write to a temp file, fsync, link without clobbering,
 * fsync the directories, move a file out of the way before replacing it.
 * `link` fails with EEXIST instead of replacing, which is what "never overwrite"
 * needs and `rename` cannot promise.
 *
 * Every call goes through `fsx`, so each one is a fault point (crash.ts): the
 * fault-injection suite kills the write, or saves a file as an editor would,
 * after any of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeFs, fsPoint, isKill } from './crash';

/** Descriptors opened through fsx and not yet closed: a simulated kill closes them (as the kernel would). */
const openFds = new Set<number>();

function label(p: fs.PathLike): string {
  const s = String(p);
  return `${path.basename(path.dirname(s))}/${path.basename(s)}`;
}

function point(what: string): void {
  try {
    fsPoint(what);
  } catch (e) {
    if (isKill(e)) {
      for (const fd of openFds) {
        try {
          fs.closeSync(fd);
        } catch {
          // already closed
        }
      }
      openFds.clear();
    }
    throw e;
  }
}

/**
 * Runs one file-system call of the write path; it is a fault point once it returned
 * or failed (a failed call — ENOENT, EEXIST — is a step of the protocol too).
 */
function call<T>(what: string, fn: () => T): T {
  beforeFs(what);
  try {
    return fn();
  } finally {
    point(what);
  }
}

/** The file-system calls of the write path. */
export const fsx = {
  openSync(p: string, flags: string, mode?: number): number {
    return call(`open(${flags}) ${label(p)}`, () => {
      const fd = fs.openSync(p, flags, mode);
      openFds.add(fd);
      return fd;
    });
  },
  writeSync(fd: number, buf: Buffer, off: number, len: number): number {
    return call('write', () => fs.writeSync(fd, buf, off, len));
  },
  fsyncSync(fd: number): void {
    call('fsync', () => fs.fsyncSync(fd));
  },
  closeSync(fd: number): void {
    call('close', () => {
      openFds.delete(fd);
      fs.closeSync(fd);
    });
  },
  readFileSync(p: string): Buffer {
    return call(`read ${label(p)}`, () => fs.readFileSync(p));
  },
  statSync(p: string): fs.Stats {
    return call(`stat ${label(p)}`, () => fs.lstatSync(p));
  },
  renameSync(from: string, to: string): void {
    call(`rename ${label(from)} -> ${label(to)}`, () => fs.renameSync(from, to));
  },
  linkSync(from: string, to: string): void {
    call(`link ${label(from)} -> ${label(to)}`, () => fs.linkSync(from, to));
  },
  unlinkSync(p: string): void {
    call(`unlink ${label(p)}`, () => fs.unlinkSync(p));
  },
  mkdirSync(p: string): void {
    call(`mkdir ${label(p)}`, () => fs.mkdirSync(p, { recursive: true }));
  },
};

export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fsx.openSync(dir, 'r');
    fsx.fsyncSync(fd);
  } catch (e) {
    // Some filesystems refuse fsync on directories; the rename is still atomic there.
    if (isKill(e)) throw e;
  } finally {
    if (fd !== undefined) fsx.closeSync(fd);
  }
}

export function writeFileDurable(file: string, bytes: Buffer): void {
  writeAllDurable(file, bytes, 'wx');
}

/** Appends bytes and fsyncs them (the audit trail and its notes). */
export function appendDurable(file: string, bytes: Buffer): void {
  writeAllDurable(file, bytes, 'a');
}

/** Opens with `flag`, writes every byte, fsyncs, closes: one sequence of fs calls for both. */
function writeAllDurable(file: string, bytes: Buffer, flag: 'wx' | 'a'): void {
  const fd = fsx.openSync(file, flag, 0o644);
  try {
    let off = 0;
    while (off < bytes.length) off += fsx.writeSync(fd, bytes, off, bytes.length - off);
    fsx.fsyncSync(fd);
  } finally {
    fsx.closeSync(fd);
  }
}

/** Link `from` to `to`; false when `to` already exists (never replaced). */
export function linkNoClobber(from: string, to: string): boolean {
  try {
    fsx.linkSync(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** Rename `from` to `to` (a private name nobody else uses); false when `from` is not there. */
export function renameIfExists(from: string, to: string): boolean {
  try {
    fsx.renameSync(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

export function unlinkIfExists(file: string): void {
  try {
    fsx.unlinkSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

export function readIfExists(file: string): Buffer | null {
  try {
    return fsx.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

export function statIfExists(file: string): fs.Stats | null {
  try {
    return fsx.statSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

export function mkdirp(dir: string): void {
  fsx.mkdirSync(dir);
}

/** Same file (hard links of one inode)? */
export function sameFile(a: fs.Stats | null, b: fs.Stats | null): boolean {
  return !!a && !!b && a.ino === b.ino && a.dev === b.dev;
}

/**
 * Replaces a file only memtrust writes (the index stash and layout under .memtrust)
 * atomically: temp + fsync + rename. Files others edit use `editSharedFile`.
 */
export function replaceFileAtomic(file: string, bytes: Buffer, tag: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${tag}.tmp`);
  unlinkIfExists(tmp);
  writeFileDurable(tmp, bytes);
  fsx.renameSync(tmp, file);
  fsyncDir(path.dirname(file));
}

const sharedTmp = (file: string, tag: string) => path.join(path.dirname(file), `.${path.basename(file)}.${tag}.tmp`);
const sharedAside = (file: string, tag: string) =>
  path.join(path.dirname(file), `.${path.basename(file)}.${tag}.aside.tmp`);

export class SharedFileBusyError extends Error {
  readonly code = 'conflict';
}

/**
 * Puts a shared file back in order after an interrupted `editSharedFile` with this
 * tag: the copy moved aside returns unless a newer file took its place (a full save
 * supersedes it); the temp file goes. Idempotent.
 */
export function settleSharedFile(file: string, tag: string): void {
  const aside = sharedAside(file, tag);
  if (statIfExists(aside)) {
    linkNoClobber(aside, file);
    unlinkIfExists(aside);
  }
  unlinkIfExists(sharedTmp(file, tag));
}

/**
 * Edits a file that people and other programs also edit (MEMORY.md) without ever
 * losing their save (docs/crash-safety.md, "Shared files"): read, compute the new
 * bytes, write them to a temp file, move the file out of the way atomically, and
 * only if the moved bytes are still the ones read link the new copy in (never
 * clobbering a file an editor created meanwhile). Otherwise everything is put back
 * and the edit is computed again from the newer bytes. `compute` returns null for
 * "nothing to change" and must be idempotent.
 */
export function editSharedFile(
  file: string,
  tag: string,
  compute: (current: Buffer | null) => Buffer | null,
  tries = 8,
): void {
  const dir = path.dirname(file);
  const tmp = sharedTmp(file, tag);
  const aside = sharedAside(file, tag);
  settleSharedFile(file, tag);
  for (let i = 0; i < tries; i++) {
    const current = readIfExists(file);
    const next = compute(current);
    if (next === null || (current !== null && next.equals(current))) return;
    writeFileDurable(tmp, next);
    if (current === null) {
      const linked = linkNoClobber(tmp, file);
      unlinkIfExists(tmp);
      if (linked) {
        fsyncDir(dir);
        return;
      }
      continue; // created meanwhile: compute again from its bytes
    }
    if (!renameIfExists(file, aside)) {
      unlinkIfExists(tmp);
      continue; // removed meanwhile
    }
    const held = fsx.readFileSync(aside);
    if (!held.equals(current) || !linkNoClobber(tmp, file)) {
      // Saved meanwhile (into the file we read, or as a new file): put back, start over.
      settleSharedFile(file, tag);
      continue;
    }
    fsyncDir(dir);
    unlinkIfExists(aside);
    unlinkIfExists(tmp);
    fsyncDir(dir);
    return;
  }
  throw new SharedFileBusyError(`${file} kept changing while memtrust edited it: try again`);
}

/**
 * Removes the files of `dir` whose name matches `pattern` (the writer's pid in group 1)
 * when `gone(pid, file)` says their writer is gone: temp files of a write killed
 * between writing and linking (docs/crash-safety.md). A missing folder is nothing to sweep.
 */
export function sweepDeadWriters(
  dir: string,
  pattern: RegExp,
  gone: (pid: number, file: string) => boolean,
  remove: (file: string) => void = (f) => fs.rmSync(f, { force: true }),
): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const m = pattern.exec(n);
    if (m && gone(Number(m[1]), path.join(dir, n))) remove(path.join(dir, n));
  }
}
