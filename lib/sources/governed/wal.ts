/**
 * Folds a SQLite write-ahead log into a copy of the database image, in memory, the way
 * SQLite's own recovery does: only frames whose salts and running checksum hold, up
 * to the last commit frame (docs/governed-layout.md, "Reading without writing").
 * Pure: bytes in, bytes out.
 */

const MAGIC_LE = 0x377f0682;
const MAGIC_BE = 0x377f0683;
const HEADER = 32;
const FRAME_HEADER = 24;

export interface WalFold {
  image: Buffer;
  /** Committed frames applied. */
  frames: number;
  /** Why the log was not used at all (null when it was read). */
  ignored: string | null;
}

/** SQLite's WAL checksum over `len` bytes at `off` (a multiple of 8), continuing from `s`. */
function checksum(buf: Buffer, off: number, len: number, s: [number, number], bigEndian: boolean): void {
  let s0 = s[0];
  let s1 = s[1];
  if (!bigEndian && (buf.byteOffset + off) % 4 === 0) {
    const w = new Uint32Array(buf.buffer, buf.byteOffset + off, len >> 2);
    for (let i = 0; i < w.length; i += 2) {
      s0 = (s0 + w[i]! + s1) >>> 0;
      s1 = (s1 + w[i + 1]! + s0) >>> 0;
    }
  } else {
    for (let i = off; i < off + len; i += 8) {
      const a = bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i);
      const b = bigEndian ? buf.readUInt32BE(i + 4) : buf.readUInt32LE(i + 4);
      s0 = (s0 + a + s1) >>> 0;
      s1 = (s1 + b + s0) >>> 0;
    }
  }
  s[0] = s0;
  s[1] = s1;
}

/**
 * The database as of the log's last valid commit. The result's header is set to
 * rollback mode (bytes 18–19 = 1) so it opens as an in-memory database.
 */
export function foldWal(main: Buffer, wal: Buffer | null): WalFold {
  const asRollback = (img: Buffer): Buffer => {
    if (img.length >= 100 && img.toString('latin1', 0, 16) === 'SQLite format 3\u0000') {
      img[18] = 1;
      img[19] = 1;
    }
    return img;
  };
  const untouched = (why: string | null): WalFold => ({
    image: asRollback(Buffer.from(main)),
    frames: 0,
    ignored: why,
  });
  if (!wal || wal.length < HEADER) return untouched(wal?.length ? 'shorter than its header' : null);
  const magic = wal.readUInt32BE(0);
  if (magic !== MAGIC_LE && magic !== MAGIC_BE) return untouched('no WAL magic');
  const bigEndian = magic === MAGIC_BE;
  let pageSize = wal.readUInt32BE(8);
  if (pageSize === 1) pageSize = 65536;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
    return untouched(`bad page size ${pageSize}`);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  const s: [number, number] = [0, 0];
  checksum(wal, 0, 24, s, bigEndian);
  if (s[0] !== wal.readUInt32BE(24) || s[1] !== wal.readUInt32BE(28))
    return untouched('header checksum does not match');

  const committed = new Map<number, number>(); // page number → offset of its data in the log
  const pending = new Map<number, number>();
  let dbPages = 0;
  let frames = 0;
  let pendingFrames = 0;
  for (let off = HEADER; off + FRAME_HEADER + pageSize <= wal.length; off += FRAME_HEADER + pageSize) {
    const pgno = wal.readUInt32BE(off);
    const commit = wal.readUInt32BE(off + 4);
    if (pgno === 0 || wal.readUInt32BE(off + 8) !== salt1 || wal.readUInt32BE(off + 12) !== salt2) break;
    checksum(wal, off, 8, s, bigEndian);
    checksum(wal, off + FRAME_HEADER, pageSize, s, bigEndian);
    if (s[0] !== wal.readUInt32BE(off + 16) || s[1] !== wal.readUInt32BE(off + 20)) break;
    pending.set(pgno, off + FRAME_HEADER);
    pendingFrames++;
    if (commit !== 0) {
      for (const [p, o] of pending) committed.set(p, o);
      pending.clear();
      frames += pendingFrames;
      pendingFrames = 0;
      dbPages = commit;
    }
  }
  if (dbPages === 0) return untouched(null);
  const image = Buffer.alloc(dbPages * pageSize);
  main.copy(image, 0, 0, Math.min(main.length, image.length));
  for (const [p, o] of committed) if (p <= dbPages) wal.copy(image, (p - 1) * pageSize, o, o + pageSize);
  return { image: asRollback(image), frames, ignored: null };
}
