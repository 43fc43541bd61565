/**
 * "The first backfill of this root is done" (docs/hooks.md): `backfill.json` in the
 * root's own-files folder (`<root>/.memtrust/`, or the data directory for a store in a
 * git checkout: lib/service/meta/places.ts), so it survives a deleted database. Written once, after the first file a backfill applies.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sweepDeadWriters, writeFileDurable } from '../write/fs-atomic';
import { legacyMetaDir, metaDir } from '../meta/places';

export function backfillMarkerPath(root: string): string {
  return path.join(metaDir(root), 'backfill.json');
}

export function firstBackfillDone(root: string): boolean {
  // Earlier versions wrote it in the root (lib/service/meta/places.ts): it still counts.
  return fs.existsSync(backfillMarkerPath(root)) || fs.existsSync(path.join(legacyMetaDir(root), 'backfill.json'));
}

export function markFirstBackfill(root: string, machine: string, now: Date): void {
  const file = backfillMarkerPath(root);
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileDurable(tmp, Buffer.from(`${JSON.stringify({ v: 1, firstBackfillAt: now.toISOString(), machine })}\n`));
  // Another machine may have written it meanwhile: theirs stands.
  try {
    fs.linkSync(tmp, file);
  } catch {
    // exists already
  }
  fs.rmSync(tmp, { force: true });
}

/** Removes a marker temp file whose writer is gone (killed between write and link). */
export function sweepMarkerLeftovers(root: string, isAlive: (pid: number) => boolean): void {
  sweepDeadWriters(
    path.dirname(backfillMarkerPath(root)),
    /^backfill\.json\.(\d+)\.tmp$/,
    (pid) => pid === process.pid || !isAlive(pid),
  );
}
