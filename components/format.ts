/** Display helpers shared by tables and detail pages (UTC, like every date memtrust writes). */
const DAY = 86_400_000;

export function day(ms: number | null | undefined): string {
  return ms == null ? '—' : new Date(ms).toISOString().slice(0, 10);
}

export function daysSince(ms: number | null | undefined, now: Date): number | null {
  if (ms == null) return null;
  const a = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const d = new Date(ms);
  return Math.round((a - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())) / DAY);
}

export function memoryHref(source: string, filename: string): string {
  return `/memories/${encodeURIComponent(`${source}:${filename}`)}`;
}

/** A batch id short enough for a table cell: memtrust's own ids whole, operation UUIDs cut (docs/batches.md). */
export function shortBatch(id: string): string {
  return /^b\d{8}T\d{6}Z-[0-9a-f]{6}$/.test(id) || id.length <= 14 ? id : `${id.slice(0, 8)}…`;
}
