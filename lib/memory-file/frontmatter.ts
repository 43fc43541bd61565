/**
 * Reads the frontmatter block of a memory file into plain, safe data.
 *
 * Every problem is returned as an FmError (the validator turns them into
 * FAIL-FORMAT findings); nothing here throws on bad input.
 */
import type { Document, YAMLMap } from 'yaml';
import { isMap, isPair, isScalar } from './yaml-lazy';
import { FRONTMATTER_CAP_BYTES } from '../validators/types';
import { displayKey, findNodeErrors, scalarText, toFmValue } from './fm-walk';
import { isKnownKey, METADATA_KEY, NESTED_READ_KEYS } from './known-keys';
import { fileLineOf, indexLines, type LineIndex } from './lines';
import type { SplitFile } from './split';
import type { FmError, FmValue, ParsedFrontmatter } from './types';
import { composeYaml } from './yaml-compose';
import { parseSimpleFrontmatter } from './fast-path';

export type DecodeResult = { ok: true; text: string } | { ok: false; error: FmError };

/** Fatal decoding: a lossy decode would hide bytes that a rewrite could not give back. */
export function decodeFrontmatter(bytes: Buffer, split: SplitFile): DecodeResult {
  const size = split.fmEnd - split.fmStart;
  if (size > FRONTMATTER_CAP_BYTES) {
    const message = `frontmatter too large (${size} bytes, limit 256 KiB)`;
    return { ok: false, error: { code: 'frontmatter-too-large', message, line: 2 } };
  }
  const range = bytes.subarray(split.fmStart, split.fmEnd);
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(range) };
  } catch {
    const message = 'frontmatter is not valid UTF-8';
    return { ok: false, error: { code: 'frontmatter-not-utf8', message, line: firstBadLine(range) } };
  }
}

/** File line of the first line that does not decode (only computed on the error path). */
function firstBadLine(range: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  for (let line = 2; start < range.length; line++) {
    const nl = range.indexOf(0x0a, start);
    const end = nl === -1 ? range.length : nl;
    try {
      decoder.decode(range.subarray(start, end));
    } catch {
      return line;
    }
    start = end + 1;
  }
  return 2;
}

export interface FrontmatterDoc {
  text: string;
  index: LineIndex;
  doc: Document.Parsed | null;
  /** The top-level mapping, when the block is one (null for an empty block). */
  map: YAMLMap.Parsed | null;
  parsed: ParsedFrontmatter;
}

function empty(errors: FmError[]): ParsedFrontmatter {
  return { data: Object.create(null) as Record<string, FmValue>, keys: [], keyLines: new Map(), errors };
}

/** Full parse keeping the YAML document, for the rewriter; parseFrontmatter is the data view. */
export function parseFrontmatterDoc(text: string): FrontmatterDoc {
  const index = indexLines(text);
  const { doc, errors } = composeYaml(text, index);
  const base = { text, index, doc, map: null };
  if (!doc || errors.length > 0) return { ...base, parsed: empty(errors) };
  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null && !contents.source)) {
    return { ...base, parsed: empty([]) };
  }
  if (!isMap(contents)) {
    const line = fileLineOf(index, contents.range?.[0] ?? 0);
    return { ...base, parsed: empty([{ code: 'not-a-mapping', message: 'frontmatter is not a mapping', line }]) };
  }
  const parsed = empty(findNodeErrors(doc, index));
  const seen = new Set<string>();
  for (const pair of contents.items) {
    if (!isPair(pair)) continue;
    const line = fileLineOf(index, isScalar(pair.key) ? (pair.key.range?.[0] ?? 0) : 0);
    const key = isScalar(pair.key) ? (scalarText(pair.key) ?? '') : null;
    if (key === null) {
      parsed.errors.push({ code: 'non-scalar-key', message: 'frontmatter keys must be plain text', line });
      continue;
    }
    if (seen.has(key)) continue;
    seen.add(key);
    parsed.keys.push(key);
    parsed.keyLines.set(key, line);
    if (!isKnownKey(key)) {
      parsed.data[key] = toFmValue(pair.value);
      continue;
    }
    if (pair.value !== null && !isScalar(pair.value)) {
      const message = `${displayKey(key)} must be a single value`;
      parsed.errors.push({ code: 'non-scalar-value', message, line, key });
      continue;
    }
    const value = scalarText(pair.value);
    if (value !== null) parsed.data[key] = value;
  }
  readNested(contents, index, parsed);
  parsed.errors.sort((a, b) => a.line - b.line);
  return { ...base, map: contents, parsed };
}

/**
 * Known fields the top level lacks, read from a top-level `metadata:` mapping
 * (docs/memory-files.md "Nested keys"; docs/claude-code-folders.md). A nested known key is
 * checked like a top-level one: a non-scalar value is the same format error.
 */
function readNested(contents: YAMLMap.Parsed, index: LineIndex, parsed: ParsedFrontmatter): void {
  const meta = contents.items.find((p) => isPair(p) && isScalar(p.key) && scalarText(p.key) === METADATA_KEY);
  if (!meta || !isMap(meta.value)) return;
  const nested: string[] = [];
  for (const pair of meta.value.items) {
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const key = scalarText(pair.key);
    if (key === null || !NESTED_READ_KEYS.has(key) || nested.includes(key)) continue;
    // The top level wins: a value there, or a top-level value already reported as unusable.
    if (key in parsed.data || parsed.errors.some((e) => e.key === key)) continue;
    const line = fileLineOf(index, pair.key.range?.[0] ?? 0);
    if (pair.value !== null && !isScalar(pair.value)) {
      if (isKnownKey(key))
        parsed.errors.push({
          code: 'non-scalar-value',
          message: `metadata.${displayKey(key)} must be a single value`,
          line,
          key,
        });
      continue;
    }
    const value = scalarText(pair.value);
    if (value === null) continue;
    parsed.data[key] = value;
    parsed.keyLines.set(key, line);
    nested.push(key);
  }
  if (nested.length > 0) parsed.nested = nested;
}

// One file's parse, shared by the callers inside one withFrontmatterMemo (docs/performance.md).
let memoDepth = 0;
let memo: { bytes: Buffer; start: number; end: number; parsed: ParsedFrontmatter } | null = null;

/** Parse the frontmatter range of a split file. */
export function parseFrontmatter(bytes: Buffer, split: SplitFile): ParsedFrontmatter {
  if (memoDepth > 0 && memo && memo.bytes === bytes && memo.start === split.fmStart && memo.end === split.fmEnd)
    return memo.parsed;
  const decoded = decodeFrontmatter(bytes, split);
  const parsed = decoded.ok
    ? (parseSimpleFrontmatter(decoded.text) ?? parseFrontmatterDoc(decoded.text).parsed)
    : empty([decoded.error]);
  if (memoDepth > 0) memo = { bytes, start: split.fmStart, end: split.fmEnd, parsed };
  return parsed;
}

/**
 * Inside `fn`, parsing the same Buffer's same frontmatter range again returns the first
 * result instead of decoding and parsing it twice (the index reads its fields, then the
 * validator parses the same bytes). Scoped on purpose: outside it every call parses, so a
 * caller that reuses a Buffer after changing its bytes never sees a stale result. Callers
 * must not change the bytes, or the returned object, inside `fn`.
 */
export function withFrontmatterMemo<T>(fn: () => T): T {
  memoDepth++;
  try {
    return fn();
  } finally {
    memoDepth--;
    if (memoDepth === 0) memo = null;
  }
}
