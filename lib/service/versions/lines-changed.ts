/** Lines changed between two versions (docs/versions.md, "Changes made outside memtrust"): lines removed plus lines added, compared as multisets. */
export function linesChanged(before: string | null, after: string | null): number {
  const count = new Map<string, number>();
  const lines = (s: string | null) => (s === null || s === '' ? [] : s.replace(/\n$/, '').split('\n'));
  for (const l of lines(before)) count.set(l, (count.get(l) ?? 0) + 1);
  let added = 0;
  for (const l of lines(after)) {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of count.values()) removed += n;
  return removed + added;
}
