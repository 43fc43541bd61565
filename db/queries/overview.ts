/**
 * Overview numbers, computed in SQL against an injected "now" so thresholds
 * (7-day observation, 90-day staleness, quarantine windows) never freeze in rows.
 */
import type Database from 'better-sqlite3';
import { DAY_MS } from '../../lib/trust/dates';
import { clockCutoffs } from './cutoffs';
import { memo } from './memo';

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
  // Cutoffs move with the clock, so they are part of the key.
  return memo(sqlite, `overview:${JSON.stringify(c)}`, () => computeOverview(sqlite, c));
}

/**
 * Shaped for 100k rows: one GROUP BY over a covering index for the verdict and tier
 * counts (a dozen groups), and indexed range counts for the clock-dependent numbers.
 */
function computeOverview(sqlite: Database.Database, c: ReturnType<typeof clockCutoffs>): Overview {
  const groups = sqlite
    .prepare(
      'SELECT tier, validate_exit AS v, secret_exit AS s, injection_exit AS i, needs_backfill AS b, conflict AS c, count(*) AS n FROM memories GROUP BY 1, 2, 3, 4, 5, 6',
    )
    .all() as { tier: keyof Overview['tiers']; v: number; s: number; i: number; b: number; c: number; n: number }[];
  const count = (sql: string, ...args: number[]) =>
    (sqlite.prepare(`SELECT count(*) AS n FROM memories WHERE ${sql}`).get(...args) as { n: number }).n;
  const sum = (pred: (g: (typeof groups)[number]) => boolean) => groups.filter(pred).reduce((a, g) => a + g.n, 0);
  const perSource = new Map(
    (
      sqlite.prepare('SELECT source, count(*) AS n FROM memories GROUP BY source').all() as {
        source: string;
        n: number;
      }[]
    ).map((r) => [r.source, r.n]),
  );
  const bySource = (
    sqlite.prepare('SELECT id AS source, root, kind, error FROM sources ORDER BY root').all() as Omit<
      Overview['bySource'][number],
      'count'
    >[]
  ).map((s) => ({ ...s, count: perSource.get(s.source) ?? 0 }));
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
    lastScanMs: last ? Number(last.value) : null,
  };
}

export { DAY_MS };
