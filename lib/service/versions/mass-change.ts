/**
 * Mass changes (docs/versions.md, "Mass changes"): one scan's outside changes that deleted
 * or rewrote more than 10 files or a quarter of a root. Kept in the version store's
 * `mass-changes.jsonl`; the dashboard's banner and the next SessionStart text read it, and
 * `memtrust recover --batch ID` puts every file of it back as one batch.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { VersionStore } from './version-store';

export interface MassChange {
  /** The batch of the outside events. */
  batch: string;
  source: string;
  root: string;
  at: string;
  deleted: number;
  rewritten: number;
  /** Set once a SessionStart text said it. */
  announced?: boolean;
  /** Set once recovered or dismissed. */
  settled?: boolean;
}

const fileOf = (store: VersionStore) => path.join(store.dir, 'mass-changes.jsonl');

/** The mass changes' file of the version store beside the index `dbPath` (mass-notice.ts). */
export const massChangesFile = (dbPath: string) => path.join(path.dirname(dbPath), 'versions', 'mass-changes.jsonl');

export function recordMassChange(store: VersionStore, m: MassChange): void {
  fs.mkdirSync(store.dir, { recursive: true, mode: 0o700 });
  fs.appendFileSync(fileOf(store), `${JSON.stringify(m)}\n`, { mode: 0o600 });
}

/** Every mass change, the last state of each batch. */
export function massChanges(store: VersionStore): MassChange[] {
  let text: string;
  try {
    text = fs.readFileSync(fileOf(store), 'utf8');
  } catch {
    return [];
  }
  const byBatch = new Map<string, MassChange>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const m = JSON.parse(line) as MassChange;
      byBatch.set(m.batch, { ...byBatch.get(m.batch), ...m });
    } catch {
      // torn line
    }
  }
  return [...byBatch.values()];
}

/** Marks a mass change announced or settled (appends its new state). */
export function updateMassChange(store: VersionStore, batch: string, patch: Partial<MassChange>): void {
  const m = massChanges(store).find((x) => x.batch === batch);
  if (m) recordMassChange(store, { ...m, ...patch });
}
