import { describe, expect, it } from 'vitest';
import { backfillPlan, shortHostname, type BackfillInput } from './backfill';
import { NOW } from './fixtures';

// NOW = 2026-05-05T12:00:00Z
const MTIME = new Date('2025-11-02T07:08:09.500Z');

function file(over: Partial<BackfillInput> = {}): BackfillInput {
  return { filename: 'feedback_ci.md', location: 'memories', type: 'feedback', mtime: MTIME, ...over };
}

describe('backfill default tiers', () => {
  it.each([
    ['user', 'verified', 'type:user'],
    ['feedback', 'verified', 'type:feedback'],
    ['project', 'verified', 'type:project'],
    ['reference', 'inferred', 'type:reference'],
    ['note', 'inferred', 'unknown-type'],
    ['Feedback', 'inferred', 'unknown-type'],
    ['constructor', 'inferred', 'unknown-type'],
    [undefined, 'inferred', 'missing-type'],
    ['', 'inferred', 'missing-type'],
  ])('type %j → %s', (type, tier, basis) => {
    expect(backfillPlan(file({ type }), NOW, 'raphael-mbp.local')).toMatchObject({ kind: 'apply', tier, basis });
  });
});

describe('backfill fields', () => {
  it('verified: trust-level, created-at from mtime, last-verified today, source-machine', () => {
    const p = backfillPlan(file(), NOW, 'raphael-mbp.local');
    expect(p).toEqual({
      kind: 'apply',
      filename: 'feedback_ci.md',
      tier: 'verified',
      basis: 'type:feedback',
      set: {
        'trust-level': 'verified',
        'created-at': '2025-11-02T07:08:09Z',
        'last-verified': '2026-05-05',
        'source-machine': 'raphael-mbp',
      },
      move: null,
      reason: 'type feedback defaults to verified',
      notes: ["created-at taken from the file's modification time"],
    });
  });

  it('inferred: no last-verified', () => {
    const p = backfillPlan(file({ type: 'reference' }), NOW, 'box');
    expect(p.kind === 'apply' && p.set).toEqual({
      'trust-level': 'inferred',
      'created-at': '2025-11-02T07:08:09Z',
      'source-machine': 'box',
    });
  });

  it('keeps created-at and source-machine that are already there', () => {
    const p = backfillPlan(file({ createdAt: '2026-01-01', sourceMachine: 'other' }), NOW, 'box');
    expect(p.kind === 'apply' && p.set).toEqual({ 'trust-level': 'verified', 'last-verified': '2026-05-05' });
  });

  it('leaves an invalid created-at alone and notes it', () => {
    const p = backfillPlan(file({ createdAt: 'last spring' }), NOW, 'box');
    expect(p.kind === 'apply' && p.set['created-at']).toBeUndefined();
    expect(p.kind === 'apply' && p.notes[0]).toContain('"last spring" is not ISO 8601');
  });

  it('no host name: source-machine left unset, with a note', () => {
    const p = backfillPlan(file(), NOW, '');
    expect(p.kind === 'apply' && 'source-machine' in p.set).toBe(false);
    expect(p.kind === 'apply' && p.notes).toContain('no host name known: source-machine left unset');
  });

  it('an empty trust-level counts as missing', () => {
    expect(backfillPlan(file({ trustLevel: '', hasTrustLevel: true }), NOW, 'box').kind).toBe('apply');
  });
});

