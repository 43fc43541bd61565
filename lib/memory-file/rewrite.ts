/**
 * Minimal-diff frontmatter rewrite (docs/memory-files.md): edited keys change on their
 * own lines, everything else — BOM, EOLs, comments, unknown keys, the closing
 * delimiter and every body byte — is copied through as bytes.
 */
import type { Pair } from 'yaml';
import { isPair } from './yaml-lazy';
import { displayKey, scalarText } from './fm-walk';
import { decodeFrontmatter, parseFrontmatter, parseFrontmatterDoc } from './frontmatter';
import { RewriteError } from './rewrite-error';
import { appendSplice, applySplices, keyIndent, layoutOf, removeSplice, setSplice, type Splice } from './rewrite-plan';
import { encodeScalar } from './scalar-encode';
import { splitFile, type SplitFile } from './split';
import type { ParsedFrontmatter } from './types';

export { RewriteError, type RewriteErrorCode } from './rewrite-error';

export interface FrontmatterEdits {
  set?: Record<string, string>;
  remove?: string[];
}

/** Keys we are willing to write: they need no quoting and cannot be `__proto__`. */
const WRITABLE_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

function normalise(edits: FrontmatterEdits): { set: Map<string, string>; remove: Set<string> } {
  const set = new Map<string, string>();
  for (const [key, value] of Object.entries(edits.set ?? {})) {
    if (!WRITABLE_KEY.test(key) || typeof value !== 'string') {
      throw new RewriteError('invalid-edit', `cannot set ${displayKey(key)}`);
    }
    set.set(key, value);
  }
  const remove = new Set<string>();
  for (const key of edits.remove ?? []) {
    if (!WRITABLE_KEY.test(key) || set.has(key))
      throw new RewriteError('invalid-edit', `cannot remove ${displayKey(key)}`);
    remove.add(key);
  }
  return { set, remove };
}

function requireSplit(bytes: Buffer): SplitFile {
  const split = splitFile(bytes);
  if (!split.ok) throw new RewriteError('no-frontmatter', 'the file has no complete frontmatter block');
  return split;
}

export function rewriteFrontmatter(bytes: Buffer, edits: FrontmatterEdits): Buffer {
  const split = requireSplit(bytes);
  const decoded = decodeFrontmatter(bytes, split);
  if (!decoded.ok) throw new RewriteError('invalid-frontmatter', decoded.error.message, [decoded.error]);
  const fm = parseFrontmatterDoc(decoded.text);
  const errors = fm.parsed.errors;
  if (errors.length > 0) {
    const onlyShape = errors.every((e) => e.code === 'non-scalar-value');
    const message = errors[0]?.message ?? 'invalid frontmatter';
    throw new RewriteError(onlyShape ? 'not-a-simple-scalar' : 'invalid-frontmatter', message, errors);
  }
  if (fm.map?.flow) throw new RewriteError('unsupported-layout', 'the frontmatter is a flow mapping ({…})');

  const { set, remove } = normalise(edits);
  const pairs = new Map<string, Pair>();
  for (const item of fm.map?.items ?? []) {
    const key = isPair(item) ? scalarText(item.key) : null;
    if (key !== null && !pairs.has(key)) pairs.set(key, item);
  }
  const indent = keyIndent(fm.map?.items[0], fm.index);
  const splices: Splice[] = [];
  const appended: string[] = [];
  for (const [key, value] of set) {
    const pair = pairs.get(key);
    if (pair) splices.push(setSplice(layoutOf(pair, fm.index), fm.index, value));
    else appended.push(`${' '.repeat(indent)}${key}: ${encodeScalar(value)}`);
  }
  for (const key of remove) {
    const pair = pairs.get(key);
    if (pair) splices.push(removeSplice(layoutOf(pair, fm.index), fm.index));
  }
  if (appended.length > 0) splices.push(appendSplice(fm.index, appended, split.eol));
  if (splices.length === 0) return Buffer.from(bytes);

  const text = applySplices(fm.text, splices);
  const out = Buffer.concat([bytes.subarray(0, split.fmStart), Buffer.from(text, 'utf8'), bytes.subarray(split.fmEnd)]);
  verify({ before: bytes, split, old: fm.parsed }, out, set, remove);
  return out;
}

interface Original {
  before: Buffer;
  split: SplitFile;
  old: ParsedFrontmatter;
}

/** Re-reads the output: a layout we misjudged must fail loudly, never write a wrong file. */
function verify({ before, split, old }: Original, out: Buffer, set: Map<string, string>, remove: Set<string>): void {
  const fail = (why: string) => new RewriteError('verify-failed', `rewrite check failed: ${why}`);
  const outSplit = splitFile(out);
  if (!outSplit.ok || !out.subarray(outSplit.bodyStart).equals(before.subarray(split.bodyStart)))
    throw fail('body changed');
  const now = parseFrontmatter(out, outSplit);
  if (now.errors.length > 0) throw fail(now.errors[0]?.message ?? 'frontmatter no longer parses');
  for (const [key, value] of set) if (now.data[key] !== value) throw fail(`${displayKey(key)} did not read back`);
  const untouched = (k: string) => !set.has(k) && !remove.has(k);
  const oldKeys = old.keys.filter(untouched);
  const nowKeys = now.keys.filter(untouched);
  if (JSON.stringify(oldKeys) !== JSON.stringify(nowKeys) || now.keys.some((k) => remove.has(k)))
    throw fail('keys changed');
  for (const key of oldKeys) {
    if (JSON.stringify(old.data[key]) !== JSON.stringify(now.data[key])) throw fail(`${displayKey(key)} changed`);
  }
}
