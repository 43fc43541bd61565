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

/**
 * One line of the index, told apart from equal lines by its occurrence number: blank
 * lines and headings repeat, memory lines do not, and only memory lines come and go.
 */
export interface IndexAnchor {
  line: string;
  nth: number;
}

function anchorAt(lines: string[], i: number): IndexAnchor | null {
  const line = lines[i];
  if (line === undefined) return null;
  let nth = 0;
  for (let j = 0; j < i; j++) if (lines[j] === line) nth++;
  return { line, nth };
}

function findAnchor(lines: string[], a: IndexAnchor): number {
  for (let i = 0, seen = 0; i < lines.length; i++) {
    if (lines[i] !== a.line) continue;
    if (seen === a.nth) return i;
    seen++;
  }
  return -1;
}

/**
 * Index text without the line naming `filename`; returns the removed line, its position
 * and the lines right above and below it (anchors for putting it back).
 */
export function removeIndexLine(text: string, filename: string): { text: string; line: string | null; at: number; prev: IndexAnchor | null; next: IndexAnchor | null } {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => linkedFile(l) === filename);
  if (at === -1) return { text, line: null, at: -1, prev: null, next: null };
  const prev = anchorAt(lines, at - 1);
  // The empty string after a final newline is not a line.
  const next = at + 2 === lines.length && lines[at + 1] === '' ? null : anchorAt(lines, at + 1);
  const [line] = lines.splice(at, 1);
  return { text: lines.join('\n'), line: line ?? null, at, prev, next };
}

/** Lines known to have stood above / below a line in the index (see index-edit.ts). */
export interface IndexAnchors {
  before?: IndexAnchor[];
  after?: IndexAnchor[];
}

/**
 * Puts a line back where it was: right below the lowest line known to have stood above
 * it, else right above the highest line known to have stood below it, else at `at`, else
 * at the end.
 */
export function insertIndexLine(text: string, line: string, at: number, anchors: IndexAnchors = {}): string {
  const lines = text === '' ? [] : text.split('\n');
  if (lines.some((l) => linkedFile(l) === linkedFile(line))) return text;
  const endsWithNl = lines.length > 0 && lines[lines.length - 1] === '';
  if (endsWithNl) lines.pop();
  const above = Math.max(-1, ...(anchors.before ?? []).map((a) => findAnchor(lines, a)));
  const below = Math.min(Infinity, ...(anchors.after ?? []).map((a) => findAnchor(lines, a)).filter((i) => i !== -1));
  const pos = above !== -1 ? above + 1 : below !== Infinity ? below : at >= 0 && at <= lines.length ? at : lines.length;
  lines.splice(pos, 0, line);
  return lines.join('\n') + (endsWithNl || lines.length === 1 ? '\n' : '');
}
