/**
 * "The first backfill of this root is done" (docs/hooks.md): a file in
 * the root, `<root>/.memtrust/backfill.json`, so it travels with the root and survives
 * a deleted database. Written once, after the first file a backfill applies.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sweepDeadWriters, writeFileDurable } from '../write/fs-atomic';

export function backfillMarkerPath(root: string): string {
  return path.join(root, '.memtrust', 'backfill.json');
}

export function firstBackfillDone(root: string): boolean {
  return fs.existsSync(backfillMarkerPath(root));
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
