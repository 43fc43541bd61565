/**
 * The binding `fs.lstatSync` itself calls, without the `fs.Stats` object and its four `Date`s
 * (about 38,000 instructions a call on Node 20: docs/performance.md, "The hooks"). Its answer is
 * the raw stat array (`[dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, atime s, ns,
 * mtime s, ns, ctime s, ns, …]`), which Node reuses for the next call: read it at once.
 *
 * Node's own, not a public API: null on Windows (whose paths Node rewrites first), where
 * `--pending-deprecation` would print a warning for `process.binding`, and wherever it is not
 * there. Callers check its first answer against `fs.lstatSync` (stat-quick.ts) or only compare
 * its answers with its own earlier ones (lib/service/session/text-cache.ts).
 */

/** `(path, throwIfNoEntry)`: with false, undefined for a path that is not there. */
export type RawLstat = (p: string, throwIfNoEntry: boolean) => ArrayLike<number> | undefined;

export function lstatBinding(): RawLstat | null {
  if (process.platform === 'win32') return null;
  const pending = (a: string) => a.includes('--pending-deprecation');
  if (process.execArgv.some(pending) || pending(process.env.NODE_OPTIONS ?? '')) return null;
  try {
    const b = (process as unknown as { binding(name: string): { lstat?: unknown } }).binding('fs');
    const lstat = b.lstat;
    if (typeof lstat !== 'function') return null;
    // (path, bigint, no request: synchronous, throwIfNoEntry): how fs.lstatSync calls it.
    return (p, throwIfNoEntry) => lstat.call(b, p, false, undefined, throwIfNoEntry) as ArrayLike<number> | undefined;
  } catch {
    return null;
  }
}
