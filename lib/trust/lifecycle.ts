/**
 * The lifecycle clock (docs/trust-model.md): observation for inferred, staleness for verified,
 * retention windows for quarantined. Pure: `now` is always an argument.
 */
import { addDays, monthOf, parseTimestamp, startOfUtcDay, utcDaysBetween } from './dates';
import { effectiveTier, type MemoryFacts, type TierReading } from './facts';
import {
  ARCHIVE_FROM_DAY,
  AUDIT_FROM_DAY,
  FIELD,
  OBSERVATION_DAYS,
  STALE_AFTER_DAYS,
  type EffectiveTier,
  type QuarantineWindow,
} from './tiers';

export interface Observation {
  startedAt: Date;
  /** startedAt + 7 days; promotion is allowed when now ≥ endsAt. */
  endsAt: Date;
  over: boolean;
  /** Whole UTC days from today to endsAt's date while running (0 = ends later today); 0 once over. */
  daysLeft: number;
  basis: 'created-at' | 'mtime';
}

export interface Verification {
  /** last-verified as written, when it parses. */
  lastVerified: Date | null;
  /** Whole UTC days since last-verified; null when missing. */
  daysSince: number | null;
  /** Missing last-verified, or more than 90 whole days old. */
  stale: boolean;
  /** Days past the 90-day threshold (day 91 = 1); null when never verified; 0 when fresh. */
  staleDays: number | null;
}

export interface QuarantineAge {
  since: Date;
  /** Whole UTC days since `since` (day 0 = the day of quarantine); never negative. */
  days: number;
  window: QuarantineWindow;
  basis: 'quarantined-at' | 'last-verified' | 'mtime';
  /** archive/YYYY-MM/ folder this memory would go to. */
  archiveMonth: string;
  /** First day archiving is allowed (since + 91 days). */
  archiveFrom: Date;
}

export interface Lifecycle {
  tier: EffectiveTier;
  reading: TierReading;
  observation: Observation | null;
  verification: Verification | null;
  quarantine: QuarantineAge | null;
  /** Inferred with its observation over: belongs in the /memory-review queue. */
  dueForReview: boolean;
  /** Trust date fields present but unparseable (ignored for the clock, reported to the user). */
  invalidFields: string[];
}

function read(value: string | undefined, field: string, invalid: string[]): Date | null {
  if (value === undefined || value === '') return null;
  const ts = parseTimestamp(value);
  if (!ts) invalid.push(field);
  return ts ? ts.date : null;
}

export function quarantineWindow(days: number): QuarantineWindow {
  if (days >= ARCHIVE_FROM_DAY) return 'archive';
  return days >= AUDIT_FROM_DAY ? 'audit' : 'passive';
}

interface ParsedDates {
  from: [string | undefined, string | undefined, string | undefined];
  createdAt: Date | null;
  lastVerified: Date | null;
  quarantinedAt: Date | null;
  invalid: string[];
}

/**
 * The trust dates of a facts object as last parsed, with the strings they came from: a
 * caller that plans the same memories again (the dashboard's session context,
 * docs/session-context.md "Between changes") does not parse 100,000 timestamps again. Taken
 * only while the strings are the same; the dates are shared, never changed here.
 */
const parsed = new WeakMap<MemoryFacts, ParsedDates>();

function trustDates(facts: MemoryFacts): ParsedDates {
  const p = parsed.get(facts);
  if (p && p.from[0] === facts.createdAt && p.from[1] === facts.lastVerified && p.from[2] === facts.quarantinedAt)
    return p;
  const invalid: string[] = [];
  const fresh: ParsedDates = {
    from: [facts.createdAt, facts.lastVerified, facts.quarantinedAt],
    createdAt: read(facts.createdAt, FIELD.createdAt, invalid),
    lastVerified: read(facts.lastVerified, FIELD.lastVerified, invalid),
    quarantinedAt: read(facts.quarantinedAt, FIELD.quarantinedAt, invalid),
    invalid,
  };
  parsed.set(facts, fresh);
  return fresh;
}

export function lifecycle(facts: MemoryFacts, now: Date): Lifecycle {
  const reading = effectiveTier(facts);
  const dates = trustDates(facts);
  const invalidFields = [...dates.invalid];
  const { createdAt, lastVerified, quarantinedAt } = dates;
  const out: Lifecycle = {
    tier: reading.tier,
    reading,
    observation: null,
    verification: null,
    quarantine: null,
    dueForReview: false,
    invalidFields,
  };

  if (reading.tier === 'inferred') {
    const startedAt = createdAt ?? facts.mtime;
    const endsAt = addDays(startedAt, OBSERVATION_DAYS);
    const over = now.getTime() >= endsAt.getTime();
    out.observation = {
      startedAt,
      endsAt,
      over,
      daysLeft: over ? 0 : Math.max(0, utcDaysBetween(now, endsAt)),
      basis: createdAt ? 'created-at' : 'mtime',
    };
    out.dueForReview = over;
  } else if (reading.tier === 'verified') {
    const daysSince = lastVerified ? utcDaysBetween(lastVerified, now) : null;
    const stale = daysSince === null || daysSince > STALE_AFTER_DAYS;
    out.verification = {
      lastVerified,
      daysSince,
      stale,
      staleDays: daysSince === null ? null : Math.max(0, daysSince - STALE_AFTER_DAYS),
    };
  } else if (reading.tier === 'quarantined') {
    const since = quarantinedAt ?? lastVerified ?? facts.mtime;
    const basis = quarantinedAt ? 'quarantined-at' : lastVerified ? 'last-verified' : 'mtime';
    // A clock set in the future (another machine's skew) counts as day 0, not a negative day.
    const days = Math.max(0, utcDaysBetween(since, now));
    out.quarantine = {
      since,
      days,
      window: quarantineWindow(days),
      basis,
      archiveMonth: monthOf(since),
      archiveFrom: addDays(startOfUtcDay(since), ARCHIVE_FROM_DAY),
    };
  }
  return out;
}

/**
 * The first instant after `now` at which `lifecycle(facts, ·)` may answer differently: every
 * whole-day count moves at UTC midnight, an inferred memory's observation ends at its own
 * instant. A text made from lifecycles at `now` holds until the earliest of these
 * (docs/session-context.md, "The kept text").
 */
export function lifecycleHorizon(facts: MemoryFacts, now: Date): number {
  const t = now.getTime();
  const midnight = startOfUtcDay(now).getTime() + 86_400_000;
  if (effectiveTier(facts).tier !== 'inferred') return midnight;
  const startedAt = trustDates(facts).createdAt ?? facts.mtime;
  const ends = addDays(startedAt, OBSERVATION_DAYS).getTime();
  return ends > t && ends < midnight ? ends : midnight;
}

export { describeLifecycle, observationPhrase } from './describe';
