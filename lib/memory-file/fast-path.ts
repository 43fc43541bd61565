/**
 * A fast path for the common frontmatter: only `key: plain value` lines, and one-line
 * quoted values with nothing to unescape (`key: "a: b"`, `key: 'it''s'`). Nearly every real
 * memory looks like that, and the YAML parser costs ~20× more than reading them directly
 * (a quoted `quarantine-reason` or `description` sent a file down the YAML path:
 * docs/performance.md), and one level of `key:` + indented `key: value` lines, the
 * `metadata:` block current Claude Code files carry (it sent every such file down the YAML
 * path: docs/performance-validators.md, "validate: fast path"). Anything the line grammar
 * is not sure about (escapes, comments, lists, deeper nesting, null-ish values, duplicates,
 * odd spacing) returns null and the caller uses the full YAML path. A property test holds
 * both paths equal.
 */
import { FM_FIRST_FILE_LINE } from './lines';
import { isKnownKey, METADATA_KEY, NESTED_READ_KEYS } from './known-keys';
import type { FmMap, FmValue, ParsedFrontmatter } from './types';

const LINE = /^([A-Za-z_][A-Za-z0-9_-]*): ([^\s#&*!|>'"%@`{}[\],?:-][^\t\r\n]*)$/;
/** Text a YAML reader would not read back as the same plain string. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point: YAML would not read them back as plain text
const UNSAFE = /: |:$| #|\s$|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
const NULLISH = new Set(['null', 'Null', 'NULL', '~']);
/**
 * A one-line quoted value ending the line: double quotes with no backslash (no escapes) and
 * no quote inside; single quotes whose only escape is a doubled quote. Control, line-separator
 * and BOM characters go to the YAML path, which decides what they mean.
 */
const QUOTED =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: excluding control characters is the point
  /^([A-Za-z_][A-Za-z0-9_-]*): (?:"([^"\\\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]*)"|'((?:[^'\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]|'')*)')$/;

/** `key:` alone on its line: a block mapping follows (the fast path reads one level of it). */
const BLOCK_KEY = /^([A-Za-z_][A-Za-z0-9_-]*):$/;

/** One `key: value` line (indent removed) as [key, value], or null when the line grammar is not sure. */
function readPair(line: string): [string, string] | null {
  const m = LINE.exec(line);
  if (m) {
    const value = m[2]!;
    if (UNSAFE.test(value) || NULLISH.has(value)) return null;
    return [m[1]!, value];
  }
  const q = QUOTED.exec(line);
  if (!q) return null;
  return [q[1]!, q[2] ?? q[3]!.replaceAll("''", "'")];
}

/** The number of leading spaces of `line` (tabs are never YAML indentation). */
function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

export function parseSimpleFrontmatter(text: string): ParsedFrontmatter | null {
  const parsed: ParsedFrontmatter = {
    data: Object.create(null) as Record<string, FmValue>,
    keys: [],
    keyLines: new Map(),
    errors: [],
  };
  if (text === '') return parsed;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) lines[i] = stripCr(lines[i]!);
  /** The `metadata:` block's pairs with their file lines, when the block has one. */
  let meta: Array<[string, string, number]> | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const keyLine = i + FM_FIRST_FILE_LINE;
    let pair = readPair(line);
    let block: FmMap | null = null;
    if (pair === null) {
      // `key:` then one level of `  key: value` lines, all at the same indent: current
      // Claude Code files nest `type` and friends under `metadata:`
      // (docs/performance-validators.md, "validate: fast path").
      const b = BLOCK_KEY.exec(line);
      const indent = b ? indentOf(lines[i + 1] ?? '') : 0;
      if (!b || indent === 0 || isKnownKey(b[1]!)) return null;
      block = Object.create(null) as FmMap;
      const pairs: Array<[string, string, number]> = [];
      for (; i + 1 < lines.length && lines[i + 1]!.charCodeAt(0) === 32; i++) {
        const child = lines[i + 1]!;
        if (indentOf(child) !== indent) return null;
        const p = readPair(child.slice(indent));
        // A duplicate inside the block is an error the YAML path reports.
        if (p === null || p[0] in block) return null;
        block[p[0]] = p[1];
        pairs.push([p[0], p[1], i + 1 + FM_FIRST_FILE_LINE]);
      }
      pair = [b[1]!, ''];
      if (pair[0] === METADATA_KEY) meta = pairs;
    }
    const key = pair[0];
    if (parsed.keyLines.has(key)) return null;
    parsed.keys.push(key);
    parsed.keyLines.set(key, keyLine);
    parsed.data[key] = block ?? pair[1];
  }
  if (meta !== null) readNestedPairs(meta, parsed);
  return parsed;
}

/** What frontmatter.ts's readNested does with the same pairs: the top level wins, first of each key. */
function readNestedPairs(pairs: ReadonlyArray<[string, string, number]>, parsed: ParsedFrontmatter): void {
  const nested: string[] = [];
  for (const [key, value, line] of pairs) {
    if (!NESTED_READ_KEYS.has(key) || key in parsed.data) continue;
    parsed.data[key] = value;
    parsed.keyLines.set(key, line);
    nested.push(key);
  }
  if (nested.length > 0) parsed.nested = nested;
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
