/**
 * Overview numbers, computed in SQL against an injected "now" so thresholds
 * (7-day observation, 90-day staleness, quarantine windows) never freeze in rows.
 */
import type Database from 'better-sqlite3';
import { DAY_MS } from '../../lib/trust/dates';
import { clockCutoffs } from './cutoffs';

export interface Overview {
  total: number;
  tiers: Record<'verified' | 'inferred' | 'quarantined' | 'archived', number>;
  bySource: { source: string; root: string; kind: string; count: number; error: string | null }[];
  staleVerified: number;
  dueForReview: number;
  observing: number;
  quarantine: { passive: number; audit: number; archive: number };
  verdicts: {
    validate: Record<'PASS' | 'FAIL-STRUCT' | 'FAIL-FORMAT' | 'WARN-SEMANTIC', number>;
    secret: Record<'CLEAN' | 'SECRET-DETECTED', number>;
    injection: Record<'CLEAN' | 'FLAGGED', number>;
  };
  needsBackfill: number;
  conflicts: number;
  lastScanMs: number | null;
}

export function overview(sqlite: Database.Database, now: Date): Overview {
  const c = clockCutoffs(now);
  const row = sqlite
    .prepare(
      `SELECT count(*) AS total,
        sum(tier='verified') AS verified, sum(tier='inferred') AS inferred,
        sum(tier='quarantined') AS quarantined, sum(tier='archived') AS archived,
        sum(tier='verified' AND (last_verified_ms IS NULL OR last_verified_ms < @staleBefore)) AS stale,
        sum(tier='inferred' AND created_ms <= @observedBefore) AS due,
        sum(tier='inferred' AND created_ms > @observedBefore) AS observing,
        sum(tier='quarantined' AND quarantine_since_ms > @auditFrom) AS qPassive,
        sum(tier='quarantined' AND quarantine_since_ms <= @auditFrom AND quarantine_since_ms > @archiveFrom) AS qAudit,
        sum(tier='quarantined' AND quarantine_since_ms <= @archiveFrom) AS qArchive,
        sum(validate_exit=0) AS vPass, sum(validate_exit=1) AS vStruct, sum(validate_exit=2) AS vFormat, sum(validate_exit=3) AS vWarn,
        sum(secret_exit=0) AS sClean, sum(secret_exit=1) AS sFound,
        sum(injection_exit=0) AS iClean, sum(injection_exit=3) AS iFlagged,
        sum(needs_backfill) AS backfill, sum(conflict) AS conflicts
       FROM memories`,
    )
    .get(c) as Record<string, number | null>;
  const n = (k: string) => Number(row[k] ?? 0);
  const bySource = sqlite
    .prepare(
      `SELECT s.id AS source, s.root, s.kind, s.error, count(m.key) AS count
       FROM sources s LEFT JOIN memories m ON m.source = s.id GROUP BY s.id ORDER BY s.root`,
    )
    .all() as Overview['bySource'];
  const last = sqlite.prepare("SELECT value FROM meta WHERE key = 'last_scan'").get() as { value: string } | undefined;
  return {
    total: n('total'),
    tiers: { verified: n('verified'), inferred: n('inferred'), quarantined: n('quarantined'), archived: n('archived') },
    bySource,
    staleVerified: n('stale'),
    dueForReview: n('due'),
    observing: n('observing'),
    quarantine: { passive: n('qPassive'), audit: n('qAudit'), archive: n('qArchive') },
    verdicts: {
      validate: { PASS: n('vPass'), 'FAIL-STRUCT': n('vStruct'), 'FAIL-FORMAT': n('vFormat'), 'WARN-SEMANTIC': n('vWarn') },
      secret: { CLEAN: n('sClean'), 'SECRET-DETECTED': n('sFound') },
      injection: { CLEAN: n('iClean'), FLAGGED: n('iFlagged') },
    },
    needsBackfill: n('backfill'),
    conflicts: n('conflicts'),
    lastScanMs: last ? Number(last.value) : null,
  };
}

export { DAY_MS };
