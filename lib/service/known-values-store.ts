/**
 * Where the salted hashes of propagated credential values live (docs/credentials.md, "Value
 * propagation"): two small files in the data directory, beside the index, mode 0600 — a
 * per-machine random salt (`known-values.salt`, 32 bytes) and the set
 * (`known-values.json`: per HMAC-SHA256 hash, the value's length, its 32-bit prefilter hash
 * and the memory id that holds it). Never a value. Plain files, so the hooks read them
 * without the database; the scan rebuilds the set from the files it reads (files are the
 * truth), so losing it costs one full scan.
 */
import { nodeCrypto, sha256Hex } from '../core/hash';
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from '../core/env';
import { dataDir } from '../core/config';
import { type KnownEntry, type KnownValues, knownValuesOf } from '../validators/known-values';
import { forgetKeptTexts } from './session/text-cache';
import { replaceFile } from './replace-file';

export const SALT_FILE = 'known-values.salt';
export const SET_FILE = 'known-values.json';
const SALT_BYTES = 32;
const FORMAT = 1;

/** The data directory the index lives in: the folder of MEMTRUST_DB when set, else memtrust's data folder. */
export function knownValuesDir(env: Env = process.env): string {
  return env.MEMTRUST_DB ? path.dirname(path.resolve(env.MEMTRUST_DB)) : dataDir(env);
}

function readSalt(dir: string): Buffer | null {
  try {
    const b = fs.readFileSync(path.join(dir, SALT_FILE));
    return b.length === SALT_BYTES ? b : null;
  } catch {
    return null;
  }
}

/** The machine's salt, made (0600, exclusive create) when there is none. */
export function ensureSalt(dir: string): Buffer {
  const have = readSalt(dir);
  if (have) return have;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, SALT_FILE);
  const salt = nodeCrypto().randomBytes(SALT_BYTES);
  try {
    const fd = fs.openSync(file, 'wx', 0o600);
    try {
      fs.writeSync(fd, salt);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return salt;
  } catch (e) {
    // Another process made it first (or a broken one is there): theirs stands, or it is replaced.
    const theirs = readSalt(dir);
    if (theirs) return theirs;
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    writePrivate(file, salt);
    return salt;
  }
}

let cache: { key: string; kv: KnownValues | undefined } | undefined;

/**
 * The set as the checks use it; undefined when this machine has no salt yet (no scan ran).
 * Kept while the set file's stat is unchanged, so a caller may ask on every check.
 */
export function loadKnownValues(dir: string): KnownValues | undefined {
  const file = path.join(dir, SET_FILE);
  let st: fs.Stats | null = null;
  try {
    st = fs.statSync(file);
  } catch {
    st = null;
  }
  const key = `${dir}\0${st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '-'}`;
  if (cache?.key === key) return cache.kv;
  const salt = readSalt(dir);
  let kv: KnownValues | undefined;
  if (salt) {
    const { entries, digest } = st ? parseSet(file) : { entries: new Map<string, KnownEntry>(), digest: 'none' };
    kv = { ...knownValuesOf(salt, entries), digest };
  }
  cache = { key, kv };
  return kv;
}

/** The salt made if needed, then the set: what a scan starts from. */
export function openKnownValues(dir: string): KnownValues {
  const salt = ensureSalt(dir);
  const kv = loadKnownValues(dir);
  return kv && Buffer.compare(Buffer.from(kv.salt), salt) === 0
    ? kv
    : { ...knownValuesOf(salt, new Map()), digest: 'none' };
}

function parseSet(file: string): { entries: Map<string, KnownEntry>; digest: string } {
  const entries = new Map<string, KnownEntry>();
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return { entries, digest: 'none' };
  }
  const digest = sha256Hex(bytes).slice(0, 16);
  try {
    const data = JSON.parse(bytes.toString('utf8')) as { format?: number; values?: Record<string, unknown> };
    if (data.format !== FORMAT || !data.values || typeof data.values !== 'object') return { entries, digest };
    for (const [hash, v] of Object.entries(data.values)) {
      if (!/^[0-9a-f]{32}$/.test(hash) || !Array.isArray(v)) continue;
      const [len, quick, id] = v as unknown[];
      if (typeof len === 'number' && typeof quick === 'number' && typeof id === 'string')
        entries.set(hash, { len, quick, id });
    }
  } catch {
    // A broken set is an empty one until the next scan writes it again.
  }
  return { entries, digest };
}

/** Writes the set (0600, replaced whole by a rename); sorted, so the same set is the same bytes. */
export function saveKnownValues(dir: string, entries: ReadonlyMap<string, KnownEntry>): void {
  const values: Record<string, [number, number, string]> = {};
  for (const hash of [...entries.keys()].sort()) {
    const e = entries.get(hash)!;
    values[hash] = [e.len, e.quick, e.id];
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  writePrivate(path.join(dir, SET_FILE), Buffer.from(`${JSON.stringify({ format: FORMAT, values })}\n`));
  // A session text kept before a value was known could quote it (text-cache.ts).
  forgetKeptTexts(dir);
}

/**
 * The salt and the set: private (0600) and durable. The salt cannot be made again (every kept hash
 * is keyed by it), and a set lost to a crash would let a known value through until the next scan.
 */
function writePrivate(file: string, bytes: Buffer): void {
  replaceFile(file, bytes, { mode: 0o600, durable: true });
}