describe('backfill overrides', () => {
  it.each([
    ['verified', 'reference', { 'trust-level': 'verified', 'last-verified': '2026-05-05' }],
    ['inferred', 'user', { 'trust-level': 'inferred' }],
  ] as const)('override to %s on a %s memory', (tier, type, set) => {
    const p = backfillPlan(file({ type, createdAt: '2026-01-01', sourceMachine: 'x' }), NOW, 'box', { tier });
    expect(p).toMatchObject({ kind: 'apply', tier, basis: 'override', set, move: null });
  });

  it('override to quarantined stamps the quarantine and moves the file', () => {
    const p = backfillPlan(file({ createdAt: '2026-01-01', sourceMachine: 'x' }), NOW, 'box.lan', {
      tier: 'quarantined',
      reason: 'stale\nlink',
    });
    expect(p).toEqual({
      kind: 'apply',
      filename: 'feedback_ci.md',
      tier: 'quarantined',
      basis: 'override',
      set: {
        'trust-level': 'quarantined',
        'last-verified': '2026-05-05',
        'quarantined-at': '2026-05-05T12:00:00Z',
        'quarantined-by': 'box',
        'quarantine-reason': 'stale link',
      },
      move: { dir: 'quarantine' },
      reason: 'tier chosen by the reviewer',
      notes: [],
    });
  });
});

describe('backfill skips', () => {
  it.each([
    [{ trustLevel: 'verified' }, 'already has trust-level: verified'],
    [{ trustLevel: 'inferred' }, 'already has trust-level: inferred'],
    [{ trustLevel: 'trusted' }, 'has an invalid trust-level "trusted"'],
    [{ hasTrustLevel: true, trustLevel: undefined }, 'trust-level is present but not plain text'],
    [{ location: 'quarantine' as const }, 'in quarantine/: its directory already decides its tier'],
    [{ location: 'archive' as const }, 'in archive/'],
    [{ conflict: true }, 'in both memories/ and quarantine/'],
  ])('%j', (over, reason) => {
    const p = backfillPlan(file(over), NOW, 'box', { tier: 'verified' });
    expect(p.kind).toBe('skip');
    expect(p.kind === 'skip' && p.reason).toContain(reason);
  });
});

describe('shortHostname', () => {
  it.each([
    ['raphael-mbp.local', 'raphael-mbp'],
    ['box', 'box'],
    ['a.b.c', 'a'],
    ['', ''],
  ])('%j → %j', (h, s) => {
    expect(shortHostname(h)).toBe(s);
  });
});

describe('backfill of a flagged file (docs/trust-model.md "Backfill")', () => {
  it.each([
    [{ credential: true }, 'holds a credential'],
    [{ injection: true }, 'holds an injection flag'],
    [{ hardFailure: true }, 'holds a hard validator failure'],
    [{ credential: true, injection: true }, 'holds a credential, an injection flag'],
  ])('%j stays inferred, with the reason, whatever its type', (checks, reason) => {
    for (const type of ['user', 'feedback', 'project']) {
      const p = backfillPlan(file({ type, checks }), NOW, 'box');
      expect(p).toMatchObject({ kind: 'apply', tier: 'inferred', basis: 'flagged' });
      expect(p.kind === 'apply' && p.reason).toContain(reason);
      // Inferred: no last-verified is written.
      expect(p.kind === 'apply' && p.set['last-verified']).toBeUndefined();
      expect(p.kind === 'apply' && p.set['trust-level']).toBe('inferred');
    }
  });

  it('a reviewer override to verified is refused for it, with a note; quarantined is still allowed', () => {
    const p = backfillPlan(file({ checks: { credential: true } }), NOW, 'box', { tier: 'verified' });
    expect(p).toMatchObject({ kind: 'apply', tier: 'inferred', basis: 'flagged' });
    expect(p.kind === 'apply' && p.notes).toContain('verified refused: the file is flagged');
    const q = backfillPlan(file({ checks: { credential: true } }), NOW, 'box', { tier: 'quarantined' });
    expect(q).toMatchObject({ kind: 'apply', tier: 'quarantined' });
  });

  it('a clean file (no checks, or all false) keeps the default of its type', () => {
    expect(backfillPlan(file({ checks: {} }), NOW, 'box')).toMatchObject({ tier: 'verified', basis: 'type:feedback' });
    expect(
      backfillPlan(file({ checks: { credential: false, injection: false, hardFailure: false } }), NOW, 'box'),
    ).toMatchObject({ tier: 'verified' });
  });
});
