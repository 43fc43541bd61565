/**
 * A fast path for the common frontmatter: only `key: plain value` lines, and one-line
 * quoted values with nothing to unescape (`key: "a: b"`, `key: 'it''s'`). Nearly every real
 * memory looks like that, and the YAML parser costs ~20× more than reading them directly
 * (a quoted `quarantine-reason` or `description` sent a file down the YAML path:
 * docs/performance.md). Anything the line grammar is not sure about (escapes, comments,
 * lists, nesting, null-ish values, duplicates, odd spacing) returns null and the caller
 * uses the full YAML path. A property test holds both paths equal.
 */
import { FM_FIRST_FILE_LINE } from './lines';
import type { FmValue, ParsedFrontmatter } from './types';

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
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    let key: string;
    let value: string;
    const m = LINE.exec(line);
    if (m) {
      key = m[1]!;
      value = m[2]!;
      if (UNSAFE.test(value) || NULLISH.has(value)) return null;
    } else {
      const q = QUOTED.exec(line);
      if (!q) return null;
      key = q[1]!;
      value = q[2] ?? q[3]!.replaceAll("''", "'");
    }
    if (parsed.keyLines.has(key)) return null;
    parsed.keys.push(key);
    parsed.keyLines.set(key, i + FM_FIRST_FILE_LINE);
    parsed.data[key] = value;
  }
  return parsed;
}
