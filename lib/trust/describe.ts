/**
 * Short sentences about a memory's lifecycle, for the UI, `memtrust show` and reports.
 * Kept apart from the clock so wording can change without touching the rules.
 */
import { plural, timeOfDay, today, utcDaysBetween } from './dates';
import type { Lifecycle, Observation } from './lifecycle';
import { STALE_AFTER_DAYS, TIER_DIR } from './tiers';

const WINDOW_TEXT = {
  passive: 'passive retention',
  audit: 'audit candidate',
  archive: 'archive candidate',
} as const;

const BASIS_NOTE = {
  'last-verified': 'measured from last-verified (no quarantined-at)',
  mtime: "measured from the file's modification time (no quarantined-at or last-verified)",
} as const;

/** "ends in 3 days" / "ends later today at 09:30 UTC" / "ended 2026-05-08". */
export function observationPhrase(o: Observation): string {
  if (o.over) return `ended ${today(o.endsAt)}`;
  if (o.daysLeft === 0) return `ends later today at ${timeOfDay(o.endsAt)} UTC`;
  return `ends in ${plural(o.daysLeft, 'day')}`;
}

export function describeLifecycle(l: Lifecycle, now: Date): string[] {
  const out: string[] = [];
  const r = l.reading;
  if (r.conflict) out.push('in both memories/ and quarantine/: transitions are blocked until the conflict is resolved');
  if (r.mismatch) {
    out.push(`trust-level says ${r.declared} but the file is in ${TIER_DIR[l.tier]}/: the directory wins`);
  }
  if (r.needsBackfill) out.push('no trust-level: treated as inferred until backfilled');
  if (r.invalidTrustLevel) out.push('trust-level is not verified, inferred or quarantined: treated by its directory');
  for (const f of l.invalidFields) out.push(`${f} is not an ISO date: ignored`);

  if (l.observation) {
    const o = l.observation;
    let s = `observation ${observationPhrase(o)}`;
    if (o.basis === 'mtime') s += " (no created-at: measured from the file's modification time)";
    out.push(s);
    if (o.over) out.push('awaiting review: promote or demote it in the review inbox (/review)');
  }
  if (l.verification) {
    const v = l.verification;
    if (v.daysSince === null) out.push('never verified (no last-verified): stale until re-affirmed');
    else if (v.stale) out.push(`stale for ${plural(v.staleDays ?? 0, 'day')}`);
    else if (v.daysSince < 0) out.push(`last verified in the future (${today(v.lastVerified!)}): clock skew?`);
    else {
      const left = STALE_AFTER_DAYS - v.daysSince;
      out.push(
        `verified ${v.daysSince === 0 ? 'today' : `${plural(v.daysSince, 'day')} ago`}; stale after ${plural(left, 'more day')}`,
      );
    }
  }
  if (l.quarantine) {
    const q = l.quarantine;
    out.push(`day ${q.days} in quarantine: ${WINDOW_TEXT[q.window]}`);
    if (q.basis !== 'quarantined-at') out.push(BASIS_NOTE[q.basis]);
    if (q.window !== 'archive') {
      out.push(
        `archiving allowed from ${today(q.archiveFrom)} (in ${plural(utcDaysBetween(now, q.archiveFrom), 'day')})`,
      );
    }
  }
  if (l.tier === 'archived') out.push('archived on this machine: kept as a record, never loaded');
  return out;
}
