/**
 * Turns edits into text splices on the decoded frontmatter. Each splice is
 * confined to the lines of one key, so every other byte stays as written.
 */
import type { Pair } from 'yaml';
import { isScalar } from './yaml-lazy';
import { displayKey, scalarText } from './fm-walk';
import { lineEol, lineOf, lineStart, nextLineStart, type LineIndex } from './lines';
import { RewriteError } from './rewrite-error';
import { encodeScalar } from './scalar-encode';

export interface Splice {
  start: number;
  end: number;
  text: string;
}

interface PairLayout {
  keyLine: number;
  /** Column of the key: the indentation new keys copy. */
  indent: number;
  /** Offset of the `:` after the key. */
  colon: number;
  /** Source span of the value, or null when the value is empty (`key:`). */
  value: { start: number; end: number } | null;
}

/** Where a `key: value` pair sits in the text; throws when it is not a plain one-key-per-line entry. */
export function layoutOf(pair: Pair, index: LineIndex): PairLayout {
  const key = scalarText(pair.key) ?? '';
  if (!isScalar(pair.key) || !pair.key.range) throw unsupported(key);
  if (pair.value !== null && !isScalar(pair.value)) {
    throw new RewriteError('not-a-simple-scalar', `${displayKey(key)} is not a simple value`);
  }
  const keyStart = pair.key.range[0];
  const keyLine = lineOf(index, keyStart);
  const before = index.text.slice(lineStart(index, keyLine), keyStart);
  if (!/^ *$/.test(before)) throw unsupported(key);
  let colon = pair.key.range[1];
  while (index.text[colon] === ' ' || index.text[colon] === '\t') colon++;
  if (index.text[colon] !== ':') throw unsupported(key);
  const range = isScalar(pair.value) ? pair.value.range : undefined;
  const value = range && range[1] > range[0] ? { start: range[0], end: range[1] } : null;
  return { keyLine, indent: before.length, colon, value };
}

/** Column of a pair's key, which appended keys copy (a top-level map may be indented). */
export function keyIndent(pair: Pair | undefined, index: LineIndex): number {
  if (!pair || !isScalar(pair.key) || !pair.key.range) return 0;
  const start = pair.key.range[0];
  return start - lineStart(index, lineOf(index, start));
}

function unsupported(key: string): RewriteError {
  return new RewriteError('unsupported-layout', `${displayKey(key)} is not written as a simple \`key: value\` line`);
}

/** Last line the pair occupies (a block scalar's span ends with its own newline). */
function lastLine(layout: PairLayout, index: LineIndex): number {
  if (!layout.value) return layout.keyLine;
  return lineOf(index, Math.max(layout.value.start, layout.value.end - 1));
}

export function setSplice(layout: PairLayout, index: LineIndex, value: string): Splice {
  const encoded = encodeScalar(value);
  const { value: span } = layout;
  if (!span) return { start: layout.colon + 1, end: layout.colon + 1, text: ` ${encoded}` };
  const end = lastLine(layout, index);
  const oneLine = end === layout.keyLine && !index.text.slice(span.start, span.end).includes('\n');
  if (oneLine) return { start: span.start, end: span.end, text: encoded };
  // A multi-line value collapses onto the key line; the key and its spacing stay as written.
  return { start: layout.colon + 1, end: nextLineStart(index, end), text: ` ${encoded}${lineEol(index, end)}` };
}

export function removeSplice(layout: PairLayout, index: LineIndex): Splice {
  return { start: lineStart(index, layout.keyLine), end: nextLineStart(index, lastLine(layout, index)), text: '' };
}

export function appendSplice(index: LineIndex, lines: string[], eol: string): Splice {
  const at = index.text.length;
  const needsBreak = at > 0 && !index.text.endsWith('\n');
  return { start: at, end: at, text: (needsBreak ? eol : '') + lines.map((l) => l + eol).join('') };
}

export function applySplices(text: string, splices: Splice[]): string {
  const ordered = [...splices].sort((a, b) => b.start - a.start);
  let out = text;
  let limit = Infinity;
  for (const s of ordered) {
    if (s.end > limit) throw new RewriteError('verify-failed', 'internal error: overlapping edits');
    out = out.slice(0, s.start) + s.text + out.slice(s.end);
    limit = s.start;
  }
  return out;
}
