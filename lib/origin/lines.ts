/**
 * One pass over a JSON Lines file with flat memory (docs/origin.md "Reading transcripts"):
 * fixed-size chunks read from an open descriptor, each line handed over as bytes, a line
 * longer than the cap skipped without being kept. Claude Code transcripts run to hundreds
 * of megabytes, so nothing here ever holds more than one chunk plus one capped line.
 */
import fs from 'node:fs';
import { OPEN_READ } from '../read-fd';

/** Bytes read at a time. */
export const CHUNK_BYTES = 1024 * 1024;
/** A line over this many bytes is skipped (a pasted file, an image as base64): counted, never kept. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

export interface LineStats {
  lines: number;
  /** Lines skipped for their size. */
  overLong: number;
  bytes: number;
}

/**
 * Calls `onLine(bytes, n)` for every line (1-based `n`, without its `\n` or `\r`), the
 * last one too when the file does not end in a newline (a truncated line is the reader's
 * to reject). `onLine` returns `false` to stop early. The buffer it gets is only valid
 * during the call. Throws only what opening or reading the file throws.
 */
export function eachLine(
  file: string,
  onLine: (line: Buffer, n: number) => boolean | undefined,
  maxLine = MAX_LINE_BYTES,
): LineStats {
  const fd = fs.openSync(file, OPEN_READ);
  const stats: LineStats = { lines: 0, overLong: 0, bytes: 0 };
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  // The part of a line that began in an earlier chunk (at most maxLine bytes).
  let carry: Buffer[] = [];
  let carryLen = 0;
  let skipping = false;
  let position = 0;
  const emit = (part: Buffer): boolean => {
    stats.lines++;
    let line = part;
    if (carryLen > 0) {
      line = Buffer.concat([...carry, part], carryLen + part.length);
      carry = [];
      carryLen = 0;
    }
    if (skipping || line.length > maxLine) {
      skipping = false;
      stats.overLong++;
      return true;
    }
    const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
    return onLine(end === line.length ? line : line.subarray(0, end), stats.lines) !== false;
  };
  try {
    for (;;) {
      const got = fs.readSync(fd, chunk, 0, CHUNK_BYTES, position);
      if (got === 0) break;
      position += got;
      stats.bytes += got;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        if (nl === -1 || nl >= got) break;
        if (!emit(chunk.subarray(start, nl))) return stats;
        start = nl + 1;
      }
      if (start < got) {
        const rest = got - start;
        if (skipping || carryLen + rest > maxLine) {
          // Too long already: drop what was kept and skip to the next newline.
          skipping = true;
          carry = [];
          carryLen = 0;
        } else {
          carry.push(Buffer.from(chunk.subarray(start, got)));
          carryLen += rest;
        }
      }
    }
    if (carryLen > 0 || skipping) emit(Buffer.alloc(0));
    return stats;
  } finally {
    fs.closeSync(fd);
  }
}
