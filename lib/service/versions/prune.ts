/**
 * Retention (docs/versions.md, "Retention"): a version is kept `versionRetentionDays`
 * (default 90) after the file changed again or was deleted; the version a file holds now is
 * always kept. Pruned at most once a day, by a scan; the pack is compacted then.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { DEFAULT_VERSION_RETENTION_DAYS, readSettings } from '../../core/settings';
import type { VersionLine, VersionStore } from './version-store';

const DAY_MS = 86_400_000;

export function retentionDays(): number {
  try {
    return readSettings(process.env).versionRetentionDays ?? DEFAULT_VERSION_RETENTION_DAYS;
  } catch {
    return DEFAULT_VERSION_RETENTION_DAYS; // a broken settings file is reported elsewhere; keep the default
  }
}

/** Lines of one root's index still within retention at `now`. */
export function linesToKeep(lines: VersionLine[], now: Date, days: number): VersionLine[] {
  const cutoff = now.getTime() - days * DAY_MS;
  const next = new Map<VersionLine, VersionLine>();
  const last = new Map<string, VersionLine>();
  for (const l of lines) {
    const before = last.get(l.rel);
    if (before) next.set(before, l);
    last.set(l.rel, l);
  }
  return lines.filter((l) => {
    const after = next.get(l);
    if (after) return Date.parse(after.at) >= cutoff; // superseded: kept until `days` after its successor
    return !l.gone || Date.parse(l.at) >= cutoff; // the file's current version; a deletion record expires
  });
}

/**
 * Prunes every root's pack: a pack with lines past retention is compacted (rewritten with
 * only the lines kept, their bytes once; `rewriteIndex` in version-store.ts, which leaves a
 * pack that grew meanwhile for the next prune). Returns how many lines went.
 */
export function prune(store: VersionStore, now: Date, days = retentionDays()): number {
  let dropped = 0;
  for (const root of store.roots()) {
    const lines = store.readIndex(root);
    const keep = linesToKeep(lines, now, days);
    // A deletion record whose version expired says nothing any more.
    const held = new Set<string>();
    const kept = keep.filter((l) => {
      if (!l.gone) held.add(l.rel);
      return !l.gone || held.has(l.rel);
    });
    if (kept.length < lines.length && store.rewriteIndex(root, kept)) dropped += lines.length - kept.length;
  }
  return dropped;
}

/** Called by each scan: prunes when the last prune is a day old. */
export function pruneOnScan(_sqlite: Database.Database, store: VersionStore, now: Date): void {
  const marker = path.join(store.dir, 'pruned-at');
  let last = 0;
  try {
    last = Number(fs.readFileSync(marker, 'utf8')) || 0;
  } catch {
    // never pruned
  }
  if (Math.abs(now.getTime() - last) < DAY_MS) return;
  if (!fs.existsSync(store.dir)) return;
  // A store never pruned starts its clock now: a first index has nothing old to drop, and
  // reading back what it just wrote would cost a tenth of the index (docs/versions.md, "Cost").
  if (last > 0) prune(store, now);
  fs.writeFileSync(marker, String(now.getTime()), { mode: 0o600 });
}
