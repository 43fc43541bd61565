/**
 * The version store (docs/versions.md): every version of a memory file memtrust has read,
 * kept in the data directory beside the index database, never in a root.
 *
 *   versions/packs/<root key>.mtv  one append-only pack per root (pack.ts): chunks of versions
 *                                  compressed together, each with its paths and time
 *
 * A stored version is addressed by the sha256 of its stored bytes (credential values
 * replaced, redact.ts) and kept once per root: a version whose stored bytes are already in
 * the pack is an entry naming that sha256. The sha256 → place index is built in memory when
 * a pack is read (pack.ts: no hash is written for an inline version). Files are mode 0600,
 * folders 0700; each writer fsyncs its packs once (`flush`), not once per chunk.
 */
import crypto from 'node:crypto';
import { sha256Hex } from '../../core/hash';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Env } from '../../core/env';
import { readSettings } from '../../core/settings';
import {
  type ChunkEntry,
  type DecodedChunk,
  CHUNK_HEAD,
  chunksOf,
  decodeChunk,
  encodeChunk,
  lastChunkOf,
} from './pack';
import { type Tip, readTip, tipAdd, tipCur, tipForMany, tipHasBlob, writeTipAfter, writeTipWhole } from './tip';

export interface VersionLine {
  v: 1;
  /** The memory id (`<source>:<filename>`). */
  id: string;
  root: string;
  /** Path relative to the root. */
  rel: string;
  /** When memtrust first saw these bytes there (ISO 8601 UTC). */
  at: string;
  /** sha256 of the file's own bytes; null on a `gone` line. */
  sha: string | null;
  size: number;
  /** sha256 of the stored bytes; the pack holding them (absent when they cannot be read), the chunk and where in it. */
  blob?: string;
  pack?: string;
  chunk?: number;
  off?: number;
  len?: number;
  /** Credential values replaced in the stored bytes. */
  redacted?: number;
  /** The file was seen gone at `at`. */
  gone?: true;
  /** The folder's index file (MEMORY.md), not a memory: memory views skip it (docs/versions.md, "Recover"). */
  index?: true;
}

/** One version to keep. */
export interface NewVersion {
  id: string;
  rel: string;
  /** sha256 of the file's own bytes (the scan's; not hashed again here). */
  sha: string;
  size: number;
  /** The bytes to store: the file's, or with credential values replaced (`redacted` > 0). */
  stored: Buffer;
  redacted: number;
  /** The folder's index file (MEMORY.md), not a memory. */
  index?: true;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const PACK_EXT = '.mtv';
/** Decompressed chunks kept in memory for `bytesOf`, by total size. */
const DECODED_CACHE_BYTES = 64 * 2 ** 20;

/** Whether versions are kept when neither MEMTRUST_VERSIONS nor the `versions` setting says (docs/versions.md, "Cost"). */
export const VERSIONS_BY_DEFAULT = true;

/** MEMTRUST_VERSIONS (`on`/`off`) wins over the user setting `versions`, which wins over the default. */
export function versionsEnabled(env: Env = process.env, setting?: boolean): boolean {
  if (env.MEMTRUST_VERSIONS === 'off') return false;
  if (env.MEMTRUST_VERSIONS === 'on') return true;
  return setting ?? VERSIONS_BY_DEFAULT;
}

/** versionsEnabled with the user setting read (a broken settings file: the default; it is reported elsewhere). */
export function versionsOn(env: Env = process.env): boolean {
  let setting: boolean | undefined;
  try {
    setting = readSettings(env).versions;
  } catch {
    setting = undefined;
  }
  return versionsEnabled(env, setting);
}

/** The store beside an index database file (`<data dir>/versions` by default); null for an in-memory database. */
export function versionsDirFor(sqlite: Database.Database): string | null {
  const name = sqlite.name;
  if (!name || name === ':memory:' || !path.isAbsolute(name)) return null;
  return versionsDirBeside(name);
}

/** The store beside an index database path (the hooks know the path, not a handle). */
export function versionsDirBeside(dbPath: string): string {
  return path.join(path.dirname(dbPath), 'versions');
}

export function rootKey(root: string): string {
  const abs = path.resolve(root);
  let key = rootKeys.get(abs);
  if (key === undefined) {
    // In JavaScript (lib/core/hash.ts): the SessionStart hook keeping a changed file loads no node:crypto.
    key = sha256Hex(abs).slice(0, 24);
    rootKeys.set(abs, key);
  }
  return key;
}

/**
 * Each root's key, worked out once per process: a hook keeping a changed file asked for it five
 * times (pack, tip, each read and written), and the JavaScript sha256 hashing that much more in
 * a cold process is made hot enough for V8 to optimise it, some 20 ms of compiling on another
 * thread (docs/performance.md, "The hooks").
 */
const rootKeys = new Map<string, string>();

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

interface Place {
  pack: string;
  chunk: number;
  off: number;
  len: number;
}

/** What the store knows of one root: its lines, each file's last state, where each stored sha256 is. */
interface RootState {
  lines: VersionLine[];
  current: Map<string, string | null>;
  where: Map<string, Place>;
  /** The pack's size when read: compaction refuses to replace a pack that grew meanwhile. */
  size: number;
}

export class VersionStore {
  private readonly state = new Map<string, RootState>();
  private readonly decoded = new Map<string, DecodedChunk>();
  private decodedBytes = 0;
  private readonly dirty = new Set<string>();
  /** A pack was begun since the last flush. */
  private created = false;
  /** Roots known from their tips (put without reading the pack; tip.ts). */
  private readonly tips = new Map<string, Tip>();
  /** Roots whose tip is written at flush (read in full, or appended to). */
  private readonly tipDue = new Set<string>();

