/**
 * The lifecycle thresholds as epoch-ms cutoffs for SQL, derived from the trust
 * domain's constants so the dashboard, the CLI and lib/trust agree on day N.
 * Day counts are whole UTC days: a memory verified on day D is stale from
 * D + 91 (more than 90 days), observed from created-at + 7 days exactly.
 */
import { DAY_MS, startOfUtcDay } from '../../lib/trust/dates';
import { ARCHIVE_FROM_DAY, AUDIT_FROM_DAY, OBSERVATION_DAYS, STALE_AFTER_DAYS } from '../../lib/trust/tiers';

export interface Cutoffs {
  /** last_verified_ms below this → stale. */
  staleBefore: number;
  /** created_ms at or below this → observation over. */
  observedBefore: number;
  /** quarantine_since_ms at or below this → day ≥ 31 (audit). */
  auditFrom: number;
  /** quarantine_since_ms at or below this → day ≥ 91 (archive candidate). */
  archiveFrom: number;
}

export function clockCutoffs(now: Date): Cutoffs {
  const today = startOfUtcDay(now).getTime();
  // A quarantine started any time on day D is "day k" on D + k: compare day starts.
  const dayEnd = today + DAY_MS - 1;
  return {
    staleBefore: today - STALE_AFTER_DAYS * DAY_MS,
    // Whole seconds: memoised views can be reused within a second (dates are stored to the second).
    observedBefore: Math.floor(now.getTime() / 1000) * 1000 - OBSERVATION_DAYS * DAY_MS,
    auditFrom: dayEnd - AUDIT_FROM_DAY * DAY_MS,
    archiveFrom: dayEnd - ARCHIVE_FROM_DAY * DAY_MS,
  };
}
