/**
 * MEMORY.md edits that go with a Claude Code folder's transitions (LAYOUTS §2):
 * demoting removes the memory's index line, restoring puts it back where it was
 * (remembered in a machine-local stash) or at the end.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IndexEdit } from './journal';
import type { Located } from './resolve';
import { insertIndexLine, linkedFile, readIndex, removeIndexLine, type IndexAnchor } from './claude-index';
import { replaceFileAtomic } from './fs-atomic';

const STASH = path.join('.memtrust', 'index-lines.json');

type Stash = Record<string, { line: string; at: number; prev?: IndexAnchor | null; next?: IndexAnchor | null }>;

function readStash(root: string): Stash {
  try {
    return Object.assign(Object.create(null), JSON.parse(fs.readFileSync(path.join(root, STASH), 'utf8')));
  } catch {
    return Object.create(null);
  }
}

function writeStash(root: string, stash: Stash, tag: string): void {
  fs.mkdirSync(path.join(root, '.memtrust'), { recursive: true });
  replaceFileAtomic(path.join(root, STASH), Buffer.from(JSON.stringify(stash, null, 1)), tag);
}

export function planIndexEdit(found: Located, from: string | null, to: string | null, fields: Record<string, string>): IndexEdit | undefined {
  const indexFile = found.source.adapter.indexFile;
  if (!indexFile) return undefined;
  const text = readIndex(found.source.root, indexFile) ?? '';
  if (to === 'quarantined' && from !== 'quarantined') {
    const removed = removeIndexLine(text, found.filename);
    return removed.line === null ? undefined : { file: indexFile, kind: 'remove', line: removed.line, at: removed.at, prev: removed.prev, next: removed.next };
  }
  if (from === 'quarantined' && to === 'verified') {
    const stashed = readStash(found.source.root)[found.filename];
    const title = (fields.name ?? found.filename.replace(/\.md$/, '')).replace(/[\[\]\n\r]/g, ' ');
    const hook = fields.description ? ` — ${fields.description.replace(/[\n\r]/g, ' ')}` : '';
    const line = stashed?.line && linkedFile(stashed.line) === found.filename ? stashed.line : `- [${title}](${found.filename})${hook}`;
    return { file: indexFile, kind: 'insert', line, at: stashed?.at ?? -1, prev: stashed?.prev ?? null, next: stashed?.next ?? null };
  }
  return undefined;
}

/**
 * Every line known to have stood above (before) / below (after) the edit's line: its own
 * neighbours when it was removed and the neighbours recorded for other removed lines,
 * followed from memory line to memory line. Removing and restoring lines never reorders
 * the others, so what was recorded stays true until the file is edited by hand.
 */
function knownNeighbours(stash: Stash, edit: IndexEdit): { before: IndexAnchor[]; after: IndexAnchor[] } {
  const entries = Object.values(stash);
  const walk = (side: 'prev' | 'next'): IndexAnchor[] => {
    const other = side === 'prev' ? 'next' : 'prev';
    const around = (line: string, own: IndexAnchor | null | undefined) => [
      own,
      ...entries.filter((e) => e[other]?.line === line && e[other]?.nth === 0).map((e) => ({ line: e.line, nth: 0 })),
    ];
    const seen = new Set<string>([edit.line]);
    const out: IndexAnchor[] = [];
    const queue = around(edit.line, edit[side]);
    while (queue.length > 0) {
      const a = queue.shift();
      const key = a && `${a.nth}\u0000${a.line}`;
      if (!a || seen.has(a.line) || seen.has(key!)) continue;
      seen.add(key!);
      out.push(a);
      // Only memory lines are unique and have a record of their own neighbours.
      if (linkedFile(a.line)) {
        seen.add(a.line);
        queue.push(...around(a.line, entries.find((e) => e.line === a.line)?.[side]));
      }
    }
    return out;
  };
  return { before: walk('prev'), after: walk('next') };
}

/** Idempotent: removing an absent line or inserting a present one changes nothing (recovery re-runs it). */
export function applyIndexEdit(root: string, edit: IndexEdit, tag: string): void {
  const file = path.join(root, edit.file);
  const text = readIndex(root, edit.file) ?? '';
  const filename = linkedFile(edit.line);
  let next = text;
  if (edit.kind === 'remove' && filename) {
    next = removeIndexLine(text, filename).text;
    const stash = readStash(root);
    stash[filename] = { line: edit.line, at: edit.at, prev: edit.prev ?? null, next: edit.next ?? null };
    writeStash(root, stash, tag);
  } else if (edit.kind === 'insert') {
    next = insertIndexLine(text, edit.line, edit.at, knownNeighbours(readStash(root), edit));
  }
  if (next !== text) replaceFileAtomic(file, Buffer.from(next, 'utf8'), tag);
}