  constructor(readonly dir: string) {}

  tipFile(root: string): string {
    return path.join(this.dir, 'packs', `${rootKey(root)}.tip`);
  }

  /** The root's tip when it stands for its pack as it is now; null otherwise. */
  private readTip(root: string): Tip | null {
    try {
      return readTip(this.tipFile(root), fs.statSync(this.indexFile(root)));
    } catch {
      return null;
    }
  }

  /**
   * Writes the tips due, only for a pack still as this store left it (no other append since):
   * whole after a whole read, else this store's delta (tip.ts).
   */
  private writeTips(): void {
    for (const root of this.tipDue) {
      const full = this.state.get(root);
      const tip = this.tips.get(root);
      const size = full ? full.size : tip ? tip.size : -1;
      if (size < 0) continue;
      const file = this.tipFile(root);
      try {
        const st = fs.statSync(this.indexFile(root));
        if (st.size !== size) continue;
        if (full) writeTipWhole(file, st, full.current, full.where.keys());
        else writeTipAfter(file, tip!, st);
      } catch {
        // No tip: the next writer reads the pack.
      }
    }
    this.tipDue.clear();
  }

  packFile(pack: string): string {
    return path.join(this.dir, 'packs', `${pack}${PACK_EXT}`);
  }

  /** The file holding a root's versions (its pack: the pack is its own index). */
  indexFile(root: string): string {
    return this.packFile(rootKey(root));
  }

  packNames(): string[] {
    try {
      return fs
        .readdirSync(path.join(this.dir, 'packs'))
        .filter((n) => n.endsWith(PACK_EXT))
        .map((n) => n.slice(0, -PACK_EXT.length));
    } catch {
      return [];
    }
  }

  /** Roots with a pack here, as their chunks name them. */
  roots(): string[] {
    const out: string[] = [];
    for (const pack of this.packNames()) {
      let buf: Buffer;
      try {
        buf = fs.readFileSync(this.packFile(pack));
      } catch {
        continue;
      }
      for (const c of chunksOf(buf)) {
        const d = decodeChunk(c.payload);
        if (d) {
          out.push(d.header.root);
          break;
        }
      }
    }
    return out;
  }

  /** Every line of a root, oldest first; damaged chunks are skipped. */
  readIndex(root: string): VersionLine[] {
    return [...this.load(root).lines];
  }

  /** Each file's last known state in `root`: its sha, or null when seen gone; empty for a root never seen. */
  currentOf(root: string): ReadonlyMap<string, string | null> {
    return this.load(root).current;
  }

  private load(root: string): RootState {
    const had = this.state.get(root);
    if (had) return had;
    const st = this.parse(root, null).st;
    this.state.set(root, st);
    this.tipDue.add(root);
    return st;
  }

