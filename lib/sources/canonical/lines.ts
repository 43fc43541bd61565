/**
 * Byte-exact line handling. Files are split on `\n` bytes so every edit can keep the
 * other bytes of a file as they were (CRLF, a missing final newline, invalid UTF-8).
 */

export interface Line {
  /** Byte offset of the first byte of the line. */
  start: number;
  /** Byte offset just past the line terminator (or the end of the file). */
  end: number;
  /** The line decoded as UTF-8, without its terminator. */
  text: string;
  eol: '' | '\n' | '\r\n';
}

export function splitLines(bytes: Buffer): Line[] {
  const out: Line[] = [];
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl + 1;
    let contentEnd = nl === -1 ? bytes.length : nl;
    let eol: Line['eol'] = nl === -1 ? '' : '\n';
    if (nl !== -1 && contentEnd > start && bytes[contentEnd - 1] === 0x0d) {
      contentEnd -= 1;
      eol = '\r\n';
    }
    out.push({ start, end, text: bytes.toString('utf8', start, contentEnd), eol });
    start = end;
  }
  return out;
}

/** The line terminator a file mostly uses (for lines memtrust adds). */
export function dominantEol(lines: Line[]): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (const l of lines) {
    if (l.eol === '\r\n') crlf++;
    else if (l.eol === '\n') lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Bytes of lines [from, to] (1-based, inclusive). */
export function sliceLines(bytes: Buffer, lines: Line[], from: number, to: number): Buffer {
  if (to < from) return Buffer.alloc(0);
  return bytes.subarray(lines[from - 1]!.start, lines[to - 1]!.end);
}

/** A single-line value: newlines and other control characters become spaces. */
export function oneLine(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing control characters is the point
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}
