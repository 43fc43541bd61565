/**
 * MEMORY.md edits that go with a Claude Code folder's transitions (docs/layouts.md):
 * demoting removes the memory's index line, restoring puts it back where it was
 * (remembered in a machine-local stash) or at the end.
 *
 * "Where it was" comes from the index's layout, kept beside the stash: every line in
 * order with the removed ones still in place, so lines put back in any order land
 * between the same neighbours. Position numbers alone drift as soon as two memories
 * are out at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IndexEdit } from '../write/journal';
import type { Located } from '../index/resolve';
import { indexLines, insertIndexLine, linkedFile, mergeLayout, readIndex, removeIndexLine } from './claude-index';
import { editSharedFile, mkdirp, replaceFileAtomic, settleSharedFile } from '../write/fs-atomic';
import { legacyMetaDir, metaDir } from '../meta/places';

// In the root's own-files folder (lib/service/meta/places.ts); read from the legacy place until first rewritten.
const STASH = 'index-lines.json';
const LAYOUT = 'index-layout.json';
const ownFile = (root: string, name: string) => path.join(metaDir(root), name);
const readOwn = (root: string, name: string): string => {
  try {
    return fs.readFileSync(ownFile(root, name), 'utf8');
  } catch (e) {
    const legacy = path.join(legacyMetaDir(root), name);
    if (legacy === ownFile(root, name)) throw e;
    return fs.readFileSync(legacy, 'utf8');
  }
};

type Stash = Record<string, { line: string; at: number }>;

function readStash(root: string): Stash {
  try {
    return Object.assign(Object.create(null), JSON.parse(readOwn(root, STASH)));
  } catch {
    return Object.create(null);
  }
}

function writeStash(root: string, stash: Stash, tag: string): void {
  mkdirp(metaDir(root));
  replaceFileAtomic(ownFile(root, STASH), Buffer.from(JSON.stringify(stash, null, 1)), tag);
}

export function planIndexEdit(
  found: Located,
  from: string | null,
  to: string | null,
  fields: Record<string, string>,
): IndexEdit | undefined {
  const indexFile = found.source.adapter.files?.indexFile;
  if (!indexFile) return undefined;
  const text = readIndex(found.source.root, indexFile) ?? '';
  if (to === 'quarantined' && from !== 'quarantined') {
    const removed = removeIndexLine(text, found.filename);
    return removed.line === null ? undefined : { file: indexFile, kind: 'remove', line: removed.line, at: removed.at };
  }
  if (from === 'quarantined' && to === 'verified') {
    const stashed = readStash(found.source.root)[found.filename];
    const title = (fields.name ?? found.filename.replace(/\.md$/, '')).replace(/[[\]\n\r]/g, ' ');
    const hook = fields.description ? ` — ${fields.description.replace(/[\n\r]/g, ' ')}` : '';
    const line =
      stashed?.line && linkedFile(stashed.line) === found.filename
        ? stashed.line
        : `- [${title}](${found.filename})${hook}`;
    return { file: indexFile, kind: 'insert', line, at: stashed?.at ?? -1 };
  }
  return undefined;
}

type Layouts = Record<string, string[]>;

function readLayouts(root: string): Layouts {
  try {
    return Object.assign(Object.create(null), JSON.parse(readOwn(root, LAYOUT)));
  } catch {
    return Object.create(null);
  }
}

/** The saved layout of `file` merged with its current text. */
function currentLayout(root: string, file: string, text: string) {
  const lines = indexLines(text);
  const saved = readLayouts(root)[file];
  return mergeLayout(Array.isArray(saved) ? saved : [], lines);
}

/**
 * Idempotent: removing an absent line or inserting a present one changes nothing
 * (recovery re-runs it). MEMORY.md is also edited by people and by the assistant,
 * so it is changed through `editSharedFile`: a save made while this runs is never
 * overwritten, the line edit is re-applied to it instead (docs/crash-safety.md,
 * "Shared files").
 */
export function applyIndexEdit(root: string, edit: IndexEdit, tag: string): void {
  const file = path.join(root, edit.file);
  // An earlier run of this edit cut short may have left MEMORY.md under its private name.
  settleSharedFile(file, tag);
  const filename = linkedFile(edit.line);
  if (edit.kind === 'remove' && filename) {
    // The layout first (recovery may re-run this after the index was already written).
    const text = readIndex(root, edit.file) ?? '';
    const layouts = readLayouts(root);
    layouts[edit.file] = currentLayout(root, edit.file, text).map((l) => l.line);
    mkdirp(metaDir(root));
    replaceFileAtomic(ownFile(root, LAYOUT), Buffer.from(JSON.stringify(layouts)), tag);
    const stash = readStash(root);
    stash[filename] = { line: edit.line, at: edit.at };
    writeStash(root, stash, tag);
  }
  editSharedFile(file, tag, (current) => {
    const text = current?.toString('utf8') ?? '';
    let next = text;
    if (edit.kind === 'remove' && filename) {
      next = removeIndexLine(text, filename).text;
    } else if (edit.kind === 'insert') {
      const layout = currentLayout(root, edit.file, text);
      const k = layout.findIndex((l) => l.removed && l.line === edit.line);
      // Its place: after as many present lines as stood before it in the layout.
      const at = k === -1 ? edit.at : layout.slice(0, k).filter((l) => !l.removed).length;
      next = insertIndexLine(text, edit.line, at);
    }
    return next === text ? null : Buffer.from(next, 'utf8');
  });
}

/**
 * Drops the MEMORY.md lines put aside (the stash, and the removed lines of the saved layout)
 * that `keep(line, memory)` refuses: copy-purge.ts refuses a line holding a credential value
 * that neither its memory nor MEMORY.md holds any more (CONTRACT §2.5). A restore then writes
 * a fresh line for the memory. The files are rewritten only when a line goes; a copy an
 * earlier version left inside the root goes with it. Returns how many lines went.
 */
export function purgeStashedLines(
  root: string,
  indexFile: string,
  tag: string,
  keep: (line: string, memory: string | null) => boolean,
): number {
  let dropped = 0;
  const stash = readStash(root);
  let stashChanged = false;
  for (const [filename, entry] of Object.entries(stash)) {
    if (typeof entry?.line !== 'string' || keep(entry.line, filename)) continue;
    delete stash[filename];
    stashChanged = true;
    dropped++;
  }
  if (stashChanged) {
    writeStash(root, stash, tag);
    dropLegacy(root, STASH);
  }
  const layouts = readLayouts(root);
  const saved = layouts[indexFile];
  if (Array.isArray(saved)) {
    const present = new Set(indexLines(readIndex(root, indexFile) ?? ''));
    const kept = saved.filter((line) => present.has(line) || keep(line, linkedFile(line)));
    if (kept.length !== saved.length) {
      dropped += saved.length - kept.length;
      layouts[indexFile] = kept;
      mkdirp(metaDir(root));
      replaceFileAtomic(ownFile(root, LAYOUT), Buffer.from(JSON.stringify(layouts)), tag);
      dropLegacy(root, LAYOUT);
    }
  }
  return dropped;
}

/** The copy an earlier version kept inside the root, once the current place holds what stays. */
function dropLegacy(root: string, name: string): void {
  const legacy = path.join(legacyMetaDir(root), name);
  if (legacy !== ownFile(root, name)) fs.rmSync(legacy, { force: true });
}
