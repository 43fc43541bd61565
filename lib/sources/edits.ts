/**
 * Applying a plan's file edits to bytes in memory (docs/records-write.md): the one
 * place that turns FileEdits into new file contents, for the write pipeline's overlay
 * and for any adapter that wants to preview its own plan. Pure: the files are read
 * through `read`, nothing is written. Lines are split on `\n` bytes so every byte
 * outside the replaced lines (CRLF, a missing final newline, invalid UTF-8) is kept.
 */
import type { FileEdit, RecordPlanResult, ReplaceLines } from './record';

export class EditConflict extends Error {}

/** Byte offsets of each line: [start, end) with the terminator included. */
export function lineSpans(bytes: Buffer): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl + 1;
    out.push([start, end]);
    start = end;
  }
  return out;
}

/** Bytes of lines [from, to] (1-based, inclusive); empty when to < from or out of range. */
export function linesOf(bytes: Buffer, from: number, to: number): Buffer | null {
  const spans = lineSpans(bytes);
  if (to < from) return Buffer.alloc(0);
  if (from < 1 || to > spans.length) return null;
  return bytes.subarray(spans[from - 1]![0], spans[to - 1]![1]);
}

/** One line-range replacement, after checking the replaced bytes are exactly `expect`. */
export function replaceLines(bytes: Buffer, e: ReplaceLines): Buffer {
  const spans = lineSpans(bytes);
  if (e.line < 1 || e.count < 0 || e.line > spans.length + 1 || e.line + e.count - 1 > spans.length) {
    throw new EditConflict(`${e.file}: lines ${e.line}–${e.line + e.count - 1} are not in the file`);
  }
  const start = e.line <= spans.length ? spans[e.line - 1]![0] : bytes.length;
  const end = e.count ? spans[e.line + e.count - 2]![1] : start;
  if (!bytes.subarray(start, end).equals(e.expect))
    throw new EditConflict(`${e.file}: lines ${e.line}–${e.line + e.count - 1} changed`);
  return Buffer.concat([bytes.subarray(0, start), e.bytes, bytes.subarray(end)]);
}

/** Lines in a buffer (a final line without terminator counts). */
export const lineCount = (b: Buffer): number => lineSpans(b).length;

/**
 * The files after `edits`, applied in order, each checked against what it expects.
 * `state` holds the files already changed (null: absent); it is updated in place.
 */
export function applyEdits(
  read: (file: string) => Buffer | null,
  edits: FileEdit[],
  state = new Map<string, Buffer | null>(),
): Map<string, Buffer | null> {
  const get = (file: string) => (state.has(file) ? state.get(file)! : read(file));
  for (const e of edits) {
    if (e.kind === 'move') {
      const src = get(e.from);
      if (!src) throw new EditConflict(`${e.from} is missing`);
      if (get(e.to)) throw new EditConflict(`${e.to} already exists`);
      state.set(e.to, src);
      state.set(e.from, null);
    } else if (e.kind === 'write') {
      const cur = get(e.file);
      if (e.expect === null ? cur !== null : !cur?.equals(e.expect)) throw new EditConflict(`${e.file} changed`);
      state.set(e.file, e.bytes);
    } else if (e.kind === 'remove') {
      const cur = get(e.file);
      if (!cur?.equals(e.expect)) throw new EditConflict(`${e.file} changed`);
      state.set(e.file, null);
    } else {
      const cur = get(e.file);
      if (!cur) throw new EditConflict(`${e.file} is missing`);
      state.set(e.file, replaceLines(cur, e));
    }
  }
  return state;
}

/**
 * The edits that undo `edits` once they were applied: each one swapped, in reverse order.
 * A line-range edit's undo replaces the lines it wrote with the bytes it replaced.
 */
export function invertEdits(edits: FileEdit[]): FileEdit[] {
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every FileEdit kind (tsc checks it against the return type)
  return [...edits].reverse().map((e): FileEdit => {
    switch (e.kind) {
      case 'move':
        return { kind: 'move', from: e.to, to: e.from };
      case 'write':
        return e.expect === null
          ? { kind: 'remove', file: e.file, expect: e.bytes }
          : { kind: 'write', file: e.file, expect: e.bytes, bytes: e.expect };
      case 'remove':
        return { kind: 'write', file: e.file, expect: null, bytes: e.expect };
      case 'replace-lines':
        return {
          kind: 'replace-lines',
          file: e.file,
          line: e.line,
          count: lineCount(e.bytes),
          expect: e.bytes,
          bytes: e.expect,
        };
    }
  });
}

/**
 * The plan of an action that rewrites one line of one file (a JSON Lines record):
 * `expect` is the line as read (the pipeline refuses when it changed), `bytes` the new one.
 */
export function oneLinePlan(
  file: string,
  line: number,
  expect: Buffer,
  bytes: Buffer,
  memo: Record<string, string | number>,
  summary: string,
): RecordPlanResult {
  return {
    ok: true,
    plan: { edits: [{ kind: 'replace-lines', file, line, count: 1, expect, bytes }], memo, files: [file], summary },
  };
}
