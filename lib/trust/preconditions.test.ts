import { describe, expect, it } from 'vitest';
import { dayOffset, inferred, NOW, quarantined, userCtx, verified } from './fixtures';
import { decide } from './transitions';

const at = (iso: string) => new Date(iso);

describe('promote: now ≥ created-at + 7 days', () => {
  it.each([
    ['2026-05-01T09:30:00Z', '2026-05-07T09:30:00Z', 'observation-not-over'],
    ['2026-05-01T09:30:00Z', '2026-05-08T09:29:59Z', 'observation-not-over'],
    ['2026-05-01T09:30:00Z', '2026-05-08T09:30:00Z', 'ok'],
    ['2026-05-01T09:30:00Z', '2026-05-09T09:30:00Z', 'ok'],
    ['2026-05-01', '2026-05-07T23:59:59Z', 'observation-not-over'],
    ['2026-05-01', '2026-05-08T00:00:00Z', 'ok'],
    ['2026-05-01', '2026-05-09T00:00:00Z', 'ok'],
  ])('created %s, now %s → %s', (createdAt, now, expected) => {
    const d = decide('promote', inferred({ createdAt }), userCtx({ now: at(now) }));
    expect(d.ok ? 'ok' : d.code).toBe(expected);
  });

  it('says when the period ends', () => {
    const d = decide('promote', inferred({ createdAt: '2026-05-01' }), userCtx());
    expect(d).toMatchObject({
      ok: false,
      message: 'promotion refused: the observation period ends 2026-05-08, in 3 days',
    });
    const today = decide('promote', inferred({ createdAt: '2026-04-28T15:00:00Z' }), userCtx());
    expect(!today.ok && today.message).toBe(
      'promotion refused: the observation period ends 2026-05-05, later today at 15:00 UTC',
    );
  });

  it('uses mtime without created-at and says so', () => {
    const d = decide('promote', inferred({ createdAt: undefined, mtime: at('2026-05-03T00:00:00Z') }), userCtx());
    expect(!d.ok && d.message).toBe(
      "promotion refused: the observation period ends 2026-05-10, in 5 days (measured from the file's modification time: no created-at)",
    );
  });
});

describe('reaffirm: last-verified missing or more than 90 days ago', () => {
  it.each([
    [-89, 'not-stale'],
    [-90, 'not-stale'],
    [-91, 'ok'],
    [-365, 'ok'],
  ])('last-verified %i days → %s', (offset, expected) => {
    const d = decide('reaffirm', verified({ lastVerified: dayOffset(offset) }), userCtx());
    expect(d.ok ? 'ok' : d.code).toBe(expected);
  });

  it('missing last-verified is stale', () => {
    expect(decide('reaffirm', verified({ lastVerified: undefined }), userCtx()).ok).toBe(true);
  });

  it('says when re-affirmation becomes possible', () => {
    const d = decide('reaffirm', verified({ lastVerified: '2026-04-01' }), userCtx());
    expect(!d.ok && d.message).toBe(
      're-affirmation refused: feedback_ci_policy.md was last verified 2026-04-01, 34 days ago; re-affirmation is due only after 90 days (from 2026-07-01)',
    );
  });
});

describe('demote: a reason (user) or a hard validator failure', () => {
  it.each([undefined, '', '   ', '\n\t\u200b'])('user without a reason (%j) is refused', (reason) => {
    expect(decide('demote', verified(), userCtx({ reason }))).toMatchObject({ ok: false, code: 'reason-required' });
  });

  it.each([
    [{ validateExit: 1, secretExit: 0 }, true],
    [{ validateExit: 2, secretExit: 0 }, true],
    [{ validateExit: 0, secretExit: 1 }, true],
    [{ validateExit: 3, secretExit: 0 }, false],
    [{ validateExit: 0, secretExit: 0 }, false],
    [undefined, false],
  ])('validator with %j → allowed=%s', (checks, allowed) => {
    const d = decide('demote', inferred(), userCtx({ actor: 'validator', reason: undefined, checks }));
    expect(d.ok ? 'ok' : d.code).toBe(allowed ? 'ok' : 'no-hard-failure');
  });
});

describe('restore: validate ∈ {0,3} and secret-check = 0', () => {
  it.each([
    [0, 0, 'ok'],
    [3, 0, 'ok'],
    [1, 0, 'validators-fail'],
    [2, 0, 'validators-fail'],
    [0, 1, 'validators-fail'],
    [3, 1, 'validators-fail'],
    [64, 0, 'validators-fail'],
  ])('validate %i, secret %i → %s', (validateExit, secretExit, expected) => {
    const d = decide('restore', quarantined(), userCtx({ checks: { validateExit, secretExit } }));
    expect(d.ok ? 'ok' : d.code).toBe(expected);
  });

  it('needs a fresh check run', () => {
    expect(decide('restore', quarantined(), userCtx())).toMatchObject({ ok: false, code: 'checks-required' });
  });

  it('names what still fails', () => {
    const d = decide('restore', quarantined(), userCtx({ checks: { validateExit: 2, secretExit: 1 } }));
    expect(!d.ok && d.message).toBe(
      'restore refused: validate FAIL-FORMAT (exit 2); secret-check SECRET-DETECTED (exit 1); ' +
        'validate must pass (exit 0 or 3) and secret-check must be clean (injection-check is advisory)',
    );
  });
});

describe('archive: from day 91 in quarantine', () => {
  it.each([
    [30, 'not-archive-due'],
    [31, 'not-archive-due'],
    [90, 'not-archive-due'],
    [91, 'ok'],
    [92, 'ok'],
  ])('day %i → %s', (days, expected) => {
    const d = decide('archive', quarantined({ quarantinedAt: `${dayOffset(-days)}T18:00:00Z` }), userCtx());
    expect(d.ok ? 'ok' : d.code).toBe(expected);
  });

  it('says which day it is and when archiving opens', () => {
    const d = decide('archive', quarantined({ quarantinedAt: '2026-03-20T10:00:00Z' }), userCtx());
    expect(!d.ok && d.message).toBe(
      'archiving refused: reference_dashboard.md is on day 46 in quarantine; archiving is allowed from day 91 (2026-06-19)',
    );
  });

  it('measures from last-verified then mtime when quarantined-at is absent', () => {
    const byLv = quarantined({ quarantinedAt: undefined, lastVerified: dayOffset(-91) });
    expect(decide('archive', byLv, userCtx()).ok).toBe(true);
    const byMtime = quarantined({ quarantinedAt: undefined, lastVerified: undefined, mtime: NOW });
    expect(decide('archive', byMtime, userCtx())).toMatchObject({ ok: false, code: 'not-archive-due' });
  });
});
