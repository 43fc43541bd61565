/**
 * Byte-level split of a memory file into BOM, frontmatter block and body.
 *
 * Works on raw bytes on purpose: the body is never decoded and re-encoded, so a
 * rewrite can hand back the exact same body bytes (docs/memory-files.md). Only the
 * frontmatter range is ever decoded as UTF-8, by the caller.
 */

export const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export type Eol = '\n' | '\r\n';

export interface SplitFile {
  ok: true;
  /** true when the file starts with a UTF-8 BOM (kept on rewrite). */
  bom: boolean;
  /** Line ending of the opening delimiter line; new frontmatter lines use it. */
  eol: Eol;
  /** Byte offset where the frontmatter text starts (just after the opening `---` line). */
  fmStart: number;
  /** Byte offset where the frontmatter text ends (start of the closing `---` line). */
  fmEnd: number;
  /** Byte offset of the first body byte (just after the closing delimiter line). */
  bodyStart: number;
  /** 1-based line number of the closing delimiter (for findings). */
  closeLine: number;
}

export type SplitError = { ok: false; error: 'missing-open' | 'missing-close' };

const DASH = 0x2d;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/** Is bytes[start, end) a delimiter line: `---` then only spaces/tabs (and a CR before LF)? */
function isDelimiter(bytes: Buffer, start: number, end: number): boolean {
  if (end - start < 3) return false;
  if (bytes[start] !== DASH || bytes[start + 1] !== DASH || bytes[start + 2] !== DASH) return false;
  for (let i = start + 3; i < end; i++) {
    const b = bytes[i];
    if (b === SPACE || b === TAB) continue;
    if (b === CR && i === end - 1) continue;
    return false;
  }
  return true;
}

/** End of the line starting at `start` (index of the LF, or bytes.length). */
function lineEnd(bytes: Buffer, start: number): number {
  const i = bytes.indexOf(LF, start);
  return i === -1 ? bytes.length : i;
}

export function splitFile(bytes: Buffer): SplitFile | SplitError {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const start = bom ? 3 : 0;
  const openEnd = lineEnd(bytes, start);
  // An opening delimiter must be followed by a newline: a file that is just `---` has no block.
  if (openEnd === bytes.length || !isDelimiter(bytes, start, openEnd)) {
    return { ok: false, error: 'missing-open' };
  }
  const eol: Eol = bytes[openEnd - 1] === CR ? '\r\n' : '\n';
  const fmStart = openEnd + 1;
  let pos = fmStart;
  let line = 2;
  while (pos <= bytes.length) {
    if (pos === bytes.length) break;
    const end = lineEnd(bytes, pos);
    if (isDelimiter(bytes, pos, end)) {
      return {
        ok: true,
        bom,
        eol,
        fmStart,
        fmEnd: pos,
        bodyStart: end === bytes.length ? end : end + 1,
        closeLine: line,
      };
    }
    pos = end + 1;
    line++;
  }
  return { ok: false, error: 'missing-close' };
}
