/**
 * The pack file of one root's versions (docs/versions.md, "The version store"): an
 * append-only run of chunks, each the versions one scan batch (or one hook) kept, compressed
 * together so the small files of a root share one compression window.
 *
 *   chunk   := "MTV2" | u32 LE payload length | first 8 bytes of sha256(payload) | payload
 *   payload := brotli( JSON header "\n" stored bytes laid end to end )
 *
 * The header names the root, the time and, per version, its path and where its bytes are:
 * inline (`n` bytes at the running offset) or already in the root's pack (`d`, the sha256 of
 * the stored bytes). No hash of an inline version is written: it is the sha256 of its bytes,
 * computed when the pack is read, so the store costs little more than the compressed files.
 *
 * A chunk is written with one append; a chunk cut short or damaged (a crash mid-append, a
 * bad disk block) fails its length or hash check and is skipped: the reader looks for the
 * next "MTV2" whose chunk checks out, so later appends still read. fs, zlib and crypto only:
 * the plugin's hooks load this (no native module).
 */
import zlib from 'node:zlib';
import { sha256Hex } from '../../core/hash';

const MAGIC = Buffer.from('MTV2', 'latin1');
export const CHUNK_HEAD = 16;
/**
 * Brotli quality 6 with a 4 MiB window: on bench/versions.ts's chunks, 2 % smaller than
 * quality 5 for 15 % more time, 18 % smaller than quality 4; a 16 MiB window compresses a
 * chunk of a scan batch no better and takes twice as long (its tables are set up per chunk).
 */
const BROTLI_QUALITY = 6;
const BROTLI_WINDOW_BITS = 22;

/** One version (or deletion) in a chunk's header. */
export interface ChunkEntry {
  /** Path relative to the root. */
  r: string;
  /** The memory id's filename part, when it is not the path's last segment. */
  i?: string;
  /** Stored bytes inline: their length. */
  n?: number;
  /** Stored bytes already in the pack: their sha256. */
  d?: string;
  /** The file's own size, when the stored bytes differ (credential values replaced). */
  z?: number;
  /** The file's own sha256, when the stored bytes differ. */
  h?: string;
  /** How many credential values were replaced. */
  x?: number;
  /** The file was seen gone. */
  g?: 1;
  /** The folder's index file (MEMORY.md), kept to know which lines it had (recover.ts), not a memory. */
  k?: 1;
}

export interface ChunkHeader {
  v: 2;
  root: string;
  /** The memory ids' source part (`<source>:`). */
  s: string;
  /** When memtrust saw these versions (ISO 8601 UTC). */
  at: string;
  e: ChunkEntry[];
}

export interface DecodedChunk {
  header: ChunkHeader;
  /** The stored bytes laid end to end; entry k's inline bytes start where entry k-1's ended. */
  body: Buffer;
}

// In JavaScript up to 64 KiB (lib/core/hash.ts): a session start that keeps one file loads no node:crypto.
const digest8 = (b: Buffer) => Buffer.from(sha256Hex(b).slice(0, 16), 'hex');

/**
 * One chunk, ready to append. `stored`: the payload is a brotli stream of uncompressed
 * meta-blocks (RFC 7932, section 9.2; any brotli decoder reads it), which needs no encoder:
 * the SessionStart hook keeps the file or two that changed without loading node:zlib and
 * its stream modules (docs/versions.md, "Layout").
 */
export function encodeChunk(header: ChunkHeader, body: Buffer[], opts: { stored?: boolean } = {}): Buffer {
  const head = Buffer.from(`${JSON.stringify(header)}\n`, 'utf8');
  const raw = Buffer.concat([head, ...body]);
  const payload = opts.stored
    ? brotliStored(raw)
    : zlib.brotliCompressSync(raw, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [zlib.constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      });
  const frame = Buffer.alloc(CHUNK_HEAD);
  MAGIC.copy(frame, 0);
  frame.writeUInt32LE(payload.length, 4);
  digest8(payload).copy(frame, 8);
  return Buffer.concat([frame, payload]);
}

/** Bytes per uncompressed meta-block: MLEN - 1 then fits the 16 bits of MNIBBLES = 4. */
const STORED_BLOCK = 1 << 16;

