import { describe, expect, it } from 'vitest';
import { addDays } from './dates';
import { dayOffset, inferred, NOW, OLD_MTIME, quarantined, verified } from './fixtures';
import { describeLifecycle, lifecycle, lifecycleHorizon } from './lifecycle';

const at = (iso: string) => new Date(iso);

describe('observation (inferred, 7 days)', () => {
  const DT = '2026-05-01T09:30:00Z';
  it.each([
    // created-at, now, over, daysLeft
    [DT, '2026-05-07T09:30:00Z', false, 1], // day N−1
    [DT, '2026-05-08T09:29:59Z', false, 0], // one second before
    [DT, '2026-05-08T09:30:00Z', true, 0], // day N, to the second
    [DT, '2026-05-09T09:30:00Z', true, 0], // day N+1
    ['2026-05-01', '2026-05-07T00:00:00Z', false, 1],
    ['2026-05-01', '2026-05-07T23:59:59Z', false, 1], // date-only = midnight UTC
    ['2026-05-01', '2026-05-08T00:00:00Z', true, 0],
    ['2026-05-01', '2026-05-09T00:00:00Z', true, 0],
    ['2026-05-01', '2026-05-05T12:00:00Z', false, 3],
  ])('created %s, now %s → over=%s, daysLeft=%i', (createdAt, now, over, daysLeft) => {
    const l = lifecycle(inferred({ createdAt }), at(now));
    expect(l.tier).toBe('inferred');
    expect(l.observation).toMatchObject({ over, daysLeft, basis: 'created-at' });
    expect(l.dueForReview).toBe(over);
    expect(l.verification).toBeNull();
    expect(l.quarantine).toBeNull();
  });

  it('falls back to mtime when created-at is absent, and says so', () => {
    const mtime = at('2026-04-30T10:00:00Z');
    const l = lifecycle(inferred({ createdAt: undefined, mtime }), NOW);
    expect(l.observation).toMatchObject({ basis: 'mtime', over: false, endsAt: at('2026-05-07T10:00:00Z') });
    expect(describeLifecycle(l, NOW)).toContain(
      "observation ends in 2 days (no created-at: measured from the file's modification time)",
    );
  });

  it('treats an invalid created-at as absent and reports it', () => {
    const l = lifecycle(inferred({ createdAt: '2026-02-30', mtime: OLD_MTIME }), NOW);
    expect(l.observation?.basis).toBe('mtime');
    expect(l.invalidFields).toEqual(['created-at']);
    expect(l.dueForReview).toBe(true);
  });

  it('memories without trust-level run the inferred clock', () => {
    const l = lifecycle(inferred({ trustLevel: undefined, createdAt: '2026-01-01' }), NOW);
    expect(l.reading.needsBackfill).toBe(true);
    expect(l.dueForReview).toBe(true);
  });
});

describe('staleness (verified, 90 days)', () => {
  it.each([
    [-89, false, 0],
    [-90, false, 0],
    [-91, true, 1],
    [-102, true, 12],
    [5, false, 0], // last-verified in the future (clock skew) is not stale
  ])('last-verified %i days → stale=%s, staleDays=%i', (offset, stale, staleDays) => {
    const l = lifecycle(verified({ lastVerified: dayOffset(offset) }), NOW);
    expect(l.verification).toMatchObject({ stale, staleDays, daysSince: -offset });
    expect(l.dueForReview).toBe(false);
  });

  it('counts whole UTC days, so the time of day does not matter', () => {
    const l = lifecycle(verified({ lastVerified: '2026-02-03T23:59:59Z' }), at('2026-05-05T00:00:00Z'));
    expect(l.verification?.daysSince).toBe(91);
    expect(l.verification?.stale).toBe(true);
  });

  it('missing or invalid last-verified is stale', () => {
    expect(lifecycle(verified({ lastVerified: undefined }), NOW).verification).toMatchObject({
      stale: true,
      daysSince: null,
      staleDays: null,
    });
    const bad = lifecycle(verified({ lastVerified: 'last week' }), NOW);
    expect(bad.verification?.stale).toBe(true);
    expect(bad.invalidFields).toEqual(['last-verified']);
  });
});

describe('quarantine retention', () => {
  it.each([
    [0, 'passive'],
    [30, 'passive'],
    [31, 'audit'],
    [90, 'audit'],
    [91, 'archive'],
    [400, 'archive'],
  ] as const)('day %i → %s', (days, window) => {
    const l = lifecycle(quarantined({ quarantinedAt: `${dayOffset(-days)}T23:00:00Z` }), NOW);
    expect(l.quarantine).toMatchObject({ days, window, basis: 'quarantined-at' });
  });

  it('measures from quarantined-at, else last-verified, else mtime', () => {
    const a = lifecycle(quarantined({ quarantinedAt: '2026-03-20T10:00:00Z', lastVerified: '2026-01-01' }), NOW);
    expect(a.quarantine).toMatchObject({ basis: 'quarantined-at', days: 46, archiveMonth: '2026-03' });
    const b = lifecycle(quarantined({ quarantinedAt: undefined, lastVerified: '2026-01-01' }), NOW);
    expect(b.quarantine).toMatchObject({ basis: 'last-verified', days: 124, archiveMonth: '2026-01' });
    const c = lifecycle(quarantined({ quarantinedAt: undefined, lastVerified: undefined }), NOW);
    expect(c.quarantine).toMatchObject({ basis: 'mtime', archiveMonth: '2025-01' });
  });

  it('skips an invalid quarantined-at and reports it', () => {
    const l = lifecycle(quarantined({ quarantinedAt: 'yesterday', lastVerified: '2026-05-01' }), NOW);
    expect(l.quarantine?.basis).toBe('last-verified');
    expect(l.invalidFields).toEqual(['quarantined-at']);
  });

  it('a quarantined-at in the future counts as day 0', () => {
    const l = lifecycle(quarantined({ quarantinedAt: '2026-06-01T00:00:00Z' }), NOW);
    expect(l.quarantine?.days).toBe(0);
  });

  it('archiveFrom is the first day of day 91', () => {
    const l = lifecycle(quarantined({ quarantinedAt: '2026-03-20T10:00:00Z' }), NOW);
    expect(l.quarantine?.archiveFrom.toISOString()).toBe('2026-06-19T00:00:00.000Z');
  });
});

