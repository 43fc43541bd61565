import { describe, expect, it } from 'vitest';
import type { MemoryFacts } from './facts';
import { archived, inferred, quarantined, userCtx, verified } from './fixtures';
import { actionFor, decide, type Decision } from './transitions';
import { ACTIONS, type Action } from './tiers';

/** One memory per tier with every precondition of its own transitions satisfied. */
const READY = {
  none: null,
  verified: verified({ lastVerified: '2025-12-01' }), // stale
  inferred: inferred({ createdAt: '2026-04-01T00:00:00Z' }), // observation over
  quarantined: quarantined({ quarantinedAt: '2026-01-01T00:00:00Z' }), // day 124
  archived: archived(),
} satisfies Record<string, MemoryFacts | null>;

const ctx = userCtx({ checks: { validateExit: 0, secretExit: 0 } });

function outcome(d: Decision): string {
  if (!d.ok) return d.code;
  return d.noop ? 'noop' : `ok:${d.to}`;
}

// Every tier × action for the user, preconditions satisfied: what remains is the tier rule.
const USER_MATRIX: Record<string, Record<Action, string>> = {
  none: {
    'create-user': 'ok:verified',
    'create-inferred': 'ok:inferred',
    promote: 'not-found',
    reaffirm: 'not-found',
    demote: 'not-found',
    restore: 'not-found',
    archive: 'not-found',
    edit: 'not-found',
  },
  verified: {
    'create-user': 'exists',
    'create-inferred': 'exists',
    promote: 'noop',
    reaffirm: 'ok:verified',
    demote: 'ok:quarantined',
    restore: 'wrong-tier',
    archive: 'wrong-tier',
    edit: 'ok:verified',
  },
  inferred: {
    'create-user': 'exists',
    'create-inferred': 'exists',
    promote: 'ok:verified',
    reaffirm: 'wrong-tier',
    demote: 'ok:quarantined',
    restore: 'wrong-tier',
    archive: 'wrong-tier',
    edit: 'ok:inferred',
  },
  quarantined: {
    'create-user': 'exists',
    'create-inferred': 'exists',
    promote: 'wrong-tier',
    reaffirm: 'quarantine-read-only',
    demote: 'noop',
    restore: 'ok:verified',
    archive: 'ok:archived',
    edit: 'quarantine-read-only',
  },
  archived: {
    'create-user': 'exists',
    'create-inferred': 'exists',
    promote: 'wrong-tier',
    reaffirm: 'wrong-tier',
    demote: 'wrong-tier',
    restore: 'wrong-tier',
    archive: 'noop',
    edit: 'wrong-tier',
  },
};

// The validator may only demote, and only on a hard failure.
const VALIDATOR_MATRIX: Record<string, Record<Action, string>> = Object.fromEntries(
  Object.entries(USER_MATRIX).map(([tier, row]) => [
    tier,
    Object.fromEntries(
      ACTIONS.map((a) => {
        if (a === 'demote') return [a, row[a]];
        if (row[a] === 'not-found' || row[a] === 'exists') return [a, row[a]];
        return [a, 'forbidden'];
      }),
    ) as Record<Action, string>,
  ]),
);

const cells = (m: Record<string, Record<Action, string>>) =>
  Object.entries(m).flatMap(([tier, row]) => ACTIONS.map((a) => [tier, a, row[a]] as const));

describe('tier × action (user)', () => {
  it.each(cells(USER_MATRIX))('%s + %s → %s', (tier, action, expected) => {
    expect(outcome(decide(action, READY[tier as keyof typeof READY], ctx))).toBe(expected);
  });
});

describe('tier × action (validator, hard failure)', () => {
  const vctx = userCtx({ actor: 'validator', reason: undefined, checks: { validateExit: 2, secretExit: 0 } });
  it.each(cells(VALIDATOR_MATRIX))('%s + %s → %s', (tier, action, expected) => {
    expect(outcome(decide(action, READY[tier as keyof typeof READY], vctx))).toBe(expected);
  });
});

describe('conflict blocks everything on that memory', () => {
  it.each(ACTIONS.filter((a) => !a.startsWith('create')))('%s', (action) => {
    const d = decide(action, verified({ conflict: true }), ctx);
    expect(outcome(d)).toBe('conflict');
    expect(!d.ok && d.message).toContain('in both memories/ and quarantine/');
  });
});

describe('messages name the rule', () => {
  it.each([
    ['promote', READY.quarantined, 'use restore, which re-runs the validators and lands at verified'],
    [
      'reaffirm',
      READY.inferred,
      'only verified memories are re-affirmed (promote it once its 7-day observation period is over)',
    ],
    ['reaffirm', READY.quarantined, 'is quarantined and quarantine is read-only; restore it first'],
    ['edit', READY.quarantined, 'edit refused: reference_dashboard.md is quarantined and quarantine is read-only'],
    ['restore', READY.verified, 'only quarantined memories are restored'],
    ['restore', READY.archived, 'no transition leaves the archive'],
  ] as const)('%s on %#', (action, facts, text) => {
    const d = decide(action, facts, ctx);
    expect(d.ok).toBe(false);
    expect(!d.ok && d.message).toContain(text);
  });

  it.each(['promote', 'restore', 'reaffirm', 'archive', 'edit'] as const)('automatic %s is forbidden', (action) => {
    const d = decide(action, READY.inferred, userCtx({ actor: 'validator' }));
    expect(d).toMatchObject({ ok: false, code: 'forbidden' });
    expect(!d.ok && d.message).toMatch(/refused: automatic .* is not allowed; only the user can/);
  });
});

describe('forbidden tier changes (docs/trust-model.md)', () => {
  it.each([
    ['quarantined', 'inferred', 'quarantined → inferred refused: a restored memory always lands at verified'],
    ['verified', 'inferred', 'verified → inferred refused: a verified memory you doubt is demoted to quarantined'],
    ['archived', 'verified', 'no such transition'],
    ['inferred', 'archived', 'no such transition'],
  ] as const)('%s → %s', (from, to, text) => {
    const r = actionFor(from, to);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain(text);
  });

  it.each([
    [null, 'verified', 'create-user'],
    [null, 'inferred', 'create-inferred'],
    ['inferred', 'verified', 'promote'],
    ['verified', 'verified', 'reaffirm'],
    ['verified', 'quarantined', 'demote'],
    ['inferred', 'quarantined', 'demote'],
    ['quarantined', 'verified', 'restore'],
    ['quarantined', 'archived', 'archive'],
  ] as const)('%s → %s is %s', (from, to, action) => {
    expect(actionFor(from, to)).toEqual({ ok: true, action });
  });
});

describe('noop', () => {
  it('demoting a quarantined memory is accepted with nothing to do', () => {
    expect(decide('demote', READY.quarantined, ctx)).toEqual({
      ok: true,
      noop: true,
      action: 'demote',
      from: 'quarantined',
      to: 'quarantined',
      set: {},
      remove: [],
      move: null,
      message: 'reference_dashboard.md is already quarantined: nothing to do',
    });
  });

  it('is a noop for the validator too', () => {
    const d = decide(
      'demote',
      READY.quarantined,
      userCtx({ actor: 'validator', checks: { validateExit: 1, secretExit: 0 } }),
    );
    expect(d).toMatchObject({ ok: true, noop: true });
  });
});
