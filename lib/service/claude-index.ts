/**
 * The MEMORY.md index of a Claude Code memory folder (seed 003): which files it
 * names (a file it does not name is "not loaded"), and the line edits that
 * quarantine and restore make to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { SourceInfo } from '../sources';

export const INDEX_MAX_LINES = 200;
export const INDEX_MAX_BYTES = 25_000;

const LINK = /\]\(([^)\s]+\.md)\)/;

/** The filename a `- [Title](file.md) — hook` line points to, if any. */
export function linkedFile(line: string): string | null {
  const m = LINK.exec(line);
  return m ? path.posix.basename(m[1]!) : null;
}

export function readIndex(root: string, indexFile: string): string | null {
  try {
    return fs.readFileSync(path.join(root, indexFile), 'utf8');
  } catch {
    return null;
  }
}

export function markIndexed(sqlite: Database.Database, source: SourceInfo): void {
  const text = readIndex(source.root, source.adapter.indexFile!) ?? '';
  const named = new Set(text.split('\n').map(linkedFile).filter((x): x is string => !!x));
  const rows = sqlite.prepare("SELECT key, filename FROM memories WHERE source = ? AND location = 'memories'").all(source.id) as { key: string; filename: string }[];
  const set = sqlite.prepare('UPDATE memories SET indexed = ? WHERE key = ?');
  sqlite.transaction(() => {
    for (const r of rows) set.run(named.has(r.filename) ? 1 : 0, r.key);
  })();
}

/** Index text without the line(s) naming `filename`; returns the removed line and its position. */
export function removeIndexLine(text: string, filename: string): { text: string; line: string | null; at: number } {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => linkedFile(l) === filename);
  if (at === -1) return { text, line: null, at: -1 };
  const [line] = lines.splice(at, 1);
  return { text: lines.join('\n'), line: line ?? null, at };
}

/** Puts a line back at `at` (where it was) or at the end when unknown or out of range. */
export function insertIndexLine(text: string, line: string, at: number): string {
  const lines = text === '' ? [] : text.split('\n');
  if (lines.some((l) => linkedFile(l) === linkedFile(line))) return text;
  const endsWithNl = lines.length > 0 && lines[lines.length - 1] === '';
  if (endsWithNl) lines.pop();
  const pos = at >= 0 && at <= lines.length ? at : lines.length;
  lines.splice(pos, 0, line);
  return lines.join('\n') + (endsWithNl || lines.length === 1 ? '\n' : '');
}

/** The index's lines, without the empty string a final newline leaves. */
export function indexLines(text: string): string[] {
  const lines = text === '' ? [] : text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export interface LayoutLine {
  line: string;
  /** A memory line removed from the index (its memory is in quarantine). */
  removed: boolean;
}

/**
 * The index's layout — every line in order, removed memory lines included — brought up to
 * date with the text: lines added since are kept where they are, lines deleted by hand are
 * dropped, memory lines absent from the text stay as removed. Null when lines were moved.
 */
export function mergeLayout(layout: readonly string[], lines: readonly string[]): LayoutLine[] | null {
  const out: LayoutLine[] = [];
  let i = 0;
  let j = 0;
  while (i < layout.length || j < lines.length) {
    const l = layout[i];
    const t = lines[j];
    if (l !== undefined && l === t) {
      out.push({ line: l, removed: false });
      i++;
      j++;
    } else if (l !== undefined && lines.indexOf(l, j) === -1) {
      if (linkedFile(l) && !lines.includes(l)) out.push({ line: l, removed: true });
      i++; // else deleted by hand
    } else if (t !== undefined && layout.indexOf(t, i) === -1) {
      out.push({ line: t, removed: false });
      j++;
    } else {
      return null;
    }
  }
  return out;
}
