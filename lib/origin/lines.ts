/**
 * One pass over a JSON Lines file with flat memory (docs/origin.md "Reading transcripts"):
 * fixed-size chunks read from an open descriptor, each line handed over as bytes, a line
 * longer than the cap skipped without being kept. Claude Code transcripts run to hundreds
 * of megabytes, so nothing here ever holds more than one chunk plus one capped line.
 */
import fs from 'node:fs';
import { OPEN_READ } from '../core/read-fd';

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

/** Splits chunks into lines, keeping at most one capped line between chunks. */
class LineSplitter {
  readonly stats: LineStats = { lines: 0, overLong: 0, bytes: 0 };
  // The part of a line that began in an earlier chunk (at most maxLine bytes).
  private carry: Buffer[] = [];
  private carryLen = 0;
  private skipping = false;

  constructor(
    private readonly onLine: (line: Buffer, n: number) => boolean | undefined,
    private readonly maxLine: number,
  ) {}

  private emit(part: Buffer): boolean {
    const stats = this.stats;
    stats.lines++;
    let line = part;
    if (this.carryLen > 0) {
      line = Buffer.concat([...this.carry, part], this.carryLen + part.length);
      this.carry = [];
      this.carryLen = 0;
    }
    if (this.skipping || line.length > this.maxLine) {
      this.skipping = false;
      stats.overLong++;
      return true;
    }
    const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
    return this.onLine(end === line.length ? line : line.subarray(0, end), stats.lines) !== false;
  }

  /** The first `got` bytes of `chunk`; false when `onLine` asked to stop. */
  push(chunk: Buffer, got: number): boolean {
    this.stats.bytes += got;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1 || nl >= got) break;
      if (!this.emit(chunk.subarray(start, nl))) return false;
      start = nl + 1;
    }
    if (start < got) {
      const rest = got - start;
      if (this.skipping || this.carryLen + rest > this.maxLine) {
        // Too long already: drop what was kept and skip to the next newline.
        this.skipping = true;
        this.carry = [];
        this.carryLen = 0;
      } else {
        this.carry.push(Buffer.from(chunk.subarray(start, got)));
        this.carryLen += rest;
      }
    }
    return true;
  }

  /** The last line when the file does not end in a newline. */
  end(): LineStats {
    if (this.carryLen > 0 || this.skipping) this.emit(Buffer.alloc(0));
    return this.stats;
  }
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
  const lines = new LineSplitter(onLine, maxLine);
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let position = 0;
  try {
    for (;;) {
      const got = fs.readSync(fd, chunk, 0, CHUNK_BYTES, position);
      if (got === 0) break;
      position += got;
      if (!lines.push(chunk, got)) return lines.stats;
    }
    return lines.end();
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `eachLine` reading each chunk asynchronously: between chunks the event loop is free, so
 * a server reading a 200 MB transcript in the background keeps answering requests
 * (docs/origin.md "In the dashboard").
 */
export async function eachLineAsync(
  file: string,
  onLine: (line: Buffer, n: number) => boolean | undefined,
  maxLine = MAX_LINE_BYTES,
): Promise<LineStats> {
  const fh = await fs.promises.open(file, OPEN_READ);
  const lines = new LineSplitter(onLine, maxLine);
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let position = 0;
  try {
    for (;;) {
      const { bytesRead: got } = await fh.read(chunk, 0, CHUNK_BYTES, position);
      if (got === 0) break;
      position += got;
      if (!lines.push(chunk, got)) return lines.stats;
    }
    return lines.end();
  } finally {
    await fh.close();
  }
}
