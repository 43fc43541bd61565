/**
 * The path globs `governs` uses: `**` (any folders), `*` and `?` (inside one path
 * segment), `[...]` and `{a,b}`. A pattern without them is a literal path.
 */

export function isGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

const cache = new Map<string, RegExp>();

export function globToRegExp(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let re = '';
  let i = 0;
  let brace = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const slashAfter = pattern[i + 2] === '/';
        // `**/` = zero or more folders; a trailing `**` = everything below.
        re += slashAfter ? '(?:[^/]*(?:/|$))*' : '.*';
        i += slashAfter ? 3 : 2;
        continue;
      }
      re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close === -1) re += '\\[';
      else {
        const body = pattern
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = close;
      }
    } else if (c === '{') {
      brace++;
      re += '(?:';
    } else if (c === '}' && brace > 0) {
      brace--;
      re += ')';
    } else if (c === ',' && brace > 0) re += '|';
    else re += c.replace(/[.+^$()|\\\]}]/g, '\\$&');
    i++;
  }
  const out = new RegExp(`^${re}$`);
  cache.set(pattern, out);
  return out;
}

/** The literal folder a glob starts from (`src/**` → `src`), '' for none. */
export function staticPrefix(pattern: string): string {
  const parts = pattern.split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (isGlob(p)) break;
    out.push(p);
  }
  return out.join('/');
}
