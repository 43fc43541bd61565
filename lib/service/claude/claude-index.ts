/**
 * The MEMORY.md index of a Claude Code memory folder (docs/layouts.md): which files it
 * names (a file it does not name is "not loaded"), and the line edits that
 * quarantine and restore make to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { FileSourceInfo } from '../../sources';
import { indexLinkTarget } from '../../trust/index-limits';

export const INDEX_MAX_LINES = 200;
export const INDEX_MAX_BYTES = 25_000;

/** The filename a `- [Title](file.md) — hook` line points to, if any (one rule: lib/trust/index-limits). */
export const linkedFile = indexLinkTarget;

export function readIndex(root: string, indexFile: string): string | null {
  try {
    return fs.readFileSync(path.join(root, indexFile), 'utf8');
  } catch {
    return null;
  }
}

/** Meta key prefix of MEMORY.md's stored lines, bytes and cut, by root (index-file-scan.ts `indexStatusBySource`). */
export const INDEX_STATUS_PREFIX = 'index-status:';

/**
 * Keeps MEMORY.md's `indexStatus` in the index whenever it is read for the rows' flags (the
 * scan, and memtrust's own writes to it), written only when it moved: the overview shows it
 * without reading 220 files (docs/performance-pages.md, "The first page after a start").
 */
function storeIndexStatus(sqlite: Database.Database, sourceId: string, text: string | null): void {
  const key = `${INDEX_STATUS_PREFIX}${sourceId}`;
  const value = JSON.stringify(text === null ? null : indexStatusOf(text));
  if (sqlite.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) !== value)
    sqlite.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
}

export function markIndexed(sqlite: Database.Database, source: FileSourceInfo): void {
  const read = readIndex(source.root, source.adapter.files.indexFile!);
  storeIndexStatus(sqlite, source.id, read);
  const text = read ?? '';
  const named = new Set(
    text
      .split('\n')
      .map(linkedFile)
      .filter((x): x is string => !!x),
  );
  const rows = sqlite
    .prepare("SELECT key, filename, indexed FROM entries WHERE source = ? AND location = 'memories'")
    .all(source.id) as { key: string; filename: string; indexed: number | null }[];
  // Only the rows whose flag moves are written: at 40,000 rows, rewriting them all was most of a rescan.
  const moved = rows.filter((r) => r.indexed !== (named.has(r.filename) ? 1 : 0));
  if (moved.length === 0) return;
  const set = sqlite.prepare('UPDATE entries SET indexed = ? WHERE key = ?');
  sqlite.transaction(() => {
    for (const r of moved) set.run(named.has(r.filename) ? 1 : 0, r.key);
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

/** Longest layouts merged line by line; beyond this the text alone is the layout. */
const MERGE_MAX_LINES = 2000;

/**
 * The index's layout — every line in order, removed memory lines included — brought up to
 * date with the text (a longest-common-subsequence alignment): lines added since are kept
 * where they are, lines deleted or changed by hand are dropped, memory lines absent from
 * the text stay, marked removed. Between two common lines, removed ones come first.
 */
export function mergeLayout(layout: readonly string[], lines: readonly string[]): LayoutLine[] {
  const n = layout.length;
  const m = lines.length;
  if (n > MERGE_MAX_LINES || m > MERGE_MAX_LINES) return lines.map((line) => ({ line, removed: false }));
  // lcs[i][j] = LCS length of layout[i..] and lines[j..].
  const lcs = new Uint16Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[at(i, j)] =
        layout[i] === lines[j] ? lcs[at(i + 1, j + 1)]! + 1 : Math.max(lcs[at(i + 1, j)]!, lcs[at(i, j + 1)]!);
    }
  }
  const present = new Set(lines);
  const out: LayoutLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && layout[i] === lines[j]) {
      out.push({ line: lines[j]!, removed: false });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[at(i + 1, j)]! >= lcs[at(i, j + 1)]!)) {
      const l = layout[i++]!;
      if (linkedFile(l) && !present.has(l)) out.push({ line: l, removed: true });
    } else {
      out.push({ line: lines[j++]!, removed: false });
    }
  }
  return out;
}

export interface IndexStatus {
  lines: number;
  bytes: number;
  /** Over 200 lines or 25,000 bytes: the assistant loads only the beginning. */
  cut: boolean;
}

/** How MEMORY.md fares against Claude Code's load limits (docs/layouts.md). */
export function indexStatus(root: string, indexFile: string): IndexStatus | null {
  const text = readIndex(root, indexFile);
  return text === null ? null : indexStatusOf(text);
}

/** `indexStatus` of MEMORY.md's text (the scan stores it: index-file-scan.ts `storeIndexFindings`). */
export function indexStatusOf(text: string): IndexStatus {
  const bytes = Buffer.byteLength(text);
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return { lines, bytes, cut: lines > INDEX_MAX_LINES || bytes > INDEX_MAX_BYTES };
}
