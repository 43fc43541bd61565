/**
 * Whether a Claude Code folder's MEMORY.md state in the index is still current, so an
 * unchanged rescan writes nothing for it (docs/performance.md, "A home of 200 projects").
 *
 * What the scan derives from MEMORY.md — each row's `indexed` flag and the index findings —
 * depends on its bytes, on which files the folder holds (a line naming a missing file is a
 * finding; names are basenames in the folder itself: lib/trust/index-limits.ts), on the rows
 * and on the rules. The stamp is the stat of MEMORY.md and of the folder (an entry added,
 * removed or renamed moves the folder's mtime); the scan recomputes whenever a row of the
 * root changed or the rules did, and the set of known credential values re-checks every
 * index file itself (known-values-scan.ts). A stamp whose mtimes are younger than RACY_MS
 * is not kept: a change within the same clock tick would look unchanged (the wall clock, not
 * MEMTRUST_NOW: this is about the file system's timestamps).
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { FileSourceInfo } from '../../sources';
import type { OwnerIdentity } from '../../validators/types';
import { markIndexed } from './claude-index';
import { storeIndexFindings } from './index-file-scan';
import type { VersionKeeper } from '../versions/keeper';

const RACY_MS = 2000;
const PREFIX = 'index-file:';

export function indexStampKey(sourceId: string): string {
  return `${PREFIX}${sourceId}`;
}

function statPart(p: string, oldest: number): { part: string; settled: boolean } {
  try {
    const st = fs.statSync(p);
    // Settled by the mtime (what a write sets); the ctime is in the stamp, so a write that sets the mtime back still differs.
    return { part: `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`, settled: st.mtimeMs < oldest };
  } catch {
    return { part: 'none', settled: true };
  }
}

function stampOf(source: FileSourceInfo): { stamp: string; settled: boolean } {
  const oldest = Date.now() - RACY_MS;
  const file = statPart(path.join(source.root, source.adapter.files.indexFile!), oldest);
  const dir = statPart(source.root, oldest);
  return { stamp: `${file.part}|${dir.part}`, settled: file.settled && dir.settled };
}

/**
 * Marks the rows the index names and stores its findings, unless nothing they depend on
 * moved since the last time (`rowsChanged`: the scan wrote or removed a row of this root,
 * or the rules changed).
 */
export function refreshIndexFile(
  sqlite: Database.Database,
  source: FileSourceInfo,
  owner: OwnerIdentity,
  rowsChanged: boolean,
  versions: VersionKeeper | null = null,
): void {
  // Taken before the work: a change made meanwhile gives the next scan another stamp.
  const now = stampOf(source);
  const key = indexStampKey(source.id);
  if (!rowsChanged && now.settled) {
    const stored = sqlite.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    if (stored?.value === now.stamp) return;
  }
  markIndexed(sqlite, source);
  // Kept after the scan's versions and deletions: recover reads the pack's order (versions/index-keep.ts).
  const read = storeIndexFindings(sqlite, source, owner);
  versions?.keepIndex(read);
  if (now.settled) sqlite.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, now.stamp);
  else sqlite.prepare('DELETE FROM meta WHERE key = ?').run(key);
}
