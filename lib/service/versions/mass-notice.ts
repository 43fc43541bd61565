/**
 * The SessionStart line for a mass change outside memtrust (docs/versions.md, "Mass
 * changes"): said once, by the next session's text, for the configured roots. Reads the
 * version store's file only (no database: the hook starts fast).
 */
import path from 'node:path';
import { type MassChange, massChanges, updateMassChange } from './mass-change';
import { VersionStore } from './version-store';

export function massNoticeText(m: MassChange): string {
  const what = [
    m.deleted ? `${m.deleted} ${m.deleted === 1 ? 'memory was' : 'memories were'} removed` : '',
    m.rewritten ? `${m.rewritten} rewritten` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `memtrust: ${what} outside memtrust in ${m.root} at ${m.at}; to put them back: npx memtrust recover --batch ${m.batch}`;
}

/** Mass changes of `roots` not yet recovered: the dashboard's banner (docs/versions.md). */
export function pendingMassChanges(dbPath: string, roots: string[]): MassChange[] {
  const store = new VersionStore(path.join(path.dirname(dbPath), 'versions'));
  return massChanges(store).filter((m) => !m.settled && roots.includes(m.root));
}

/** The lines for mass changes not yet said, for `roots`; `announce` marks them said. */
export function massNotices(dbPath: string, roots: string[], announce: boolean): string[] {
  const store = new VersionStore(path.join(path.dirname(dbPath), 'versions'));
  const open = massChanges(store).filter((m) => !m.announced && !m.settled && roots.includes(m.root));
  if (announce) for (const m of open) updateMassChange(store, m.batch, { announced: true });
  return open.map(massNoticeText);
}
