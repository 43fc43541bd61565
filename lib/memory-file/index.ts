/** Public API of the memory-file module: split, read and minimally rewrite memory files. */
import { parseFrontmatter } from './frontmatter';
import { splitFile, type SplitError, type SplitFile } from './split';
import type { ParsedFrontmatter } from './types';

export { BOM, splitFile, type Eol, type SplitError, type SplitFile } from './split';
export { decodeFrontmatter, parseFrontmatter, withFrontmatterMemo } from './frontmatter';
export { rewriteFrontmatter, RewriteError, type FrontmatterEdits, type RewriteErrorCode } from './rewrite';
export { encodeScalar } from './scalar-encode';
export { isKnownKey, KNOWN_KEYS, type KnownKey } from './known-keys';
export { MAX_NESTING_DEPTH } from './depth-guard';
export {
  FATAL_FM_ERRORS,
  type FmError,
  type FmErrorCode,
  type FmMap,
  type FmValue,
  type ParsedFrontmatter,
} from './types';

export type MemoryRead = { ok: true; split: SplitFile; fm: ParsedFrontmatter; body: Buffer } | SplitError;

/** Split and parse in one go; `body` is a view on the original bytes (never re-encoded). */
export function readMemory(bytes: Buffer): MemoryRead {
  const split = splitFile(bytes);
  if (!split.ok) return split;
  return { ok: true, split, fm: parseFrontmatter(bytes, split), body: bytes.subarray(split.bodyStart) };
}
