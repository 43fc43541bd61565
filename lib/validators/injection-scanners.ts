/**
 * The two injection categories that need more than a regex (docs/validators.md):
 * executable URLs (the path, not the host, must end in an executable type)
 * and absolute-command density (a count over the body only).
 */
import { CATEGORIES } from './injection-patterns';
import { lineAt } from './scan-text';
import type { Finding } from './types';
import { asciiSet, isJsSpace } from './text-chars';

const URL_START = /https?:\/\//gi;
/** Characters that end a URL in prose or Markdown: `/[\s"'<>`()[\]{}|\\^]/`, on the char code. */
const URL_STOP = asciiSet('"\'<>`()[]{}|\\^');
export const isUrlStop = (c: number) => isJsSpace(c) || (c < 128 && URL_STOP[c] === 1);
const EXECUTABLE_PATH = /\.(sh|ps1|exe|php|cgi)$/i;

function flagged(category: keyof typeof CATEGORIES, line: number, detail: string): Finding {
  return {
    check: 'injection',
    code: `injection.${category}`,
    label: 'FLAGGED',
    line,
    message: `${CATEGORIES[category]}: ${detail}`,
  };
}

/**
 * http(s) URLs whose path ends in .sh .ps1 .exe .php .cgi. The URL end is found
 * by one forward scan and a URL nested inside another is skipped, so a line of
 * `https://a=https://a=…` stays linear. `https://bun.sh` is a host, not a script.
 */
export function executableUrlFindings(text: string, starts: readonly number[]): Finding[] {
  const out: Finding[] = [];
  let scannedTo = 0;
  URL_START.lastIndex = 0;
  for (let m = URL_START.exec(text); m !== null; m = URL_START.exec(text)) {
    if (m.index < scannedTo) continue;
    let end = m.index + m[0].length;
    while (end < text.length && !isUrlStop(text.charCodeAt(end))) end++;
    scannedTo = end;
    const rest = text.slice(m.index + m[0].length, end);
    const slash = rest.indexOf('/');
    if (slash === -1) continue;
    const path = (rest.slice(slash).split(/[?#]/)[0] ?? '').replace(/[.,;:!]+$/, '');
    const ext = EXECUTABLE_PATH.exec(path)?.[1];
    if (ext) out.push(flagged('executable-url', lineAt(starts, m.index), `URL path ends in .${ext.toLowerCase()}`));
  }
  return out;
}

/** "must always" is one absolute, not "must always" plus "always": the longer form is tried first and consumes it. */
const ABSOLUTE = /\b(?:must\s+(?:always|never)|always|never|from\s+now\s+on)\b/gi;

/**
 * Can ABSOLUTE match in a text whose lower-cased form is `lower`? Every match holds `never`,
 * `always` or `now` in some case, and under the non-Unicode `i` flag only ASCII letters match
 * an ASCII letter, which lower-casing turns into the lower-case word: so `lower` holds `ver`,
 * `ways` or `now`. `now` is a phrase hint word (injection-hints.ts), so the caller knows
 * already whether `lower` holds it; `ver` and `ways` are searched for rather than `never` and
 * `always` because a native search visits every place its first letter occurs, and `v` and
 * `w` are rarer than `n` and `a`. Most memories hold none: then the regex pass is skipped.
 */
export function mayHoldAbsolutes(lower: string, lowerHoldsNow: boolean): boolean {
  return lowerHoldsNow || lower.includes('ver') || lower.includes('ways');
}
const DENSITY_THRESHOLD = 3;

/** One finding when the body holds 3+ absolutes, placed at the first one. */
export function densityFindings(text: string, starts: readonly number[], bodyStart: number): Finding[] {
  const body = text.slice(bodyStart);
  let count = 0;
  let first = -1;
  ABSOLUTE.lastIndex = 0;
  for (let m = ABSOLUTE.exec(body); m !== null; m = ABSOLUTE.exec(body)) {
    if (count === 0) first = m.index;
    count++;
  }
  if (count < DENSITY_THRESHOLD) return [];
  return [
    flagged(
      'absolute-density',
      lineAt(starts, bodyStart + first),
      `${count} absolute commands (always/never/must always/must never/from now on) in the body`,
    ),
  ];
}
