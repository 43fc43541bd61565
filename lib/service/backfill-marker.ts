/**
 * "The first backfill of this root is done" (CONTRACT §4.1, docs/hooks.md): a file in
 * the root, `<root>/.memtrust/backfill.json`, so it travels with the root and survives
 * a deleted database. Written once, after the first file a backfill applies.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileDurable } from './fs-atomic';

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
  const dir = path.dirname(backfillMarkerPath(root));
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const m = /^backfill\.json\.(\d+)\.tmp$/.exec(n);
    if (m && (Number(m[1]) === process.pid || !isAlive(Number(m[1])))) fs.rmSync(path.join(dir, n), { force: true });
  }
}