  /**
   * The lines of `rels` in `root`, oldest first: every chunk is decompressed, but only those
   * paths' bytes are hashed (a rescan's outside changes name a few files of a large pack).
   */
  linesOf(root: string, rels: ReadonlySet<string>): VersionLine[] {
    const had = this.state.get(root);
    if (!had) {
      const { st, unresolved } = this.parse(root, rels);
      if (!unresolved) return st.lines;
    }
    return this.load(root).lines.filter((l) => rels.has(l.rel));
  }

  /** Reads a root's pack; with `only`, the lines of those paths alone (`unresolved`: one names bytes not hashed). */
  private parse(root: string, only: ReadonlySet<string> | null): { st: RootState; unresolved: boolean } {
    const pack = rootKey(root);
    const st: RootState = { lines: [], current: new Map(), where: new Map(), size: 0 };
    let unresolved = false;
    let buf: Buffer;
    try {
      buf = fs.readFileSync(this.packFile(pack));
    } catch {
      return { st, unresolved };
    }
    st.size = buf.length;
    for (const { start, payload } of chunksOf(buf)) {
      const d = decodeChunk(payload);
      if (!d) continue;
      if (!only) this.remember(`${pack}@${start}`, d);
      const { header, body } = d;
      let off = 0;
      for (const e of header.e) {
        const wanted = !only || only.has(e.r);
        const id = e.i ?? `${header.s}${path.posix.basename(e.r)}`;
        if (e.g) {
          if (!wanted) continue;
          st.lines.push({ v: 1, id, root: header.root, rel: e.r, at: header.at, sha: null, size: 0, gone: true });
          st.current.set(e.r, null);
          continue;
        }
        let blob: string;
        let place: Place | undefined;
        if (e.n !== undefined) {
          const at = off;
          off += e.n;
          if (!wanted) continue;
          blob = sha256(body.subarray(at, at + e.n));
          place = { pack, chunk: start, off: at, len: e.n };
          if (!st.where.has(blob)) st.where.set(blob, place);
        } else {
          if (!wanted) continue;
          blob = e.d ?? '';
          place = st.where.get(blob);
          if (!place && only) unresolved = true;
        }
        const sha = e.h ?? blob;
        const line: VersionLine = {
          v: 1,
          id,
          root: header.root,
          rel: e.r,
          at: header.at,
          sha,
          size: e.z ?? place?.len ?? 0,
          blob,
          ...place,
        };
        if (e.x) line.redacted = e.x;
        if (e.k) line.index = true;
        st.lines.push(line);
        st.current.set(e.r, sha);
      }
    }
    return { st, unresolved };
  }

  private remember(key: string, d: DecodedChunk): void {
    if (this.decoded.has(key)) return;
    if (this.decodedBytes + d.body.length > DECODED_CACHE_BYTES) {
      this.decoded.clear();
      this.decodedBytes = 0;
    }
    this.decoded.set(key, d);
    this.decodedBytes += d.body.length;
  }

