/**
 * When a canonical entry is stale (computed, never stored; docs/canonical-layout.md,
 * "Staleness"). Pure: the entry's fields, the history index and `now` in, a verdict
 * with its reason out.
 */
import { parseDate, plural, utcDaysBetween } from '../../trust/dates';
import { STALE_AFTER_DAYS } from '../../trust/tiers';
import type { GitIndex } from './git';
import type { Category, Staleness } from './types';

/** 30 or more commits since `verified-at` (docs/canonical-layout.md). */
export const STALE_AFTER_COMMITS = 30;
/** Categories that never go stale by age: intent and decisions expire by closure. */
export const AGE_EXEMPT: readonly Category[] = ['backlog', 'decisions'];

export const MISSING_COMMIT = 'verified at a commit this checkout does not have';

export function isSha(value: string | null | undefined): value is string {
  return !!value && /^[0-9a-f]{7,40}$/i.test(value.trim());
}

/** The `YYYY-MM-DD` a value starts with (`2026-04-29  # note` → 2026-04-29), else null. */
export function leadingDate(value: string | null | undefined): Date | null {
  const m = /^\s*['"]?(\d{4}-\d{2}-\d{2})/.exec(value ?? '');
  return m ? parseDate(m[1]!) : null;
}

export interface StalenessInput {
  category: Category | 'pending';
  closed: string | null;
  verifiedSha: string | null;
  verifiedDate: string | null;
  /** Paths and globs of the entry's target, for the "M touch its target" count. */
  targetPaths: string[];
}

export function staleness(e: StalenessInput, git: GitIndex | null, now: Date): Staleness {
  if (e.closed)
    return { stale: false, basis: 'closed', reason: `closed (${e.closed}); closed entries do not go stale` };
  const exempt = (AGE_EXEMPT as readonly string[]).includes(e.category);
  const byCommits = commitsPart(e, git);
  if (exempt) {
    const also = byCommits ? ` (${byCommits.reason})` : '';
    return {
      stale: false,
      basis: 'exempt',
      reason: `${e.category} entries never go stale by age${also}`,
      ...counts(byCommits),
    };
  }
  if (byCommits) return byCommits;
  const d = leadingDate(e.verifiedDate);
  if (!d) return { stale: false, basis: 'none', reason: 'no verified date or commit to age from' };
  const days = utcDaysBetween(d, now);
  const stale = days >= STALE_AFTER_DAYS;
  return {
    stale,
    basis: 'date',
    days,
    reason: `${plural(Math.max(days, 0), 'day')} since ${e.verifiedDate!.trim()} (stale at ${STALE_AFTER_DAYS})`,
  };
}

function counts(s: Staleness | null): Partial<Staleness> {
  return s ? { commits: s.commits, touching: s.touching } : {};
}

/** The commit-count verdict, or null when it does not apply (no SHA, no history). */
function commitsPart(e: StalenessInput, git: GitIndex | null): Staleness | null {
  if (!git || !isSha(e.verifiedSha)) return null;
  const sha = e.verifiedSha.trim();
  const short = sha.slice(0, 7);
  const at = git.resolve(sha);
  if (at === 'ambiguous')
    return { stale: true, basis: 'missing-commit', reason: `verified at ${sha}, which names more than one commit` };
  if (at === null) {
    if (git.truncated) {
      const n = git.commits.length;
      return {
        stale: true,
        basis: 'commits',
        commits: n,
        reason: `more than ${n} commits since ${short} (older than the history read)`,
      };
    }
    return { stale: true, basis: 'missing-commit', reason: `${MISSING_COMMIT} (${short})` };
  }
  const commits = git.commitsSince(at);
  const touching = git.touchingSince(at, e.targetPaths);
  const touch = e.targetPaths.length ? `, ${touching} touch its target` : '';
  return {
    stale: commits >= STALE_AFTER_COMMITS,
    basis: 'commits',
    commits,
    touching,
    reason: `${plural(commits, 'commit')} since ${short}${touch}`,
  };
}
