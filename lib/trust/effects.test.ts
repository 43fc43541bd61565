import { describe, expect, it } from 'vitest';
import { dayOffset, inferred, quarantined, userCtx, verified } from './fixtures';
import { decide } from './transitions';

// NOW = 2026-05-05T12:00:00Z
const TODAY = '2026-05-05';
const STAMP = '2026-05-05T12:00:00Z';

describe('exact frontmatter written by each transition', () => {
  it('create-user', () => {
    expect(decide('create-user', null, userCtx())).toEqual({
      ok: true,
      noop: false,
      action: 'create-user',
      from: null,
      to: 'verified',
      set: { 'created-at': STAMP, 'trust-level': 'verified', 'last-verified': TODAY, 'source-machine': 'raphael-mbp' },
      remove: [],
      move: { dir: 'memories' },
    });
  });

  it('create-inferred (no last-verified)', () => {
    expect(decide('create-inferred', null, userCtx())).toEqual({
      ok: true,
      noop: false,
      action: 'create-inferred',
      from: null,
      to: 'inferred',
      set: { 'created-at': STAMP, 'trust-level': 'inferred', 'source-machine': 'raphael-mbp' },
      remove: [],
      move: { dir: 'memories' },
    });
  });

  it('promote', () => {
    expect(decide('promote', inferred({ createdAt: '2026-04-01' }), userCtx())).toEqual({
      ok: true,
      noop: false,
      action: 'promote',
      from: 'inferred',
      to: 'verified',
      set: { 'trust-level': 'verified', 'last-verified': TODAY },
      remove: [],
      move: null,
    });
  });

  it('reaffirm', () => {
    expect(decide('reaffirm', verified({ lastVerified: dayOffset(-200) }), userCtx())).toEqual({
      ok: true,
      noop: false,
      action: 'reaffirm',
      from: 'verified',
      to: 'verified',
      set: { 'last-verified': TODAY },
      remove: ['changed-since-verified'],
      move: null,
    });
  });

  it.each([
    ['verified', verified()],
    ['inferred', inferred()],
  ] as const)('demote from %s (user)', (from, facts) => {
    expect(decide('demote', facts, userCtx({ reason: 'Points at a removed flag' }))).toEqual({
      ok: true,
      noop: false,
      action: 'demote',
      from,
      to: 'quarantined',
      set: {
        'trust-level': 'quarantined',
        'last-verified': TODAY,
        'quarantined-at': STAMP,
        'quarantined-by': 'raphael-mbp',
        'quarantine-reason': 'Points at a removed flag',
      },
      remove: ['changed-since-verified'],
      move: { dir: 'quarantine' },
    });
  });

  it('demote by a validator records the failure as the reason when none is given', () => {
    const d = decide(
      'demote',
      verified(),
      userCtx({ actor: 'validator', reason: undefined, checks: { validateExit: 0, secretExit: 1 } }),
    );
    expect(d.ok && !d.noop && d.set['quarantine-reason']).toBe('validator: secret-check SECRET-DETECTED (exit 1)');
  });

  it('demote sanitises the reason to one line', () => {
    const reason = 'line one\nline two\r\n\tthree \u001b[31mred\u001b[0m \u202egnp.exe\u202c  end';
    const d = decide('demote', verified(), userCtx({ reason }));
    expect(d.ok && !d.noop && d.set['quarantine-reason']).toBe('line one line two three [31mred [0m gnp.exe end');
  });

  it('restore removes the quarantine fields whole and moves back', () => {
    expect(decide('restore', quarantined(), userCtx({ checks: { validateExit: 3, secretExit: 0 } }))).toEqual({
      ok: true,
      noop: false,
      action: 'restore',
      from: 'quarantined',
      to: 'verified',
      set: { 'trust-level': 'verified', 'last-verified': TODAY },
      remove: ['quarantined-at', 'quarantined-by', 'quarantine-reason', 'changed-since-verified'],
      move: { dir: 'memories' },
    });
  });

  it('archive writes nothing and moves to the month of quarantined-at', () => {
    expect(
      decide('archive', quarantined({ quarantinedAt: '2026-01-31T23:59:59Z', lastVerified: '2025-12-01' }), userCtx()),
    ).toEqual({
      ok: true,
      noop: false,
      action: 'archive',
      from: 'quarantined',
      to: 'archived',
      set: {},
      remove: [],
      move: { dir: 'archive', month: '2026-01' },
    });
  });

  it.each([
    [{ quarantinedAt: undefined, lastVerified: '2025-12-01' }, '2025-12'],
    [{ quarantinedAt: undefined, lastVerified: undefined }, '2025-01'],
  ])('archive month falls back (%j → %s)', (over, month) => {
    const d = decide('archive', quarantined(over), userCtx());
    expect(d.ok && d.move).toEqual({ dir: 'archive', month });
  });

  it('edit changes no trust field', () => {
    expect(decide('edit', verified(), userCtx())).toMatchObject({
      ok: true,
      set: {},
      remove: [],
      move: null,
      to: 'verified',
    });
  });

  it('a memory without trust-level is promoted like an inferred one', () => {
    const d = decide('promote', inferred({ trustLevel: undefined, createdAt: '2026-01-01' }), userCtx());
    expect(d).toMatchObject({ ok: true, from: 'inferred', to: 'verified' });
  });
});