  /** Appends one chunk to a root's pack in one write; returns where it starts. */
  private append(root: string, bytes: Buffer): { pack: string; start: number } {
    const st = this.state.get(root);
    const pack = rootKey(root);
    const file = this.packFile(pack);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: DIR_MODE });
    const fd = fs.openSync(file, 'a', FILE_MODE);
    try {
      let done = 0;
      while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done);
      const start = fs.fstatSync(fd).size - bytes.length;
      this.dirty.add(file);
      // A pack this append began: its name in the folder must be made durable too (flush).
      if (start === 0) this.created = true;
      // Another process appended since this store read the pack: its lines are not known here,
      // so compaction through this store is refused (-1 matches no size).
      if (st) st.size = st.size === start ? start + bytes.length : -1;
      const tip = this.tips.get(root);
      if (tip) tip.size = tip.size === start ? start + bytes.length : -1;
      this.tipDue.add(root);
      return { pack, start };
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Keeps `all` (versions of files of `root`, seen at `at`) as one chunk. A version the root's
   * last line already has for that path is not kept twice; stored bytes already in the pack
   * are named, not written again. `blind` (the hooks): only the pack's last chunk is read, so
   * a write costs about the same however large the pack; a path is compared with that chunk
   * alone and only bytes repeated within `all` are shared.
   */
  put(root: string, at: string, all: NewVersion[], opts: { blind?: boolean; stored?: boolean } = {}): void {
    if (all.length === 0) return;
    const known = this.state.get(root);
    // Not blind: the pack's tip when it stands for the pack, else the whole pack.
    const tip = known || opts.blind ? null : (this.tips.get(root) ?? this.readTip(root));
    if (tip) this.tips.set(root, tip);
    const st = known ?? (opts.blind || tip ? null : this.load(root));
    const last = st || tip ? null : this.lastShas(root);
    if (tip) tipForMany(tip, all.length);
    const lastOf = (rel: string) => (st ? st.current.get(rel) : tip ? tipCur(tip, rel) : last!.get(rel));
    const versions = all.filter((v) => lastOf(v.rel) !== v.sha);
    if (versions.length === 0) return;
    const s = versions[0]!.id.slice(0, versions[0]!.id.indexOf(':') + 1);
    const entries: ChunkEntry[] = [];
    const body: Buffer[] = [];
    const fresh = new Map<string, { off: number; len: number }>();
    const blobs: string[] = [];
    let off = 0;
    for (const v of versions) {
      const blob = v.redacted > 0 ? sha256(v.stored) : v.sha;
      blobs.push(blob);
      const e: ChunkEntry = { r: v.rel };
      if (v.id !== `${s}${path.posix.basename(v.rel)}`) e.i = v.id;
      if (st?.where.has(blob) || (tip && tipHasBlob(tip, blob)) || fresh.has(blob)) e.d = blob;
      else {
        e.n = v.stored.length;
        fresh.set(blob, { off, len: v.stored.length });
        body.push(v.stored);
        off += v.stored.length;
      }
      if (v.redacted > 0) Object.assign(e, { z: v.size, h: v.sha, x: v.redacted });
      if (v.index) e.k = 1;
      entries.push(e);
    }
    const { pack, start } = this.append(
      root,
      encodeChunk({ v: 2, root, s, at, e: entries }, body, { stored: opts.stored }),
    );
    // Only bytes this chunk stored are new to the tip; a named sha was in it already.
    if (tip)
      versions.forEach((v, i) => {
        tipAdd(tip, v.rel, v.sha, fresh.has(blobs[i]!) ? blobs[i] : undefined);
      });
    if (!st) return;
    for (const [blob, p] of fresh) if (!st.where.has(blob)) st.where.set(blob, { pack, chunk: start, ...p });
    versions.forEach((v, i) => {
      const place = st.where.get(blobs[i]!);
      const line: VersionLine = {
        v: 1,
        id: v.id,
        root,
        rel: v.rel,
        at,
        sha: v.sha,
        size: v.size,
        blob: blobs[i]!,
        ...place,
      };
      if (v.redacted > 0) line.redacted = v.redacted;
      if (v.index) line.index = true;
      st.lines.push(line);
      st.current.set(v.rel, v.sha);
    });
  }

  /** Each path's sha in the pack's last chunk only (a blind writer's check: the same hook run twice keeps one). */
  private lastShas(root: string): Map<string, string | null> {
    const out = new Map<string, string | null>();
    let buf: Buffer;
    try {
      buf = fs.readFileSync(this.indexFile(root));
    } catch {
      return out;
    }
    const d = lastChunkOf(buf);
    if (!d) return out;
    let off = 0;
    for (const e of d.header.e) {
      if (e.g) out.set(e.r, null);
      else if (e.n !== undefined) {
        out.set(e.r, e.h ?? sha256(d.body.subarray(off, off + e.n)));
        off += e.n;
      } else out.set(e.r, e.h ?? e.d ?? null);
    }
    return out;
  }

  /** Records files of `root` seen gone at `at`. */
  markGone(root: string, at: string, gone: { id: string; rel: string }[]): void {
    if (gone.length === 0) return;
    // Not read first: a deletion needs nothing from the pack (the state, when read, is kept up to date).
    const st = this.state.get(root);
    const s = gone[0]!.id.slice(0, gone[0]!.id.indexOf(':') + 1);
    const entries: ChunkEntry[] = gone.map((g) =>
      g.id === `${s}${path.posix.basename(g.rel)}` ? { r: g.rel, g: 1 } : { r: g.rel, i: g.id, g: 1 },
    );
    this.append(root, encodeChunk({ v: 2, root, s, at, e: entries }, []));
    const tip = this.tips.get(root);
    if (tip) for (const g of gone) tipAdd(tip, g.rel, null);
    if (!st) return;
    for (const g of gone) {
      st.lines.push({ v: 1, id: g.id, root, rel: g.rel, at, sha: null, size: 0, gone: true });
      st.current.set(g.rel, null);
    }
  }

