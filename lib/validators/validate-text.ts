/** Unicode-aware text measures shared by the validate checks (docs/memory-files.md: code points). */

/** Code points, counting a surrogate pair once, without building an array of a 1 MiB string. */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Body text with CRLF folded and leading/trailing blank (whitespace-only) lines removed. */
export function trimBlankLines(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] ?? '').trim() === '') start++;
  while (end > start && (lines[end - 1] ?? '').trim() === '') end--;
  return lines.slice(start, end).join('\n');
}
