/** The mapping table of docs/layouts.md and the TTL edges, on the pure functions with a fixed now. */
import { describe, expect, it } from 'vitest';
import { capabilities, check, evaluate, flagsOf, isExpired, parseIso, tierOf } from './map';
import { rec } from './test-fixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const DAY = 86_400_000;
const ev = (over: Record<string, unknown> = {}, now = NOW) => evaluate(rec('mem_t1', over), now);

describe('tier mapping', () => {
  const table: [string, Record<string, unknown>, string][] = [
    ['active + high', { confidence: 'high' }, 'verified'],
    ['active + medium', { confidence: 'medium' }, 'inferred'],
    ['active + low', { confidence: 'low' }, 'inferred'],
    ['active + missing confidence', { confidence: undefined }, 'inferred'],
    ['active + high, no evidence', { confidence: 'high', evidence: [] }, 'inferred'],
    ['active + high, evidence ""', { confidence: 'high', evidence: '  ' }, 'inferred'],
    ['active + high, sourceStep ""', { confidence: 'high', sourceStep: '' }, 'inferred'],
    ['active + high, sourceStep null', { confidence: 'high', sourceStep: null }, 'inferred'],
    ['active + high, no sourceStep key', { confidence: 'high', sourceStep: undefined }, 'inferred'],
    ['active + high, secret', { confidence: 'high', sensitivity: 'secret' }, 'inferred'],
    ['active + high, working', { confidence: 'high', type: 'working' }, 'archived'],
    ['needs-review', { status: 'needs-review', confidence: 'high' }, 'quarantined'],
    ['needs-review past expiry', { status: 'needs-review', createdAt: '2025-01-01T00:00:00Z' }, 'quarantined'],
    ['expired', { status: 'expired', confidence: 'high' }, 'archived'],
    ['expired with a future expiresAt', { status: 'expired', expiresAt: '2030-01-01T00:00:00Z' }, 'archived'],
    ['active past expiresAt', { confidence: 'high', expiresAt: '2026-11-22T11:59:59Z' }, 'archived'],
    ['active past TTL (episodic)', { type: 'episodic', createdAt: '2026-11-01T00:00:00Z' }, 'archived'],
    ['unknown status', { status: 'archived-by-hand' }, 'quarantined'],
    ['no status', { status: undefined }, 'quarantined'],
  ];
  it.each(table)('%s → %s', (_l, over, tier) => {
    expect(tierOf(ev(over), NOW)).toBe(tier);
  });

  it('names each broken write rule in the flag reason', () => {
    const e = ev({ evidence: [], sourceStep: null, sensitivity: 'secret', type: 'working' });
    expect(e.broken).toEqual(['no-evidence', 'no-source-step', 'secret', 'working']);
    const { flags, reasons } = flagsOf(e, NOW, []);
    expect(flags).toEqual(['write-rule', 'expired']);
    expect(reasons['write-rule']).toMatch(/no evidence .*; no sourceStep .*; sensitivity secret .*; type working/);
  });

  it('conflict only on a needs-review record with a partner; the reason names the other id and the note', () => {
    const e = ev({ status: 'needs-review', conflictNote: 'README says 3, config says 4' });
    const f = flagsOf(e, NOW, [{ id: 'mem_other', status: 'needs-review' }]);
    expect(f.flags).toEqual(['conflict']);
    expect(f.reasons.conflict).toBe('contradicts mem_other (needs-review): README says 3, config says 4');
    expect(flagsOf(ev({ status: 'active' }), NOW, [{ id: 'mem_other', status: 'expired' }]).flags).toEqual([]);
    expect(flagsOf(e, NOW, [{ id: 'mem_gone', status: null }]).reasons.conflict).toMatch(
      /mem_gone \(not in this store\)/,
    );
  });
});

