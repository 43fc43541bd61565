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
 * Index text without the line naming `filename`; returns the removed line, its position
 * and the lines that were right above and below it (anchors for putting it back).
 */
export function removeIndexLine(text: string, filename: string): { text: string; line: string | null; at: number; prev: string | null; next: string | null } {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => linkedFile(l) === filename);
  if (at === -1) return { text, line: null, at: -1, prev: null, next: null };
  const prev = lines[at - 1] ?? null;
  const next = at + 1 < lines.length - (lines[lines.length - 1] === '' ? 1 : 0) ? lines[at + 1]! : null;
  const [line] = lines.splice(at, 1);
  return { text: lines.join('\n'), line: line ?? null, at, prev, next };
}

/** Lines known to have stood above / below a line in the index (see index-edit.ts). */
export interface IndexAnchors {
  before?: string[];
  after?: string[];
}

/**
 * Puts a line back where it was: right below the lowest line known to have stood above
 * it, else right above the highest line known to have stood below it, else at `at`, else
 * at the end. An anchor counts only while it is in the text exactly once.
 */
export function insertIndexLine(text: string, line: string, at: number, anchors: IndexAnchors = {}): string {
  const lines = text === '' ? [] : text.split('\n');
  if (lines.some((l) => linkedFile(l) === linkedFile(line))) return text;
  const endsWithNl = lines.length > 0 && lines[lines.length - 1] === '';
  if (endsWithNl) lines.pop();
  const find = (l: string) => (lines.indexOf(l) !== -1 && lines.indexOf(l) === lines.lastIndexOf(l) ? lines.indexOf(l) : -1);
  const above = Math.max(-1, ...(anchors.before ?? []).map(find));
  const below = Math.min(Infinity, ...(anchors.after ?? []).map(find).filter((i) => i !== -1));
  const pos = above !== -1 ? above + 1 : below !== Infinity ? below : at >= 0 && at <= lines.length ? at : lines.length;
  lines.splice(pos, 0, line);
  return lines.join('\n') + (endsWithNl || lines.length === 1 ? '\n' : '');
}
