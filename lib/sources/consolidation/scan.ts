/**
 * A small JSON scanner for one record line (docs/consolidation-layout.md, "Rewrites"):
 * it finds where each top-level member's key and value stand, so a field change
 * replaces only that value's characters and everything else on the line — key
 * order, spacing, escapes, unknown keys — stays as written. Linear in the line's length.
 */

export interface Member {
  /** Decoded key. */
  name: string;
  /** Offsets in the line text: the key's opening quote, just past its closing quote. */
  keyStart: number;
  keyEnd: number;
  /** The value's first character and just past its last. */
  valueStart: number;
  valueEnd: number;
}

export interface ObjectSpans {
  /** Offsets of `{` and `}`. */
  open: number;
  close: number;
  members: Member[];
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function skipWs(s: string, i: number): number {
  while (i < s.length && isWs(s.charCodeAt(i))) i++;
  return i;
}

/** `i` is at an opening quote; returns the offset just past the closing one, or -1. */
function stringEnd(s: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = s.indexOf('"', j);
    if (q === -1) return -1;
    // An odd run of backslashes before the quote escapes it.
    let b = q - 1;
    while (b >= j && s.charCodeAt(b) === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** `i` is at a value's first character; returns the offset just past it, or -1. */
function valueEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x22) return stringEnd(s, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    let j = i;
    while (j < s.length) {
      const d = s.charCodeAt(j);
      if (d === 0x22) {
        j = stringEnd(s, j);
        if (j === -1) return -1;
        continue;
      }
      if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
  // number, true, false, null
  let j = i;
  while (j < s.length) {
    const d = s.charCodeAt(j);
    if (d === 0x2c || d === 0x7d || d === 0x5d || isWs(d)) break;
    j++;
  }
  return j > i ? j : -1;
}

/**
 * The previous line's raw keys and names, by position: the lines of a store mostly
 * repeat the same keys in the same order, so a key is matched in place (no copy) and
 * its name shared instead of sliced again for every line.
 */
const lastRaw: string[] = [];
const lastName: string[] = [];

function keyName(s: string, start: number, end: number, k: number): string {
  const raw = lastRaw[k];
  if (raw !== undefined && raw.length === end - start && s.startsWith(raw, start)) return lastName[k]!;
  const text = s.slice(start, end);
  const name = text.includes('\\') ? (JSON.parse(text) as string) : text.slice(1, -1);
  if (k < 64) {
    lastRaw[k] = text;
    lastName[k] = name;
  }
  return name;
}

/**
 * The spans of a line holding one JSON object (surrounding whitespace allowed), or
 * null when the line is not one. Meant for lines JSON.parse accepted: it checks the
 * structure, not every literal.
 */
export function scanObject(s: string): ObjectSpans | null {
  let i = skipWs(s, 0);
  if (s.charCodeAt(i) !== 0x7b) return null;
  const open = i;
  const members: Member[] = [];
  i = skipWs(s, i + 1);
  if (s.charCodeAt(i) === 0x7d) {
    return skipWs(s, i + 1) === s.length ? { open, close: i, members } : null;
  }
  for (;;) {
    if (s.charCodeAt(i) !== 0x22) return null;
    const keyStart = i;
    const keyEnd = stringEnd(s, i);
    if (keyEnd === -1) return null;
    i = skipWs(s, keyEnd);
    if (s.charCodeAt(i) !== 0x3a) return null;
    i = skipWs(s, i + 1);
    const vStart = i;
    const vEnd = valueEnd(s, i);
    if (vEnd === -1) return null;
    members.push({
      name: keyName(s, keyStart, keyEnd, members.length),
      keyStart,
      keyEnd,
      valueStart: vStart,
      valueEnd: vEnd,
    });
    i = skipWs(s, vEnd);
    const c = s.charCodeAt(i);
    if (c === 0x2c) {
      i = skipWs(s, i + 1);
      continue;
    }
    if (c === 0x7d) return skipWs(s, i + 1) === s.length ? { open, close: i, members } : null;
    return null;
  }
}

/** A field change: a new JSON value for `name` (set, or appended when the key is absent). */
export interface FieldChange {
  name: string;
  value: unknown;
}

/**
 * The line with each named field's value replaced (JSON.stringify of the new value)
 * and absent ones appended before the closing brace, in the line's own spacing
 * (its `": "` / `", "` style, taken from its first members). Every other character
 * stays. Throws when a named key appears twice (the caller refuses such a line).
 */
export function setFields(line: string, spans: ObjectSpans, changes: FieldChange[]): string {
  const repl: { start: number; end: number; text: string }[] = [];
  const appended: FieldChange[] = [];
  for (const ch of changes) {
    const found = spans.members.filter((m) => m.name === ch.name);
    if (found.length > 1) throw new Error(`key ${ch.name} appears ${found.length} times on the line`);
    const m = found[0];
    if (m) repl.push({ start: m.valueStart, end: m.valueEnd, text: JSON.stringify(ch.value) });
    else appended.push(ch);
  }
  if (appended.length) {
    const first = spans.members[0];
    const second = spans.members[1];
    const colon = first ? line.slice(first.keyEnd, first.valueStart) : ':';
    const comma =
      first && second ? line.slice(first.valueEnd, second.keyStart) : first && /^\s*:\s+/.test(colon) ? ', ' : ',';
    const last = spans.members.at(-1);
    const at = last ? last.valueEnd : spans.open + 1;
    const text = appended
      .map((ch, k) => `${last || k > 0 ? comma : ''}${JSON.stringify(ch.name)}${colon}${JSON.stringify(ch.value)}`)
      .join('');
    repl.push({ start: at, end: at, text });
  }
  repl.sort((a, b) => b.start - a.start);
  let out = line;
  for (const r of repl) out = out.slice(0, r.start) + r.text + out.slice(r.end);
  return out;
}
