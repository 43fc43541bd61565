/**
 * Offset ↔ line helpers for a decoded frontmatter string.
 *
 * The YAML parser reports positions as string offsets; findings and rewrites
 * need lines. Offsets are UTF-16 indexes into the decoded text, never bytes.
 */

export interface LineIndex {
  /** Offset of the first character of each line (0-based line numbers). */
  starts: number[];
  text: string;
}

export function indexLines(text: string): LineIndex {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return { starts, text };
}

/** 0-based line that contains `offset` (binary search: frontmatter can have many lines). */
export function lineOf(index: { starts: readonly number[] }, offset: number): number {
  const { starts } = index;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function lineStart(index: LineIndex, line: number): number {
  return index.starts[line] ?? index.text.length;
}

/** Offset just after the line's LF (or end of text): removing [start, next) drops the whole line. */
export function nextLineStart(index: LineIndex, line: number): number {
  return index.starts[line + 1] ?? index.text.length;
}

/** The line's own EOL as written, so a replaced line keeps CRLF/LF as it was. */
export function lineEol(index: LineIndex, line: number): string {
  const end = nextLineStart(index, line);
  if (end === 0 || index.text[end - 1] !== '\n') return '';
  return index.text[end - 2] === '\r' ? '\r\n' : '\n';
}

/** The frontmatter text always starts on line 2 of the file (line 1 is the opening `---`). */
export const FM_FIRST_FILE_LINE = 2;

export function fileLineOf(index: LineIndex, offset: number): number {
  return lineOf(index, offset) + FM_FIRST_FILE_LINE;
}
