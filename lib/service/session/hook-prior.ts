/**
 * The pre-write hook's note to the post-write hook (docs/hooks.md "Prior state"):
 * what the file's memtrust-owned fields were before the tool ran, so the stamp can
 * put them back. `<root>/.memtrust/hooks/<machine>-<key>.json`, key = the tool call's
 * id (shared by both hooks) or a hash of the path. Small, best effort: a root that
 * cannot take the note falls back to the index.
 */
import { metaDir } from '../meta/places';
import { sha256Hex } from '../../core/hash';
import fs from 'node:fs';
import path from 'node:path';
import type { PriorState } from '../../hooks/pre-write';
import { replaceFile } from '../replace-file';

/** Notes older than this are left-overs of denied or failed tool calls. */
const STALE_MS = 24 * 60 * 60 * 1000;

function noteKey(toolUseId: string | undefined, relPath: string): string {
  if (toolUseId && /^[A-Za-z0-9_-]{1,100}$/.test(toolUseId)) return toolUseId;
  return `p${sha256Hex(relPath).slice(0, 32)}`;
}

export function priorDir(root: string): string {
  return path.join(metaDir(root), 'hooks');
}

function notePath(root: string, machine: string, toolUseId: string | undefined, relPath: string): string {
  return path.join(priorDir(root), `${machine}-${noteKey(toolUseId, relPath)}.json`);
}

/** Returns false when the note could not be written (read-only root): never an error for the guard. */
export function writePriorNote(
  root: string,
  machine: string,
  toolUseId: string | undefined,
  prior: PriorState,
  at: Date,
): boolean {
  const file = notePath(root, machine, toolUseId, prior.relPath);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    replaceFile(file, JSON.stringify({ v: 1, at: at.toISOString(), ...prior }));
    return true;
  } catch {
    return false;
  }
}

/** Reads and removes the note for this tool call (and clears stale ones). */
export function takePriorNote(
  root: string,
  machine: string,
  toolUseId: string | undefined,
  relPath: string,
  now: Date,
): PriorState | null {
  const file = notePath(root, machine, toolUseId, relPath);
  let note: PriorState | null = null;
  try {
    const j = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<PriorState> & { v?: number };
    if (
      j.v === 1 &&
      j.relPath === relPath &&
      typeof j.existed === 'boolean' &&
      j.fields &&
      typeof j.fields === 'object'
    ) {
      const fields: Record<string, string> = {};
      for (const [k, v] of Object.entries(j.fields)) if (typeof v === 'string') fields[k] = v;
      note = {
        relPath,
        existed: j.existed,
        sha256: typeof j.sha256 === 'string' ? j.sha256 : null,
        mtimeMs: typeof j.mtimeMs === 'number' ? j.mtimeMs : null,
        fields,
      };
    }
  } catch {
    note = null;
  }
  try {
    fs.rmSync(file, { force: true });
    for (const n of fs.readdirSync(priorDir(root))) {
      const p = path.join(priorDir(root), n);
      const st = fs.statSync(p);
      if (now.getTime() - st.mtimeMs > STALE_MS) fs.rmSync(p, { force: true });
    }
  } catch {
    // nothing to clear
  }
  return note;
}