describe('describeLifecycle', () => {
  it.each([
    [inferred({ createdAt: '2026-05-01' }), 'observation ends in 3 days'],
    [inferred({ createdAt: '2026-05-01T18:00:00Z' }), 'observation ends in 3 days'],
    [inferred({ createdAt: '2026-04-28T15:00:00Z' }), 'observation ends later today at 15:00 UTC'],
    [inferred({ createdAt: '2026-05-01' }), 'observation ends in 3 days'],
    [inferred({ createdAt: '2026-04-01' }), 'observation ended 2026-04-08'],
    [verified({ lastVerified: dayOffset(-102) }), 'stale for 12 days'],
    [verified({ lastVerified: dayOffset(-91) }), 'stale for 1 day'],
    [verified({ lastVerified: undefined }), 'never verified (no last-verified): stale until re-affirmed'],
    [verified({ lastVerified: dayOffset(-30) }), 'verified 30 days ago; stale after 60 more days'],
    [quarantined({ quarantinedAt: `${dayOffset(-47)}T08:00:00Z` }), 'day 47 in quarantine: audit candidate'],
    [quarantined({ quarantinedAt: `${dayOffset(-5)}T08:00:00Z` }), 'day 5 in quarantine: passive retention'],
    [quarantined({ quarantinedAt: `${dayOffset(-95)}T08:00:00Z` }), 'day 95 in quarantine: archive candidate'],
    [
      inferred({ location: 'memories', trustLevel: 'quarantined' }),
      'trust-level says quarantined but the file is in memories/: the directory wins',
    ],
    [
      verified({ conflict: true }),
      'in both memories/ and quarantine/: transitions are blocked until the conflict is resolved',
    ],
  ])('%#: %s', (facts, sentence) => {
    expect(describeLifecycle(lifecycle(facts, NOW), NOW)).toContain(sentence);
  });

  it('an inferred memory past observation says it awaits review', () => {
    const lines = describeLifecycle(lifecycle(inferred({ createdAt: '2026-04-01' }), NOW), NOW);
    expect(lines).toEqual([
      'observation ended 2026-04-08',
      'awaiting review: promote or demote it in the review inbox (/review)',
    ]);
  });

  it('quarantine before day 91 says when archiving opens', () => {
    const l = lifecycle(quarantined({ quarantinedAt: '2026-03-20T10:00:00Z' }), addDays(NOW, 0));
    expect(describeLifecycle(l, NOW)).toContain('archiving allowed from 2026-06-19 (in 45 days)');
  });
});

describe('lifecycleHorizon (until when a kept session text holds)', () => {
  // A small deterministic generator: trust dates around NOW, at odd minutes and whole days.
  let seed = 7;
  const rand = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const instant = () => new Date(NOW.getTime() + Math.round((rand() - 0.6) * 120 * 86_400_000));
  const factsOf = () => {
    const pick = rand();
    const created = rand() < 0.3 ? instant().toISOString().slice(0, 10) : instant().toISOString();
    if (pick < 0.45) return inferred({ createdAt: rand() < 0.2 ? undefined : created, mtime: instant() });
    if (pick < 0.8) return verified({ lastVerified: rand() < 0.1 ? undefined : instant().toISOString() });
    return quarantined({ quarantinedAt: instant().toISOString() });
  };

  it('no lifecycle answers differently before it, and something may at it', () => {
    let moved = 0;
    for (let i = 0; i < 400; i++) {
      const facts = factsOf();
      const now = instant();
      const h = lifecycleHorizon(facts, now);
      expect(h).toBeGreaterThan(now.getTime());
      const same = JSON.stringify(lifecycle(facts, now));
      // Probe the span: its start, random points inside, its last millisecond.
      for (const t of [now.getTime(), now.getTime() + (h - now.getTime()) * rand(), h - 1])
        expect(JSON.stringify(lifecycle(facts, new Date(Math.floor(t)))), `${i} at ${new Date(t).toISOString()}`).toBe(
          same,
        );
      if (JSON.stringify(lifecycle(facts, new Date(h))) !== same) moved++;
    }
    // Not merely a safe lower bound: day counts move at it (verified, quarantined, a running
    // observation); an observation already over moves at no midnight, so midnight is early for it.
    expect(moved).toBeGreaterThan(100);
  });

  it('ends at an inferred memory’s observation end when that comes before midnight', () => {
    const facts = inferred({ createdAt: '2026-04-28T15:00:00Z' });
    expect(new Date(lifecycleHorizon(facts, at('2026-05-05T09:00:00Z'))).toISOString()).toBe(
      '2026-05-05T15:00:00.000Z',
    );
    expect(new Date(lifecycleHorizon(facts, at('2026-05-05T16:00:00Z'))).toISOString()).toBe(
      '2026-05-06T00:00:00.000Z',
    );
  });
});
