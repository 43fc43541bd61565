/**
 * The time an "as of" view takes (docs/versions.md, "As of"): `list --as-of TIME` and the tier
 * tables' `asOf` URL parameter. ISO 8601; a bare date is the end of that day (UTC), "as it
 * was on that day"; a date-time without a zone (what a browser's date-time field sends) is UTC,
 * like every time memtrust shows.
 */

/** The time, or null when `raw` is not one. */
export function parseAsOf(raw: string | string[] | undefined): Date | null {
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (!v || v.length > 40 || !/^\d{4}-\d{2}-\d{2}/.test(v)) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    const t = Date.parse(`${v}T00:00:00Z`);
    return Number.isNaN(t) ? null : new Date(t + 86_399_999);
  }
  const t = Date.parse(/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? `${v}Z` : v);
  return Number.isNaN(t) ? null : new Date(t);
}

/** The value a date-time field shows for `at` (minutes, UTC). */
export function asOfField(at: Date): string {
  return at.toISOString().slice(0, 16);
}
