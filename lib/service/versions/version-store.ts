/**
 * The version store (docs/versions.md): every version of a memory file memtrust has read,
 * kept in the data directory beside the index database, never in a root.
 *
 *   versions/packs/<sha256>.br     brotli of several stored versions laid end to end
 *   versions/index/<root key>.jsonl.gz one line per version seen (or file seen gone), per root:
 *                                   gzip members appended one per scan batch (a version's
 *                                   metadata would otherwise outweigh its compressed bytes)
 *
 * A stored version is addressed by the sha256 of its stored bytes (credential values
 * replaced, redact.ts) and kept once: a version whose stored bytes are already in a pack is
 * a new index line pointing at the same place. Versions are compressed together, a scan
 * batch to a pack, so the small files of a root share one compression window. Files are
 * mode 0600, folders 0700; nothing is fsynced: a version copy is a safety net, not the truth.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type Database from 'better-sqlite3';

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
  /** sha256 of the stored bytes, the pack holding them and where. */
  blob?: string;
  pack?: string;
  off?: number;
  len?: number;
  /** Credential values replaced in the stored bytes. */
  redacted?: number;
  /** The file was seen gone at `at`. */
  gone?: true;
}

/** One version to keep. */
export interface NewVersion {
  id: string;
  rel: string;
  sha: string;
  size: number;
  stored: Buffer;
  redacted: number;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const BROTLI_QUALITY = 5;

/**
 * Versions are kept only with MEMTRUST_VERSIONS=on: off by default until keeping them costs what
 * docs/versions.md "Cost" asks (bench/versions.ts measures both sides).
 */
export function versionsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.MEMTRUST_VERSIONS === 'on';
}

/** The store beside an index database file (`<data dir>/versions` by default); null for an in-memory database. */
export function versionsDirFor(sqlite: Database.Database): string | null {
  const name = sqlite.name;
  if (!name || name === ':memory:' || !path.isAbsolute(name)) return null;
  return path.join(path.dirname(name), 'versions');
}

export function rootKey(root: string): string {
  return crypto.createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 24);
}

function mkdirPrivate(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
}

/** Written to a temp name and renamed: a reader never sees half a file. */
function writePrivate(file: string, bytes: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, bytes, { mode: FILE_MODE });
  fs.renameSync(tmp, file);
}

export class VersionStore {
  private readonly where = new Map<string, { pack: string; off: number; len: number }>();
  private readonly loaded = new Set<string>();
  /** Per root: each file's last line (its sha, or null when seen gone). */
  private readonly current = new Map<string, Map<string, string | null>>();
  private readonly unpacked = new Map<string, Buffer>();

  constructor(readonly dir: string) {}

  indexFile(root: string): string {
    return path.join(this.dir, 'index', `${rootKey(root)}.jsonl.gz`);
  }

  packFile(pack: string): string {
    return path.join(this.dir, 'packs', `${pack}.br`);
  }