describe('TTL and expiry (fixed now)', () => {
  const created = '2026-11-01T12:00:00Z';
  it.each([
    ['episodic', 14],
    ['semantic', 180],
    ['procedural', 365],
    ['working', 0],
  ])('%s: expires exactly createdAt + %i days', (type, days) => {
    const at = new Date(Date.parse(created) + days * DAY);
    const e = ev({ type, createdAt: created }, at);
    expect(e.expiry?.toISOString()).toBe(at.toISOString());
    expect(e.expiryBasis).toBe('ttl');
    expect(isExpired(e, new Date(at.getTime() - 1))).toBe(false);
    expect(isExpired(e, at)).toBe(true);
  });

  it('an explicit expiresAt wins over the TTL, earlier or later', () => {
    const later = ev({ type: 'episodic', createdAt: created, expiresAt: '2027-06-01T00:00:00Z' });
    expect(later.expiryBasis).toBe('expiresAt');
    expect(isExpired(later, NOW)).toBe(false);
    const earlier = ev({ type: 'procedural', createdAt: created, expiresAt: '2026-11-02' });
    expect(isExpired(earlier, NOW)).toBe(true);
    expect(flagsOf(earlier, NOW, []).reasons.expired).toMatch(/expired 2026-11-02T00:00:00Z \(its expiresAt\)/);
  });

  it('an unparseable expiresAt falls back to the TTL and is named', () => {
    const e = ev({ type: 'episodic', createdAt: created, expiresAt: 'next tuesday' });
    expect(e.expiryBasis).toBe('ttl');
    expect(e.problems.join()).toMatch(/expiresAt "next tuesday" is not an ISO-8601 date/);
  });

  it('no createdAt and no expiresAt: never expires, named as a problem', () => {
    const e = ev({ createdAt: undefined });
    expect(e.expiry).toBeNull();
    expect(e.problems.join()).toMatch(/createdAt is missing/);
    expect(check(e, 'promote', NOW)).toMatch(/no valid createdAt/);
  });

  it('parseIso: forms real tools write, offsets, and impossible dates', () => {
    expect(parseIso('2026-11-22')?.toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(parseIso('2026-11-22T10:00:00.123Z')?.toISOString()).toBe('2026-11-22T10:00:00.123Z');
    expect(parseIso('2026-11-22T10:00:00+02:00')?.toISOString()).toBe('2026-11-22T08:00:00.000Z');
    expect(parseIso('2026-11-22T10:00:00-0130')?.toISOString()).toBe('2026-11-22T11:30:00.000Z');
    expect(parseIso('2026-11-22T10:00')?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    for (const bad of ['2026-02-30', '2026-13-01', '22/11/2026', '2026-11-22T25:00:00Z', '', 'yesterday'])
      expect(parseIso(bad), bad).toBeNull();
  });
});

describe('what each record allows', () => {
  it('promote waits 7 days from createdAt and names the date it becomes possible', () => {
    const e = ev({ createdAt: '2026-11-16T12:00:01Z' });
    expect(check(e, 'promote', NOW)).toBe(
      'promote refused: the 7-day observation from createdAt ends 2026-11-23T12:00:01Z; promote is possible from then',
    );
    expect(check(ev({ createdAt: '2026-11-15T12:00:00Z' }), 'promote', NOW)).toBeNull();
  });

  it('a write-rule record is never promoted, re-affirmed or restored, and the rule is named', () => {
    const e = ev({ evidence: [] });
    expect(check(e, 'promote', NOW)).toMatch(/promote refused: .*no evidence/);
    expect(check(e, 'reaffirm', NOW)).toMatch(/reaffirm refused: .*no evidence/);
    const r = ev({ status: 'needs-review', sensitivity: 'secret' });
    expect(check(r, 'restore', NOW)).toMatch(/restore refused: .*sensitivity secret/);
    expect(check(r, 'archive', NOW)).toBeNull();
  });

  it('a needs-review pair member can be restored or archived (the resolution batch), nothing else', () => {
    const e = ev({ status: 'needs-review', conflictsWith: ['mem_x'] });
    expect(capabilities(e, NOW).actions).toEqual(['restore', 'archive']);
    expect(capabilities(e, NOW).refused.demote).toMatch(/needs-review/);
  });

  it('an active record allows promote/reaffirm/demote/archive; an expired one only restore', () => {
    expect(capabilities(ev(), NOW).actions).toEqual(['promote', 'reaffirm', 'demote', 'archive']);
    const x = ev({ status: 'expired', expiresAt: '2030-01-01' });
    expect(capabilities(x, NOW).actions).toEqual(['restore']);
    const past = ev({ status: 'expired', type: 'episodic', createdAt: '2026-01-01T00:00:00Z' });
    expect(capabilities(past, NOW).actions).toEqual([]);
    expect(capabilities(past, NOW).refused.restore).toMatch(
      /expired 2026-01-15T00:00:00Z \(createdAt \+ 14 days for type episodic\)/,
    );
  });
});
