/**
 * Character tests the credential scans run per character (pure). The product runs them
 * bundled, where a call into this module is a direct call
 * (docs/performance-validators.md, "Both scanners: fast paths").
 */
/** A set of ASCII characters as a lookup table over char codes 0–127. */
export function asciiSet(chars: string): Uint8Array {
  const set = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) {
    const c = chars.charCodeAt(i);
    if (c >= 128) throw new Error(`asciiSet: not ASCII: ${chars[i]}`);
    set[c] = 1;
  }
  return set;
}

/**
 * Does `text` hold `min` consecutive characters of `set`, as the regex `[…]{min}` (the same
 * ASCII class) would say? It looks at the last position a run starting at `i` must cover
 * and jumps past it when that is not in the set, as encodedBlobStarts does, so ordinary
 * prose costs about one look per `min` characters
 * (docs/performance-validators.md, "Both scanners: fast paths").
 */
export function hasRun(text: string, set: Uint8Array, min: number): boolean {
  const n = text.length;
  // Invariant: no run of `min` starts before `i`, and `i` is 0 or follows a character outside the set.
  let i = 0;
  while (i + min <= n) {
    const j = i + min - 1;
    let c = text.charCodeAt(j);
    if (c >= 128 || set[c] !== 1) {
      i = j + 1;
      continue;
    }
    let start = j;
    while (start > i) {
      c = text.charCodeAt(start - 1);
      if (c >= 128 || set[c] !== 1) break;
      start--;
    }
    let end = j + 1;
    while (end < n && end - start < min) {
      c = text.charCodeAt(end);
      if (c >= 128 || set[c] !== 1) break;
      end++;
    }
    if (end - start >= min) return true;
    i = end + 1;
  }
  return false;
}

/**
 * Is the UTF-16 unit `c` one `\s` matches (ECMAScript WhiteSpace and LineTerminator)? For
 * gates that look at one character before running a regex that starts with `\s`.
 */
export function isJsSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * `text.includes(String.fromCharCode(before) + word)`, searched as `word` with `before` tested
 * in front of each occurrence: a pattern that starts with a frequent character (` AAAA`, `/home/`)
 * makes the native search stop at every space or slash, while the rest of it (`AAAA`) is rare.
 * Over the 40 real folders of docs/performance-validators.md: ` AAAA` 16 → 2.6 ms, `/Users/` or
 * `/home/` 10 → 4.9 ms ("secret-check: fast paths").
 */
export function includesAfter(text: string, before: number, word: string): boolean {
  for (let at = text.indexOf(word, 1); at !== -1; at = text.indexOf(word, at + 1))
    if (text.charCodeAt(at - 1) === before) return true;
  return false;
}