  /** Makes every chunk appended through this store durable: one fsync per pack written. */
  flush(): void {
    for (const file of this.dirty) {
      const fd = fs.openSync(file, 'r');
      try {
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    }
    // Only a new name needs the folder's fsync: appending to a pack changes no entry of the folder.
    if (this.created) syncDir(path.join(this.dir, 'packs'));
    this.created = false;
    this.dirty.clear();
    this.writeTips();
  }

  /** The stored bytes of a version line (credential values replaced), or null when its pack is missing or damaged. */
  bytesOf(line: VersionLine): Buffer | null {
    if (!line.pack || line.chunk === undefined || line.off === undefined || line.len === undefined) return null;
    const key = `${line.pack}@${line.chunk}`;
    let d = this.decoded.get(key);
    if (!d) {
      const got = readChunkAt(this.packFile(line.pack), line.chunk);
      if (!got) return null;
      d = got;
      this.remember(key, d);
    }
    const bytes = d.body.subarray(line.off, line.off + line.len);
    if (bytes.length !== line.len) return null;
    if (line.blob && sha256(bytes) !== line.blob) return null;
    return Buffer.from(bytes);
  }

  /**
   * Rewrites a root's pack with only `keep` (retention, prune.ts): each run of lines seen at
   * the same time is a chunk again, stored bytes once. Written to a temp name, fsynced and
   * renamed; false (nothing changed) when the pack grew since it was read, so an append made
   * meanwhile is never lost.
   */
  rewriteIndex(root: string, keep: VersionLine[]): boolean {
    const st = this.load(root);
    const file = this.indexFile(root);
    const parts: Buffer[] = [];
    const written = new Set<string>();
    let group: VersionLine[] = [];
    const close = () => {
      if (group.length === 0) return;
      const s = group[0]!.id.slice(0, group[0]!.id.indexOf(':') + 1);
      const entries: ChunkEntry[] = [];
      const body: Buffer[] = [];
      for (const l of group) {
        const e: ChunkEntry = { r: l.rel };
        if (l.id !== `${s}${path.posix.basename(l.rel)}`) e.i = l.id;
        if (l.gone) e.g = 1;
        else {
          const bytes = l.blob && !written.has(l.blob) ? this.bytesOf(l) : null;
          if (bytes) {
            e.n = bytes.length;
            body.push(bytes);
            written.add(l.blob!);
          } else e.d = l.blob ?? '';
          if (l.redacted) Object.assign(e, { z: l.size, h: l.sha, x: l.redacted });
        }
        if (l.index) e.k = 1;
        entries.push(e);
      }
      parts.push(encodeChunk({ v: 2, root, s, at: group[0]!.at, e: entries }, body));
      group = [];
    };
    for (const l of keep) {
      if (group.length > 0 && group[0]!.at !== l.at) close();
      group.push(l);
    }
    close();
    let size = 0;
    try {
      size = fs.statSync(file).size;
    } catch {
      // no pack: nothing to compact
    }
    if (size !== st.size) return false;
    const tmp = `${file}.${process.pid}.tmp`;
    const fd = fs.openSync(tmp, 'w', FILE_MODE);
    try {
      fs.writeSync(fd, Buffer.concat(parts));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
    syncDir(path.dirname(file));
    this.state.delete(root);
    this.tips.delete(root);
    this.tipDue.delete(root);
    for (const k of [...this.decoded.keys()]) if (k.startsWith(`${rootKey(root)}@`)) this.decoded.delete(k);
    return true;
  }
}

/** One chunk of a pack, read from where it starts; null when it is not there whole. */
function readChunkAt(file: string, start: number): DecodedChunk | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(CHUNK_HEAD);
    if (fs.readSync(fd, head, 0, CHUNK_HEAD, start) !== CHUNK_HEAD) return null;
    const len = head.readUInt32LE(4);
    const whole = Buffer.alloc(CHUNK_HEAD + len);
    if (fs.readSync(fd, whole, 0, whole.length, start) !== whole.length) return null;
    for (const c of chunksOf(whole)) return c.start === 0 ? decodeChunk(c.payload) : null;
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // a folder that cannot be opened for fsync (some file systems): the rename stands
  }
}
