/**
 * Path rules of docs/security.md: which roots are acceptable, and confinement of a
 * file path to its root after resolving symlinks.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Why a configured root is refused, or null when it is acceptable. */
export function checkRootPath(raw: string, home: string): string | null {
  if (raw.includes('\0')) return 'contains a NUL byte';
  if (raw.startsWith('\\\\') || raw.startsWith('//')) return 'UNC/network paths are not allowed';
  if (raw.startsWith('~')) return 'use an absolute path (a leading ~ is not expanded)';
  if (/^[A-Za-z]:[\\/]?$/.test(raw)) return 'a drive root is not allowed';
  if (!path.isAbsolute(raw)) return 'relative paths are not allowed';
  const resolved = path.resolve(raw);
  if (resolved === path.parse(resolved).root) return 'the filesystem root is not allowed';
  // One level below / (e.g. /home, /etc) is too broad to be a memory root.
  if (path.dirname(resolved) === path.parse(resolved).root) return 'a top-level directory is too broad';
  if (resolved === path.resolve(home)) return 'the home directory itself is not allowed';
  return null;
}

export class PathEscapeError extends Error {
  readonly code = 'path-escape';
}

/**
 * Resolves `rel` inside `root` and proves it stays there after realpath.
 * Symlinked files are refused outright: a memory must be a regular file in its root.
 */
export function confine(root: string, rel: string): string {
  if (rel.includes('\0')) throw new PathEscapeError('path contains a NUL byte');
  const realRoot = fs.realpathSync(root);
  const abs = path.resolve(realRoot, rel);
  if (!isInside(realRoot, abs)) throw new PathEscapeError(`path escapes its root: ${rel}`);
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(abs);
  } catch {
    return abs; // does not exist yet: the parent check below still applies
  }
  if (st.isSymbolicLink()) throw new PathEscapeError(`symlinked memory files are refused: ${rel}`);
  const realParent = fs.realpathSync(path.dirname(abs));
  if (!isInside(realRoot, realParent)) throw new PathEscapeError(`path escapes its root via a symlink: ${rel}`);
  return abs;
}

export function isInside(root: string, p: string): boolean {
  const r = path.relative(root, p);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}