  /** Every line of a root's index, oldest first; lines that do not parse are skipped. */
  readIndex(root: string): VersionLine[] {
    const text = readIndexText(this.indexFile(root));
    if (text === null) return [];
    const out: VersionLine[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const v = JSON.parse(line) as VersionLine;
        if (typeof v.id === 'string' && typeof v.rel === 'string' && typeof v.at === 'string') out.push(v);
      } catch {
        // a torn last line (a crash mid-append): skipped
      }
    }
    return out;
  }

  /** Roots with an index here, as their lines name them. */
  roots(): string[] {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(this.dir, 'index')).filter((n) => n.endsWith('.jsonl.gz'));
    } catch {
      return [];
    }
    const out: string[] = [];
    for (const n of names) {
      const first = (readIndexText(path.join(this.dir, 'index', n)) ?? '').split('\n', 1)[0];
      try {
        out.push((JSON.parse(first ?? '') as VersionLine).root);
      } catch {
        // empty or torn
      }
    }
    return out;
  }

  private learn(root: string): void {
    if (this.loaded.has(root)) return;
    this.loaded.add(root);
    const current = new Map<string, string | null>();
    this.current.set(root, current);
    for (const l of this.readIndex(root)) {
      current.set(l.rel, l.sha);
      if (l.blob && l.pack && l.off !== undefined && l.len !== undefined)
        this.where.set(l.blob, { pack: l.pack, off: l.off, len: l.len });
    }
  }

  /** Each file's last known state in `root`: its sha, or null when seen gone; empty for a root never seen. */
  currentOf(root: string): ReadonlyMap<string, string | null> {
    this.learn(root);
    return this.current.get(root)!;
  }

  private append(root: string, lines: VersionLine[]): void {
    if (lines.length === 0) return;
    const file = this.indexFile(root);
    mkdirPrivate(path.dirname(file));
    fs.appendFileSync(file, gzipLines(lines), { mode: FILE_MODE });
  }

  /** Keeps `versions` of files of `root`, seen at `at`: new stored bytes go to one new pack. */
  put(root: string, at: string, all: NewVersion[]): void {
    if (all.length === 0) return;
    this.learn(root);
    const current = this.current.get(root)!;
    // A version the index already ends with (a rebuilt database's first scan) is not kept twice.
    const versions = all.filter((v) => current.get(v.rel) !== v.sha);
    for (const v of versions) current.set(v.rel, v.sha);
    if (versions.length === 0) return;
    const fresh: Buffer[] = [];
    const freshAt = new Map<string, { off: number; len: number }>();
    let off = 0;
    const blobs = versions.map((v) => {
      const blob = crypto.createHash('sha256').update(v.stored).digest('hex');
      if (!this.where.has(blob) && !freshAt.has(blob)) {
        freshAt.set(blob, { off, len: v.stored.length });
        fresh.push(v.stored);
        off += v.stored.length;
      }
      return blob;
    });
    if (fresh.length > 0) {
      const packed = zlib.brotliCompressSync(Buffer.concat(fresh), {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: off,
        },
      });
      const pack = crypto.createHash('sha256').update(packed).digest('hex');
      mkdirPrivate(path.join(this.dir, 'packs'));
      writePrivate(this.packFile(pack), packed);
      for (const [blob, p] of freshAt) this.where.set(blob, { pack, ...p });
    }
    this.append(
      root,
      versions.map((v, i) => {
        const w = this.where.get(blobs[i]!)!;
        const line: VersionLine = {
          v: 1,
          id: v.id,
          root,
          rel: v.rel,
          at,
          sha: v.sha,
          size: v.size,
          blob: blobs[i]!,
          ...w,
        };
        if (v.redacted > 0) line.redacted = v.redacted;
        return line;
      }),
    );
  }

  /** Records files of `root` seen gone at `at`. */
  markGone(root: string, at: string, gone: { id: string; rel: string }[]): void {
    if (gone.length === 0) return;
    this.learn(root);
    for (const g of gone) this.current.get(root)!.set(g.rel, null);
    this.append(
      root,
      gone.map((g) => ({ v: 1, id: g.id, root, rel: g.rel, at, sha: null, size: 0, gone: true })),
    );
  }

  /** The stored bytes of a version line (credential values replaced), or null when its pack is missing or damaged. */
  bytesOf(line: VersionLine): Buffer | null {
    if (!line.pack || line.off === undefined || line.len === undefined) return null;
    let all = this.unpacked.get(line.pack);
    if (!all) {
      try {
        all = zlib.brotliDecompressSync(fs.readFileSync(this.packFile(line.pack)));
      } catch {
        return null;
      }
      if (this.unpacked.size > 8) this.unpacked.clear();
      this.unpacked.set(line.pack, all);
    }
    const bytes = all.subarray(line.off, line.off + line.len);
    if (bytes.length !== line.len) return null;
    if (line.blob && crypto.createHash('sha256').update(bytes).digest('hex') !== line.blob) return null;
    return Buffer.from(bytes);
  }

  /** Rewrites a root's index with only `keep` (retention, prune.ts). */
  rewriteIndex(root: string, keep: VersionLine[]): void {
    const file = this.indexFile(root);
    mkdirPrivate(path.dirname(file));
    writePrivate(file, gzipLines(keep));
    this.loaded.delete(root);
  }

  packNames(): string[] {
    try {
      return fs
        .readdirSync(path.join(this.dir, 'packs'))
        .filter((n) => n.endsWith('.br'))
        .map((n) => n.slice(0, -3));
    } catch {
      return [];
    }
  }
}

function gzipLines(lines: VersionLine[]): Buffer {
  return zlib.gzipSync(Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join('')), { level: 6 });
}

/**
 * The index's text: its gzip members one after another. A member cut short by a crash
 * mid-append ends the readable text; the members before it are kept.
 */
function readIndexText(file: string): string | null {
  let raw: Buffer;
  try {
    raw = fs.readFileSync(file);
  } catch {
    return null;
  }
  try {
    return zlib.gunzipSync(raw).toString('utf8');
  } catch {
    // A torn last member: decompress as far as it goes.
    try {
      return zlib.gunzipSync(raw, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString('utf8');
    } catch {
      return '';
    }
  }
}
