/**
 * How `list` prints tens of thousands of items (docs/performance.md, "memtrust list"):
 * the same bytes as `io.out(JSON.stringify(value, null, 2))` or `io.out(lines.join('\n'))`,
 * built and written in parts, so no one string holds the whole listing and the items of a
 * part die young. Nothing is written until every part is built: a failure half-way leaves
 * stdout empty, as before.
 */
import type { Io } from '../io';

/** `JSON.stringify({ [key]: part }, null, 2)` ends so around the part's items, which then sit at the outer indentation. */
const PART_TAIL = '\n  ]\n}';

/**
 * The text of `JSON.stringify({ ...head, [key]: items, ...tail }, null, 2)` where `items`
 * is the concatenation of the parts added, as a list of strings to write in order. `head`
 * and `tail` are small (the total, a record, problems…); each part is stringified by
 * JSON.stringify itself.
 */
export class JsonItems {
  private readonly texts: string[] = [];
  /** `JSON.stringify({ [key]: part }, null, 2)` before the part's items. */
  private readonly partHead: string;

  constructor(private readonly key = 'items') {
    this.partHead = `{\n  ${JSON.stringify(key)}: [\n`;
  }

  /** Adds the next items (empty parts add nothing). */
  add(items: readonly unknown[]): void {
    if (items.length === 0) return;
    const text = JSON.stringify({ [this.key]: items }, null, 2);
    this.texts.push(text.slice(this.partHead.length, text.length - PART_TAIL.length));
  }

  /** The whole document's parts, given the keys before and after `items`. */
  finish(head: Record<string, unknown>, tail: Record<string, unknown>): string[] {
    if (this.texts.length === 0) return [JSON.stringify({ ...head, [this.key]: [], ...tail }, null, 2)];
    // A mark the head does not hold: its first line in the outer text is where the items go.
    const before = JSON.stringify(head);
    let mark = '\u0000memtrust-items\u0000';
    while (before.includes(JSON.stringify(mark).slice(1, -1))) mark += '\u0000';
    const outer = JSON.stringify({ ...head, [this.key]: [mark], ...tail }, null, 2);
    const line = `[\n    ${JSON.stringify(mark)}\n  ]`;
    const at = outer.indexOf(line);
    const out: string[] = [outer.slice(0, at + 2)];
    for (let i = 0; i < this.texts.length; i++) out.push(i === 0 ? this.texts[i]! : `,\n${this.texts[i]}`);
    out.push(outer.slice(at + line.length - 4));
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
