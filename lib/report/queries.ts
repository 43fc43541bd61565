/** Report-only reads: filtered tier counts and the actionable findings list. Names only, never bodies. */
import type Database from 'better-sqlite3';
import { clockCutoffs } from '../../db/queries/cutoffs';
import { CAN, HAS_FLAG, TYPE } from '../../db/queries/record-rows';
import { FILE_ENTRY, RECORD_ENTRY } from '../../db/queries/entry-kind';
import type { FindingItem } from './types';

export interface Filter {
  source?: string;
  type?: string;
}

function where(f: Filter): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = [`m.${FILE_ENTRY}`];
  const params: Record<string, unknown> = {};
  if (f.source) {
    parts.push('m.source = @source');
    params.source = f.source;
  }
  if (f.type) {
    parts.push('m.type = @type');
    params.type = f.type;
  }
  return { sql: parts.join(' AND '), params };
}

/**
 * The report's tier and attention counts: memories, and the records of the configured record
 * roots `live` (docs/review-inbox.md "Records in the inbox" for what each count means on a
 * record). Conflicts stay memory conflicts; a record's contradictions are its root's section.
 * Two aggregates over `entries`, one per kind: the memory side reads only the covering
 * entries_overview index, which a record's flags and actions are not in.
 */
export function tierCounts(sqlite: Database.Database, f: Filter, now: Date, live: readonly string[] = []) {
  const w = where(f);
  const c = clockCutoffs(now);
  const r = sqlite
    .prepare(
      `SELECT count(*) AS total, sum(tier='verified') AS verified, sum(tier='inferred') AS inferred,
        sum(tier='quarantined') AS quarantined, sum(tier='archived') AS archived,
        sum(tier='verified' AND (last_verified_ms IS NULL OR last_verified_ms < @staleBefore)) AS stale,
        sum(tier='inferred' AND created_ms <= @observedBefore) AS due,
        sum(tier='inferred' AND created_ms > @observedBefore) AS observing,
        sum(tier='quarantined' AND quarantine_since_ms > @auditFrom) AS passive,
        sum(tier='quarantined' AND quarantine_since_ms <= @auditFrom AND quarantine_since_ms > @archiveFrom) AS audit,
        sum(tier='quarantined' AND quarantine_since_ms <= @archiveFrom) AS archive,
        sum(conflict) AS conflicts
       FROM entries m WHERE ${w.sql}`,
    )
    .get({ ...w.params, ...c }) as Record<string, number | null>;
  const rec = recordTierCounts(sqlite, f, live);
  const n = (k: string) => Number(r[k] ?? 0) + Number(rec[k] ?? 0);
  return {
    tiers: {
      total: n('total'),
      verified: n('verified'),
      inferred: n('inferred'),
      quarantined: n('quarantined'),
      archived: n('archived'),
    },
    attention: {
      stale: n('stale'),
      dueForReview: n('due'),
      observing: n('observing'),
      conflicts: n('conflicts'),
      quarantine: { passive: n('passive'), audit: n('audit'), archive: n('archive') },
    },
  };
}

function recordTierCounts(
  sqlite: Database.Database,
  f: Filter,
  live: readonly string[],
): Record<string, number | null> {
  if (live.length === 0) return {};
  const parts = [`m.${RECORD_ENTRY}`, 'm.source IN (SELECT value FROM json_each(@live))'];
  const params: Record<string, unknown> = { live: JSON.stringify(live) };
  if (f.source) {
    parts.push('m.source = @source');
    params.source = f.source;
  }
  if (f.type) {
    parts.push(`${TYPE} = @type`);
    params.type = f.type;
  }
  return sqlite
    .prepare(
      `SELECT count(*) AS total, sum(tier='verified') AS verified, sum(tier='inferred') AS inferred,
        sum(tier='quarantined') AS quarantined, sum(tier='archived') AS archived,
        sum(tier='verified' AND ${HAS_FLAG("'stale'")}) AS stale,
        sum(tier='inferred' AND ${CAN('promote')}) AS due,
        sum(tier='inferred' AND NOT ${CAN('promote')}) AS observing
       FROM entries m WHERE ${parts.join(' AND ')}`,
    )
    .get(params) as Record<string, number | null>;
}

/** A finding as the query returns it: the report's FindingItem with the row's relPath for its file. */
export type FindingRow = Omit<FindingItem, 'file'> & { relPath: string };

/** Failures and flags (warnings are counted in the categories, not listed). Messages are masked at scan time. */
export function actionableFindings(
  sqlite: Database.Database,
  f: Filter,
  limit: number,
): { total: number; items: FindingRow[] } {
  const w = where(f);
  const cond = `f.label IN ('FAIL-STRUCT', 'FAIL-FORMAT', 'SECRET-DETECTED', 'FLAGGED') AND ${w.sql}`;
  const items = sqlite
    .prepare(
      `SELECT m.id, m.source, m.rel_path AS relPath, m.name, m.tier, f."check" AS "check", f.code, f.label, f.line, f.message, f.class
       FROM findings f JOIN entries m ON m.key = f.key WHERE ${cond}
       ORDER BY m.id, m.key, f."check", f.line NULLS FIRST, f.code, f.message LIMIT @limit`,
    )
    .all({ ...w.params, limit }) as FindingRow[];
  const total = (
    sqlite
      .prepare(`SELECT count(*) AS n FROM findings f JOIN entries m ON m.key = f.key WHERE ${cond}`)
      .get(w.params) as { n: number }
  ).n;
  return { total, items };
}
