/**
 * Byte-exact line handling for `*.memory.jsonl` files: lines split on `\n` bytes, a
 * `\r` before it kept as part of the line's terminator, so an edit of one line keeps
 * every other byte of the file (docs/consolidation-layout.md).
 */
import type { FileEdit } from '../record';

export interface LineSpan {
  /** Byte offset of the line's first byte. */
  start: number;
  /** Just past the line's content (before `\r\n` / `\n`). */
  contentEnd: number;
  /** Just past the terminator (or the end of the file). */
  end: number;
  eol: '' | '\n' | '\r\n';
}

/** The 1-based line `n` of `bytes`, or null past the end. Linear in the bytes before it. */
export function lineAt(bytes: Buffer, n: number): LineSpan | null {
  if (n < 1) return null;
  let start = 0;
  for (let k = 1; k < n; k++) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl === -1) return null;
    start = nl + 1;
  }
  if (start >= bytes.length) return null;
  const nl = bytes.indexOf(0x0a, start);
  if (nl === -1) return { start, contentEnd: bytes.length, end: bytes.length, eol: '' };
  const cr = nl > start && bytes[nl - 1] === 0x0d;
  return { start, contentEnd: cr ? nl - 1 : nl, end: nl + 1, eol: cr ? '\r\n' : '\n' };
}

/**
 * `replace-lines` edits applied to one file's bytes, each checked against its `expect`
 * (throws when the bytes moved). Edits are applied bottom-up so line numbers hold.
 * The service's write pipeline does this for real; tests and the bench use this one.
 */
export function applyLineEdits(bytes: Buffer, edits: FileEdit[]): Buffer {
  const rs = edits.filter((e) => e.kind === 'replace-lines').sort((a, b) => b.line - a.line);
  let out = bytes;
  for (const e of rs) {
    const first = lineAt(out, e.line);
    if (!first) throw new Error(`${e.file}: line ${e.line} is past the end`);
    let end = first.start;
    for (let k = 0; k < e.count; k++) {
      if (k > 0 && end >= out.length) throw new Error(`${e.file}: line ${e.line + k} is past the end`);
      const nl = out.indexOf(0x0a, end);
      end = nl === -1 ? out.length : nl + 1;
    }
    if (!out.subarray(first.start, end).equals(e.expect)) throw new Error(`${e.file}: line ${e.line} changed`);
    out = Buffer.concat([out.subarray(0, first.start), e.bytes, out.subarray(end)]);
  }
  return out;
}
