/**
 * Finishing an undo that was cut short (docs/batches.md, "Undo after a crash"). An
 * undo puts the files back one step at a time — each step crash-safe through the
 * journal — and writes the index file (MEMORY.md) whole at the end. A crash between
 * the last step and that write leaves every file back but the index not yet as it
 * was; recovery finishes it, under the root's lock, only when every file of the
 * undone batch is at its pre-batch place with its pre-batch bytes and the index
 * differs from the saved copy in the batch's own lines only. Anything else is left
 * for the user (a later `undo` names what changed).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SourceInfo } from '../../sources';
import { batchDir, batchIds, readBlob, readManifest, readState, writeState } from './batch-store';
import { editSharedFile, readIfExists, settleSharedFile } from '../write/fs-atomic';
import { sha256 } from '../index/inspect';
import { linkedFile } from '../claude/claude-index';

/** Equal once the lines naming the batch's files are left out of both. */
export function sameOutside(a: string, b: string, files: Set<string>): boolean {
  const rest = (t: string) =>
    t
      .split('\n')
      .filter((l) => !files.has(linkedFile(l) ?? ''))
      .join('\n');
  return rest(a) === rest(b);
}

/** Undo batches of this root with no final state: cheap to ask (one readdir, one stat each). */
export function unfinishedUndos(root: string): string[] {
  return batchIds(root).filter(
    (id) => !fs.existsSync(path.join(batchDir(root, id), 'state.json')) && readManifest(root, id)?.kind === 'undo',
  );
}

/** Call holding the root's lock. Returns the ids it finished. */
export function finishUndos(source: SourceInfo, ids: string[]): string[] {
  const root = source.root;
  const finished: string[] = [];
  for (const id of ids) {
    const undo = readManifest(root, id);
    if (!undo?.undoes || readState(root, id)?.done) continue;
    const orig = readManifest(root, undo.undoes);
    if (!orig) continue;
    const back = orig.files.every((f) => {
      const b = readIfExists(path.join(root, f.rel));
      return b !== null && sha256(b) === f.sha;
    });
    if (!back) continue;
    const target = orig.index?.sha ? readBlob(root, orig.id, orig.index.sha) : null;
    if (orig.index?.sha && target) {
      const abs = path.join(root, orig.index.file);
      const files = new Set(orig.files.map((f) => f.memory));
      // The undo may have been cut short inside its own index write (same tag).
      settleSharedFile(abs, id);
      let whole = true;
      editSharedFile(abs, id, (cur) => {
        whole = !cur || sameOutside(target.toString('utf8'), cur.toString('utf8'), files);
        return whole && !cur?.equals(target) ? target : null;
      });
      if (!whole) continue;
    }
    writeState(root, id, { indexAfterSha: target ? sha256(target) : null, done: true });
    finished.push(id);
  }
  return finished;
}
