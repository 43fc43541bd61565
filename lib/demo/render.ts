/**
 * Turning a planned memory into bytes: frontmatter lines, body, line endings, BOM.
 * Also the date helpers shared by the generators (all UTC, all from `now`).
 */

export const DAY_MS = 86_400_000;

/** `YYYY-MM-DDTHH:MM:SSZ` */
export function isoSec(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

/** `YYYY-MM-DD` (UTC) */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** `YYYY-MM` (UTC), the archive folder name. */
export function isoMonth(d: Date): string {
  return d.toISOString().slice(0, 7);
}

/** A time `days` (fractional allowed) before `now`, rounded down to whole seconds. */
export function daysAgo(now: Date, days: number): Date {
  const t = now.getTime() - days * DAY_MS;
  return new Date(t - (((t % 1000) + 1000) % 1000));
}

/** Plain YAML scalar when unambiguous, else a double-quoted one. */
export function yamlScalar(v: string): string {
  const plain =
    /^[A-Za-z0-9(][^\n"'\\]*$/.test(v) &&
    !/: |:$| #|\s$/.test(v) &&
    !/^(true|false|yes|no|on|off|null|~|[-+.0-9][-+.0-9e]*)$/i.test(v);
  return plain ? v : JSON.stringify(v);
}

export type FmValue = string | { raw: string };

export interface RenderSpec {
  /** Frontmatter entries in order; a string value is quoted when needed, `{raw}` is written as is. */
  fm: [string, FmValue][];
  /** Body lines (without line endings). */
  body: string[];
  crlf?: boolean;
  bom?: boolean;
  /** Omit the closing `---` (a FAIL-STRUCT case). */
  noClose?: boolean;
}

export function renderLines(spec: RenderSpec): string[] {
  const lines = ['---'];
  for (const [k, v] of spec.fm) lines.push(`${k}: ${typeof v === 'string' ? yamlScalar(v) : v.raw}`);
  if (!spec.noClose) lines.push('---');
  for (const l of spec.body) lines.push(l);
  return lines;
}

export function render(spec: RenderSpec): Buffer {
  const eol = spec.crlf ? '\r\n' : '\n';
  const text = renderLines(spec).join(eol) + eol;
  return Buffer.from(spec.bom ? `\ufeff${text}` : text, 'utf8');
}

/** 1-based line number of the first rendered line containing `needle` (0 if absent). */
export function lineOf(spec: RenderSpec, needle: string): number {
  const i = renderLines(spec).findIndex((l) => l.includes(needle));
  return i + 1;
}
