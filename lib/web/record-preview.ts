/**
 * What a record action will change, as the pages show it (docs/records-pages.md): per
 * file, only the lines that differ, with their line numbers — never the whole file
 * (a consolidation store can hold 100,000 lines) — and each line passed through a
 * masking function before it leaves the server, so a preview never carries a secret.
 * Pure: strings in, hunks out.
 */

export interface PreviewHunk {
  /** 1-based first line of `removed` in the file before, and of `added` after. */
  beforeLine: number;
  afterLine: number;
  removed: string[];
  added: string[];
}

export interface FilePreview {
  file: string;
  /** `created` (absent before), `removed` (absent after), else `changed`. */
  change: 'created' | 'removed' | 'changed' | 'unchanged';
  hunks: PreviewHunk[];
  /** Lines not shown (over the cap), so the page can say so. */
  omitted: number;
}

/** Lines shown per file at most; the rest are counted in `omitted`. */
export const PREVIEW_LINE_CAP = 60;

/** Splits keeping a line's `\r`, so a CRLF file shows its own line ends as ␍. */
function lines(s: string): string[] {
  if (s === '') return [];
  const out = s.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

const show = (l: string) => (l.endsWith('\r') ? `${l.slice(0, -1)}␍` : l);

export function previewHunks(
  file: { file: string; before: string; after: string },
  mask: (line: string) => string = (l) => l,
): FilePreview {
  const a = lines(file.before);
  const b = lines(file.after);
  const change =
    file.before === '' && file.after !== ''
      ? 'created'
      : file.after === '' && file.before !== ''
        ? 'removed'
        : file.before === file.after
          ? 'unchanged'
          : 'changed';
  const hunks: PreviewHunk[] = [];
  if (a.length === b.length) {
    // Same line count (a field change rewrites lines in place): every differing line, adjacent ones grouped.
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      const last = hunks[hunks.length - 1];
      if (last && last.beforeLine + last.removed.length === i + 1) {
        last.removed.push(a[i]!);
        last.added.push(b[i]!);
      } else hunks.push({ beforeLine: i + 1, afterLine: i + 1, removed: [a[i]!], added: [b[i]!] });
    }
  } else {
    // Lines inserted or removed: one hunk between the common head and the common tail.
    let head = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) head++;
    let tail = 0;
    while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail])
      tail++;
    hunks.push({
      beforeLine: head + 1,
      afterLine: head + 1,
      removed: a.slice(head, a.length - tail),
      added: b.slice(head, b.length - tail),
    });
  }
  let budget = PREVIEW_LINE_CAP;
  let omitted = 0;
  const shown: PreviewHunk[] = [];
  for (const h of hunks) {
    const removed = h.removed.slice(0, Math.max(0, budget));
    budget -= removed.length;
    const added = h.added.slice(0, Math.max(0, budget));
    budget -= added.length;
    omitted += h.removed.length - removed.length + h.added.length - added.length;
    if (removed.length || added.length)
      shown.push({ ...h, removed: removed.map((l) => mask(show(l))), added: added.map((l) => mask(show(l))) });
  }
  return { file: file.file, change, hunks: shown, omitted };
}

/**
 * The changed middle of a before/after line pair, so a one-field change in a long JSON
 * line stands out; never cut inside a mask (`⟦…⟧`).
 */
export function changedSpan(a: string, b: string): [number, number] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const open = a.lastIndexOf('⟦', pre);
  if (open !== -1 && a.indexOf('⟧', open) >= pre) pre = open;
  const tailA = a.slice(a.length - suf);
  const close = tailA.indexOf('⟧');
  if (close !== -1 && !tailA.slice(0, close).includes('⟦')) suf = tailA.length - close - 1;
  return [pre, suf];
}
