/**
 * Test factories for trust facts (used only by *.test.ts; not exported from index).
 * Every fixture pins the clock to NOW so thresholds are computed from fixed dates.
 */
import { addDays, isoNow, today } from './dates';
import type { MemoryFacts } from './facts';
import type { DecideContext } from './transitions';

export const NOW = new Date('2026-05-05T12:00:00Z');
export const OLD_MTIME = new Date('2025-01-01T08:00:00Z');

/** `NOW` shifted by whole days, as a date-only string. */
export function dayOffset(days: number, from = NOW): string {
  return today(addDays(from, days));
}

export function dateTimeOffset(days: number, from = NOW): string {
  return isoNow(addDays(from, days));
}

export function verified(over: Partial<MemoryFacts> = {}): MemoryFacts {
  return {
    filename: 'feedback_ci_policy.md',
    location: 'memories',
    trustLevel: 'verified',
    type: 'feedback',
    createdAt: '2025-01-01T08:00:00Z',
    lastVerified: dayOffset(-10),
    mtime: OLD_MTIME,
    ...over,
  };
}

export function inferred(over: Partial<MemoryFacts> = {}): MemoryFacts {
  return {
    filename: 'project_build_notes.md',
    location: 'memories',
    trustLevel: 'inferred',
    type: 'project',
    createdAt: dateTimeOffset(-2),
    mtime: OLD_MTIME,
    ...over,
  };
}

export function quarantined(over: Partial<MemoryFacts> = {}): MemoryFacts {
  return {
    filename: 'reference_dashboard.md',
    location: 'quarantine',
    trustLevel: 'quarantined',
    type: 'reference',
    createdAt: '2025-01-01T08:00:00Z',
    lastVerified: dayOffset(-10),
    quarantinedAt: dateTimeOffset(-10),
    mtime: OLD_MTIME,
    ...over,
  };
}

export function archived(over: Partial<MemoryFacts> = {}): MemoryFacts {
  return quarantined({ location: 'archive', quarantinedAt: dateTimeOffset(-200), ...over });
}

export function userCtx(over: Partial<DecideContext> = {}): DecideContext {
  return { now: NOW, machine: 'raphael-mbp', actor: 'user', reason: 'no longer accurate', ...over };
}
