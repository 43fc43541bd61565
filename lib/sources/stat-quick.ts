/**
 * The size and mtime of a file listed by `listMarkdown`, without the `fs.Stats` object.
 *
 * A session start lists every memory file of its project and `lstat`s each (the scan's
 * freshness rule needs its size and mtime: docs/session-context.md, "Reading the folders
 * fast"). Node 20 makes a Stats object and four `Date` objects per call, most of an `lstat`'s
 * cost there: about 38,000 instructions a file, 46 M of the largest project's session start
 * in the bench home of docs/performance.md ("The hooks"), against 10 M for the same calls
 * through the binding `fs.lstatSync` itself calls. Its answer is the raw stat array
 * (`[dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, atime s, ns, mtime s, ns,
 * …]`), read here at once because Node reuses it for the next call.
 *
 * That binding is Node's own, not a public API: it is used only when it answers the first
 * path exactly as `fs.lstatSync` does (size, mtime, mode), never on Windows (whose paths Node
 * rewrites first) and never where `--pending-deprecation` would print a warning for
 * `process.binding`. Anything else, and any failure, is `fs.lstatSync`.
 */
import fs from 'node:fs';
import { lstatBinding, takeTakenStat } from './lstat-binding';

/** What a listing keeps of a file's stat: its size, and its mtime in whole milliseconds (the index's rule). */
export interface SizeMtime {
  size: number;
  mtimeMs: number;
}

type RawLstat = (p: string) => ArrayLike<number>;

/** text-cache.ts's recorder, reached through its global so the listing does not load that module. */
const RECORDER = Symbol.for('memtrust.session-text.recorder');

/** undefined: not tried yet; null: not usable here. */
let raw: RawLstat | null | undefined;
/** The binding is checked against fs.lstatSync on the first path that exists. */
let checked = false;

function binding(): RawLstat | null {
  const raw = lstatBinding();
  return raw && ((p) => raw(p, true) as ArrayLike<number>);
}

function fromStats(st: fs.Stats): SizeMtime {
  return { size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
}

/** `fs.lstatSync(p)`'s size and floored mtime; throws as it does (a file gone: ENOENT). */
export function lstatSizeMtime(p: string): SizeMtime {
  if (raw === undefined) raw = binding();
  if (raw === null) return fromStats(fs.lstatSync(p));
  let a: ArrayLike<number>;
  try {
    // Taken by the session start's check of its kept text a moment ago, else now.
    a = takeTakenStat(p) ?? raw(p);
  } catch (e) {
    if (checked) throw e;
    // Not yet known to answer as fs does: fs decides, error included.
    return fromStats(fs.lstatSync(p));
  }
  // A kept session text depends on this file's stat (lib/service/session/text-cache.ts).
  const rec = (globalThis as Record<symbol, { raw(p: string, a: ArrayLike<number>): void } | undefined>)[RECORDER];
  if (rec) rec.raw(p, a);
  // Seconds and nanoseconds as fs.Stats makes mtimeMs of them.
  const quick = { size: a[8]!, mtimeMs: Math.floor(a[12]! * 1e3 + a[13]! / 1e6) };
  const mode = a[1];
  if (!checked) {
    const st = fs.lstatSync(p);
    if (st.size !== quick.size || Math.floor(st.mtimeMs) !== quick.mtimeMs || st.mode !== mode) {
      raw = null;
      return fromStats(st);
    }
    checked = true;
  }
  return quick;
}

/** For tests: forget what was found about the binding (`use`: force it off with null, or on with a function). */
export function resetStatQuick(use?: RawLstat | null): void {
  raw = use;
  checked = false;
}
