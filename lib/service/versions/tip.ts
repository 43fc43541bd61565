/**
 * A pack's tip, `<root key>.tip` beside it (docs/versions.md, "The tip"): what a writer that
 * only appends needs of the pack — each path's last sha and every stored sha — so that a
 * SessionStart keeping one changed file neither decompresses the pack nor reads or writes a
 * record of every path.
 *
 * One ASCII file: a snapshot, then deltas appended after it.
 *
 *   {"v":2,"size":S,"ino":I,"ctime":C}     the pack the snapshot stands for
 *   c\t<sha, or - when seen gone>\t<path as JSON>   one per path
 *   b\t<stored sha>                        one per stored sha
 *   d\t{"from":[S,I,C],"to":[S,I,C],"cur":{…},"blobs":[…]}   one per writer that appended since
 *
 * A delta is written only by a writer whose chunks were the only appends from `from` to `to`
 * (the pack's size, inode and ctime before its first append and after its fsync), so it says
 * exactly what those chunks changed. A reader starts from the snapshot's pack and applies, in
 * order, each delta that starts where the chain stands; the chain must end exactly at the
 * pack as it is now, else the tip stands for nothing and the pack is read (any other append,
 * a compaction — a new file —, a lost, torn or foreign line all leave the chain short of it).
 * A line is written with one `write` in append mode after a newline, so two writers' lines
 * never mix and a line torn by a crash only spoils itself. Past TIP_DELTAS_MAX deltas, or
 * when a writer read the pack whole anyway, the tip is rewritten whole (temp name, rename).
 *
 * Read lazily: a session start asks about a path or two, so the snapshot is searched for
 * them (`\t<path as JSON>\n` and `\nb\t<sha>\n` occur nowhere else: JSON has no raw tab or
 * newline) rather than turned into a Map and a Set of ~1,000 entries each. Paths are written
 * with every non-ASCII character escaped, so the file is read as latin1, byte for character.
 * A tip of the first format (one JSON object, `"v":1`) is read whole and rewritten.
 */
import fs from 'node:fs';
import { replaceFile } from '../replace-file';

/** The pack a tip stands for: its size, inode and ctime. */
export type PackStat = [size: number, ino: number, ctime: number];

/** Deltas after which the next writer rewrites the tip whole. */
export const TIP_DELTAS_MAX = 32;
/** A put asking about more paths than this reads the whole snapshot into maps first. */
const LAZY_MAX = 32;

const FILE_MODE = 0o600;

export interface Tip {
  /** The pack's size as this store expects it (its own appends counted; -1: another writer appended). */
  size: number;
  /** The pack as the tip stood for it when read: this store's delta starts there. */
  base: PackStat;
  /** Delta lines in the file (torn or foreign ones too): past TIP_DELTAS_MAX it is rewritten whole. */
  lines: number;
  /** Read from the first format: rewritten whole. */
  old: boolean;
  /** The snapshot, searched for the paths asked; null once read into `cur` and `blobs`. */
  text: string | null;
  /** What the deltas and this store say on top of `text` (everything when `text` is null). */
  cur: Map<string, string | null>;
  blobs: Set<string>;
  /** What this store appended: its delta. */
  own: { cur: Map<string, string | null>; blobs: Set<string> };
}

export const statOf = (st: fs.Stats): PackStat => [st.size, st.ino, st.ctimeMs];
const same = (a: unknown, b: PackStat) =>
  Array.isArray(a) && a.length === 3 && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
const isStat = (a: unknown): a is PackStat =>
  Array.isArray(a) && a.length === 3 && a.every((n) => typeof n === 'number' && Number.isFinite(n));

/** A path as JSON with every non-ASCII character escaped: the file stays ASCII. */
export function asciiJson(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The tip in `file` when it stands for the pack as it is now (`pack`); null otherwise. */
export function readTip(file: string, pack: fs.Stats): Tip | null {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return null;
  }
  const now = statOf(pack);
  const own = { cur: new Map<string, string | null>(), blobs: new Set<string>() };
  try {
    if (buf.subarray(0, 7).toString('latin1') === '{"v":1,') {
      const t = JSON.parse(buf.toString('utf8')) as {
        size: number;
        ino: number;
        ctime: number;
        cur: Record<string, string | null>;
        blobs: string[];
      };
      if (!same([t.size, t.ino, t.ctime], now)) return null;
      const cur = new Map(Object.entries(t.cur));
      return { size: t.size, base: now, lines: 0, old: true, text: null, cur, blobs: new Set(t.blobs), own };
    }
    const text = buf.toString('latin1');
    const nl = text.indexOf('\n');
    const h = JSON.parse(nl < 0 ? text : text.slice(0, nl)) as { v: number; size: number; ino: number; ctime: number };
    if (h.v !== 2) return null;
    let at: PackStat = [h.size, h.ino, h.ctime];
    const cur = new Map<string, string | null>();
    const blobs = new Set<string>();
    let lines = 0;
    const first = text.indexOf('\nd\t');
    if (first >= 0) {
      for (const line of text.slice(first + 1).split('\n')) {
        if (line === '') continue;
        lines++;
        let d: { from: unknown; to: unknown; cur: Record<string, string | null>; blobs: string[] };
        try {
          if (!line.startsWith('d\t')) continue;
          d = JSON.parse(line.slice(2));
        } catch {
          continue; // torn by a crash: it continues no chain
        }
        if (!same(d.from, at) || !isStat(d.to) || !d.cur || !Array.isArray(d.blobs)) continue;
        for (const [rel, sha] of Object.entries(d.cur)) cur.set(rel, sha);
        for (const b of d.blobs) blobs.add(b);
        at = d.to;
      }
    }
    if (!same(at, now)) return null;
    return {
      size: now[0],
      base: now,
      lines,
      old: false,
      text: first >= 0 ? text.slice(0, first + 1) : text,
      cur,
      blobs,
      own,
    };
  } catch {
    return null;
  }
}

