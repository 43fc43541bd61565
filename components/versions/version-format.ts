/** How the version pages write a time, a size and a sha256 (UTC, like every date memtrust writes). */
export function when(iso: string): string {
  return `${iso.replace('T', ' ').slice(0, 16)} UTC`;
}

export function bytes(n: number | null): string {
  return n === null ? '—' : `${n.toLocaleString('en-US')} B`;
}

export function shortSha(sha: string | null): string {
  return sha ? sha.slice(0, 12) : '—';
}

export function versionsHref(id: string, query = ''): string {
  return `/memories/${encodeURIComponent(id)}/versions${query}`;
}
