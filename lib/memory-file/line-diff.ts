/**
 * A line diff of two texts (docs/versions.md, "Versions in the dashboard"): the longest common
 * subsequence of lines, after the common head and tail are set aside. Memory files are small;
 * past MAX_CELLS of table the middle is shown as removed-then-added rather than spending
 * seconds on a request.
 */

export type DiffOp = 'same' | 'removed' | 'added';

export interface DiffRow {
  op: DiffOp;
  text: string;
  /** Line number in the older text (same, removed). */
  a: number | null;
  /** Line number in the newer text (same, added). */
  b: number | null;
}

const MAX_CELLS = 4_000_000;

export function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

export function lineDiff(before: string, after: string): DiffRow[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const rows: DiffRow[] = [];
  for (let i = 0; i < head; i++) rows.push({ op: 'same', text: a[i]!, a: i + 1, b: i + 1 });
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  rows.push(...middle(am, bm, head));
  for (let i = tail; i > 0; i--)
    rows.push({ op: 'same', text: a[a.length - i]!, a: a.length - i + 1, b: b.length - i + 1 });
  return rows;
}

function middle(a: string[], b: string[], offset: number): DiffRow[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) {
    return [
      ...a.map((text, i) => ({ op: 'removed' as const, text, a: offset + i + 1, b: null })),
      ...b.map((text, j) => ({ op: 'added' as const, text, a: null, b: offset + j + 1 })),
    ];
  }
  // lcs[i][j]: the LCS length of a[i..] and b[j..], one flat array.
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * w + j] =
        a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  const out: DiffRow[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ op: 'same', text: a[i]!, a: offset + i + 1, b: offset + j + 1 });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) {
      // Removed lines first: a replaced line reads old, then new.
      out.push({ op: 'removed', text: a[i]!, a: offset + i + 1, b: null });
      i++;
    } else {
      out.push({ op: 'added', text: b[j]!, a: null, b: offset + j + 1 });
      j++;
    }
  }
  return out;
}