/** The last sha the tip has for `rel` (null: seen gone; undefined: never seen). */
export function tipCur(t: Tip, rel: string): string | null | undefined {
  if (t.cur.has(rel)) return t.cur.get(rel);
  if (t.text === null) return undefined;
  const i = t.text.indexOf(`\t${asciiJson(rel)}\n`);
  if (i < 0) return undefined;
  const sha = t.text.slice(t.text.lastIndexOf('\n', i) + 3, i);
  return sha === '-' ? null : sha;
}

export function tipHasBlob(t: Tip, blob: string): boolean {
  return t.blobs.has(blob) || t.text?.includes(`\nb\t${blob}\n`) === true;
}

/** Before asking about many paths (or rewriting it whole): the snapshot read into maps. */
export function tipForMany(t: Tip, asked: number): void {
  if (t.text === null || asked <= LAZY_MAX) return;
  materialize(t);
}

function materialize(t: Tip): void {
  if (t.text === null) return;
  const cur = new Map<string, string | null>();
  const blobs = new Set<string>();
  const lines = t.text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.startsWith('c\t')) {
      const tab = l.indexOf('\t', 2);
      const sha = l.slice(2, tab);
      cur.set(JSON.parse(l.slice(tab + 1)) as string, sha === '-' ? null : sha);
    } else if (l.startsWith('b\t')) blobs.add(l.slice(2));
  }
  for (const [rel, sha] of t.cur) cur.set(rel, sha);
  for (const b of t.blobs) blobs.add(b);
  t.cur = cur;
  t.blobs = blobs;
  t.text = null;
}

/** Records what this store appended (the tip's view and its delta). */
export function tipAdd(t: Tip, rel: string, sha: string | null, blob?: string): void {
  t.cur.set(rel, sha);
  t.own.cur.set(rel, sha);
  if (blob !== undefined) {
    t.blobs.add(blob);
    t.own.blobs.add(blob);
  }
}

/**
 * After this store's appends (fsynced) to a pack that is now `pack`: its delta appended to the
 * tip, or the tip rewritten whole when it has grown past the bound or is of the first format.
 */
export function writeTipAfter(file: string, t: Tip, pack: fs.Stats): void {
  if (t.old || t.lines + 1 > TIP_DELTAS_MAX) {
    materialize(t);
    writeTipWhole(file, pack, t.cur, t.blobs);
    Object.assign(t, { base: statOf(pack), lines: 0, old: false });
    t.own.cur.clear();
    t.own.blobs.clear();
    return;
  }
  const d = `\nd\t{"from":${JSON.stringify(t.base)},"to":${JSON.stringify(statOf(pack))},"cur":{${[...t.own.cur]
    .map(([rel, sha]) => `${asciiJson(rel)}:${sha === null ? 'null' : `"${sha}"`}`)
    .join(',')}},"blobs":${JSON.stringify([...t.own.blobs])}}\n`;
  const fd = fs.openSync(file, 'a', FILE_MODE);
  try {
    // One write: appends of two writers never interleave within a line.
    fs.writeSync(fd, d, null, 'latin1');
  } finally {
    fs.closeSync(fd);
  }
  // The same store appending again (another put, another flush): its next delta starts here.
  t.base = statOf(pack);
  t.lines++;
  t.own.cur.clear();
  t.own.blobs.clear();
}

/** The whole tip for the pack as it is now (`pack`): written to a temp name and renamed. */
export function writeTipWhole(
  file: string,
  pack: fs.Stats,
  cur: ReadonlyMap<string, string | null>,
  blobs: Iterable<string>,
): void {
  const [size, ino, ctime] = statOf(pack);
  const parts = [JSON.stringify({ v: 2, size, ino, ctime }), '\n'];
  for (const [rel, sha] of cur) parts.push(`c\t${sha ?? '-'}\t${asciiJson(rel)}\n`);
  for (const b of blobs) parts.push(`b\t${b}\n`);
  replaceFile(file, parts.join(''), { encoding: 'latin1', mode: FILE_MODE });
}
