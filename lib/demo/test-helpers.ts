/**
 * Tiny, independent frontmatter reader for the demo tests: deliberately not the
 * project's parser, so the generator is checked against plain line rules.
 */

export interface Parsed {
  bom: boolean;
  crlf: boolean;
  /** false when the closing `---` is missing. */
  closed: boolean;
  fm: Record<string, string>;
  body: string;
}

export function parseMemory(content: Buffer): Parsed {
  let text = content.toString('utf8');
  const bom = text.startsWith('\ufeff');
  if (bom) text = text.slice(1);
  const crlf = text.includes('\r\n');
  const lines = text.split(/\r?\n/);
  const fm: Record<string, string> = {};
  let end = -1;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === '---') {
      end = i;
      break;
    }
  }
  const fmLines = lines.slice(1, end === -1 ? lines.length : end);
  for (const l of fmLines) {
    const m = /^([A-Za-z][\w-]*): (.*)$/.exec(l);
    if (!m) continue;
    const v = m[2]!;
    fm[m[1]!] = v.startsWith('"') ? (JSON.parse(v) as string) : v;
  }
  return { bom, crlf, closed: end !== -1, fm, body: end === -1 ? '' : lines.slice(end + 1).join('\n') };
}

export const DAY = 86_400_000;

/** Whole days between a `YYYY-MM-DD` date and the UTC date of `now`. */
export function dateAgeDays(date: string, now: Date): number {
  return Math.round((Date.parse(now.toISOString().slice(0, 10)) - Date.parse(date)) / DAY);
}

/** Days (fractional) between an ISO timestamp or date and `now`. */
export function ageDays(iso: string, now: Date): number {
  return (now.getTime() - Date.parse(iso)) / DAY;
}