/**
 * `raw` as a brotli stream without compression (RFC 7932): WBITS 16 (one 0 bit), then per
 * block of at most 64 KiB a meta-block header — ISLAST 0, MNIBBLES 4 (two 0 bits), MLEN - 1
 * in 16 bits, ISUNCOMPRESSED 1 — padded with zeros to a byte, and the bytes; then a last,
 * empty meta-block (ISLAST 1, ISLASTEMPTY 1). Bits are packed from the lowest.
 */
export function brotliStored(raw: Buffer): Buffer {
  const blocks = Math.ceil(raw.length / STORED_BLOCK);
  const out = Buffer.alloc(blocks * 3 + raw.length + 1);
  let at = 0;
  // Bit 0: WBITS. Each block's header is then 20 bits from an offset of 1 bit, padded to 3 bytes.
  for (let b = 0; b < blocks; b++) {
    const start = b * STORED_BLOCK;
    const len = Math.min(STORED_BLOCK, raw.length - start);
    // Bits, lowest first: [WBITS 0 on the first byte only], ISLAST 0, MNIBBLES 00, MLEN-1 (16), ISUNCOMPRESSED 1.
    const bits = ((len - 1) << 4) | (1 << 20);
    // The first header starts at bit 1 (after WBITS); later ones at bit 0 of a fresh byte.
    const v = b === 0 ? bits : bits >>> 1;
    out[at++] = v & 0xff;
    out[at++] = (v >>> 8) & 0xff;
    out[at++] = (v >>> 16) & 0xff;
    raw.copy(out, at, start, start + len);
    at += len;
  }
  // ISLAST 1, ISLASTEMPTY 1 (after WBITS when there was no block).
  out[at++] = blocks === 0 ? 0b110 : 0b11;
  return out.subarray(0, at);
}

/** Whether a whole, undamaged chunk starts at `at`; its payload length, else -1. */
function frameAt(buf: Buffer, at: number): number {
  if (at + CHUNK_HEAD > buf.length || buf.compare(MAGIC, 0, 4, at, at + 4) !== 0) return -1;
  const len = buf.readUInt32LE(at + 4);
  if (at + CHUNK_HEAD + len > buf.length) return -1;
  const payload = buf.subarray(at + CHUNK_HEAD, at + CHUNK_HEAD + len);
  return digest8(payload).equals(buf.subarray(at + 8, at + 16)) ? len : -1;
}

/** The whole chunks of a pack, in order: `start` (where the chunk begins) and its payload. Damage is skipped. */
export function* chunksOf(buf: Buffer): Generator<{ start: number; payload: Buffer }> {
  let at = 0;
  while (at < buf.length) {
    const len = frameAt(buf, at);
    if (len >= 0) {
      yield { start: at, payload: buf.subarray(at + CHUNK_HEAD, at + CHUNK_HEAD + len) };
      at += CHUNK_HEAD + len;
      continue;
    }
    // A torn or damaged chunk: the next one that checks out, if any.
    const next = buf.indexOf(MAGIC, at + 1);
    if (next < 0) return;
    at = next;
  }
}

/**
 * The last chunk of a pack, found by the length fields alone (only it is checked and
 * decompressed): what a writer that does not read the whole pack compares with. Null when
 * the pack is empty or its run of chunks is broken before its end.
 */
export function lastChunkOf(buf: Buffer): DecodedChunk | null {
  let at = 0;
  let last = -1;
  while (at + CHUNK_HEAD <= buf.length && buf.compare(MAGIC, 0, 4, at, at + 4) === 0) {
    last = at;
    at += CHUNK_HEAD + buf.readUInt32LE(at + 4);
  }
  if (last < 0 || at !== buf.length || frameAt(buf, last) < 0) return null;
  return decodeChunk(buf.subarray(last + CHUNK_HEAD));
}

/** A chunk's header and bytes; null when it does not decompress or its header does not parse. */
export function decodeChunk(payload: Buffer): DecodedChunk | null {
  let raw: Buffer;
  try {
    raw = zlib.brotliDecompressSync(payload);
  } catch {
    return null;
  }
  const nl = raw.indexOf(0x0a);
  if (nl < 0) return null;
  try {
    const header = JSON.parse(raw.subarray(0, nl).toString('utf8')) as ChunkHeader;
    if (header.v !== 2 || typeof header.root !== 'string' || !Array.isArray(header.e)) return null;
    return { header, body: raw.subarray(nl + 1) };
  } catch {
    return null;
  }
}
