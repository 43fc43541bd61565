/**
 * Overview numbers, computed in SQL against an injected "now" so thresholds
 * (7-day observation, 90-day staleness, quarantine windows) never freeze in rows.
 */
import { FILE_ENTRY, FILE_SOURCE } from './entry-kind';
import type Database from 'better-sqlite3';
import { DAY_MS } from '../../lib/trust/dates';
import { clockCutoffs } from './cutoffs';
import { memo } from './memo';
import { originValuesWith } from '../../lib/trust/origin';

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
  /** Memories by origin flag (docs/origin.md "In the index"). */
  origins: { untrusted: number; userRequested: number };
  lastScanMs: number | null;
}

/** `sources`: the numbers of those sources only (a project filter, lib/service/project-filter.ts). */
export function overview(sqlite: Database.Database, now: Date, sources?: readonly string[]): Overview {
  const c = clockCutoffs(now);
  // Cutoffs move with the clock, so they are part of the key.
  const key = `overview:${JSON.stringify(c)}${sources ? `:${JSON.stringify(sources)}` : ''}`;
  return memo(sqlite, key, () => computeOverview(sqlite, c, sources));
}

/**
 * Shaped for 100k rows: one GROUP BY over a covering index for the verdict and tier
 * counts (a dozen groups), and indexed range counts for the clock-dependent numbers.
 */
function computeOverview(
  sqlite: Database.Database,
  c: ReturnType<typeof clockCutoffs>,
  sources?: readonly string[],
): Overview {
  // A project filter: every count below reads the rows of its sources only.
  // Memory files only: the record roots have their own cards (recordSourceSummaries).
  const scope = sources ? `${FILE_ENTRY} AND source IN (SELECT value FROM json_each(?))` : FILE_ENTRY;
  const scoped = sources ? [JSON.stringify(sources)] : [];
  const groups = sqlite
    .prepare(
      `SELECT tier, validate_exit AS v, secret_exit AS s, injection_exit AS i, needs_backfill AS b, conflict AS c, count(*) AS n FROM entries WHERE ${scope} GROUP BY 1, 2, 3, 4, 5, 6`,
    )
    .all(...scoped) as {
    tier: keyof Overview['tiers'];
    v: number;
    s: number;
    i: number;
    b: number;
    c: number;
    n: number;
  }[];
  const count = (sql: string, ...args: number[]) =>
    (
      sqlite.prepare(`SELECT count(*) AS n FROM entries WHERE ${sql} AND ${scope}`).get(...args, ...scoped) as {
        n: number;
      }
    ).n;
  /** Rows whose origin is one of `values` (on entries_origin, migration 0015). */
  const countIn = (values: string[]) =>
    (
      sqlite
        .prepare(`SELECT count(*) AS n FROM entries WHERE origin IN (SELECT value FROM json_each(?)) AND ${scope}`)
        .get(JSON.stringify(values), ...scoped) as { n: number }
    ).n;
  const sum = (pred: (g: (typeof groups)[number]) => boolean) => groups.filter(pred).reduce((a, g) => a + g.n, 0);
  const perSource = new Map(
    // Grouped by root, on entries_rescan: a record root's count is never read (bySource lists file roots).
    (
      sqlite.prepare('SELECT source, count(*) AS n FROM entries GROUP BY source').all() as {
        source: string;
        n: number;
      }[]
    ).map((r) => [r.source, r.n]),
  );
  const keep = sources ? new Set(sources) : null;
  const bySource = (
    sqlite
      .prepare(`SELECT id AS source, root, kind, error FROM sources WHERE ${FILE_SOURCE} ORDER BY root`)
      .all() as Omit<Overview['bySource'][number], 'count'>[]
  )
    .filter((s) => !keep || keep.has(s.source))
    .map((s) => ({ ...s, count: perSource.get(s.source) ?? 0 }));
  const last = sqlite.prepare("SELECT value FROM meta WHERE key = 'last_scan'").get() as { value: string } | undefined;
  return {
    total: sum(() => true),
    tiers: {
      verified: sum((g) => g.tier === 'verified'),
      inferred: sum((g) => g.tier === 'inferred'),
      quarantined: sum((g) => g.tier === 'quarantined'),
      archived: sum((g) => g.tier === 'archived'),
    },
    bySource,
    staleVerified: count("tier = 'verified' AND (last_verified_ms IS NULL OR last_verified_ms < ?)", c.staleBefore),
    dueForReview: count("tier = 'inferred' AND created_ms <= ?", c.observedBefore),
    observing: count("tier = 'inferred' AND created_ms > ?", c.observedBefore),
    quarantine: {
      passive: count("tier = 'quarantined' AND quarantine_since_ms > ?", c.auditFrom),
      audit: count(
        "tier = 'quarantined' AND quarantine_since_ms <= ? AND quarantine_since_ms > ?",
        c.auditFrom,
        c.archiveFrom,
      ),
      archive: count("tier = 'quarantined' AND quarantine_since_ms <= ?", c.archiveFrom),
    },
    verdicts: {
      validate: {
        PASS: sum((g) => g.v === 0),
        'FAIL-STRUCT': sum((g) => g.v === 1),
        'FAIL-FORMAT': sum((g) => g.v === 2),
        'WARN-SEMANTIC': sum((g) => g.v === 3),
      },
      secret: { CLEAN: sum((g) => g.s === 0), 'SECRET-DETECTED': sum((g) => g.s === 1) },
      injection: { CLEAN: sum((g) => g.i === 0), FLAGGED: sum((g) => g.i === 3) },
    },
    needsBackfill: sum((g) => g.b === 1),
    conflicts: sum((g) => g.c === 1),
    origins: {
      untrusted: countIn(originValuesWith('untrusted-origin')),
      userRequested: countIn(originValuesWith('user-requested')),
    },
    lastScanMs: last ? Number(last.value) : null,
  };
}

export { DAY_MS };
