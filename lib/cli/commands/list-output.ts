/**
 * How `list` prints tens of thousands of items (docs/performance.md, "memtrust list"):
 * the same bytes as `io.out(JSON.stringify(value, null, 2))` or `io.out(lines.join('\n'))`,
 * built and written in parts, so no one string holds the whole listing and the items of a
 * part die young. Nothing is written until every part is built: a failure half-way leaves
 * stdout empty, as before.
 */
import type { Io } from '../io';

/** A string no item can hold at that place: it marks where the items go in the outer object's text. */
const MARK = '\u0000memtrust-items\u0000';
const MARK_LINE = `[\n    ${JSON.stringify(MARK)}\n  ]`;
/** `JSON.stringify({ items: part }, null, 2)` around the part's items, which then sit at the outer indentation. */
const PART_HEAD = '{\n  "items": [\n';
const PART_TAIL = '\n  ]\n}';

/**
 * The text of `JSON.stringify({ ...head, items, ...tail }, null, 2)` where `items` is the
 * concatenation of `parts`, as a list of strings to write in order. `head` and `tail` are
 * small (the total, problems…); each part is stringified by JSON.stringify itself.
 */
export class JsonItems {
  private readonly texts: string[] = [];

  /** Adds the next items (empty parts add nothing). */
  add(items: readonly unknown[]): void {
    if (items.length === 0) return;
    const text = JSON.stringify({ items }, null, 2);
    this.texts.push(text.slice(PART_HEAD.length, text.length - PART_TAIL.length));
  }

  /** The whole document's parts, given the keys before and after `items`. */
  finish(head: Record<string, unknown>, tail: Record<string, unknown>): string[] {
    if (this.texts.length === 0) return [JSON.stringify({ ...head, items: [], ...tail }, null, 2)];
    const outer = JSON.stringify({ ...head, items: [MARK], ...tail }, null, 2);
    // head holds no user text, so the first mark line is the one in `items`.
    const at = outer.indexOf(MARK_LINE);
    const out: string[] = [outer.slice(0, at + 2)];
    for (let i = 0; i < this.texts.length; i++) out.push(i === 0 ? this.texts[i]! : `,\n${this.texts[i]}`);
    out.push(outer.slice(at + MARK_LINE.length - 4));
    return out;
  }
}

/** Writes parts as one `io.out` line would print their concatenation (with its newline). */
export function writeParts(io: Io, parts: readonly string[]): void {
  if (!io.write) {
    io.out(parts.join(''));
    return;
  }
  for (const p of parts) io.write(p);
  io.write('\n');
}

/** Lines as `io.out(lines.join('\n'))` prints them, written a few thousand at a time. */
export function writeLines(io: Io, lines: readonly string[], per = 4096): void {
  const parts: string[] = [];
  for (let i = 0; i < lines.length; i += per) {
    const text = lines.slice(i, i + per).join('\n');
    parts.push(i === 0 ? text : `\n${text}`);
  }
  writeParts(io, parts);
}
