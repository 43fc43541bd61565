import { describe, expect, it } from 'vitest';
import { allowedActions } from './allowed';
import { archived, inferred, NOW, quarantined, verified } from './fixtures';
import type { MemoryFacts } from './facts';

function summary(facts: MemoryFacts, checks?: { validateExit: number; secretExit: number }) {
  return Object.fromEntries(allowedActions(facts, NOW, checks).map((a) => [a.action, a.allowed]));
}

describe('allowedActions', () => {
  it.each([
    ['fresh verified', verified(), { promote: false, reaffirm: false, demote: true, restore: false, archive: false }],
    ['stale verified', verified({ lastVerified: '2025-01-01' }), { promote: false, reaffirm: true, demote: true, restore: false, archive: false }],
    ['inferred in observation', inferred(), { promote: false, reaffirm: false, demote: true, restore: false, archive: false }],
    ['inferred past observation', inferred({ createdAt: '2026-04-01' }), { promote: true, reaffirm: false, demote: true, restore: false, archive: false }],
    ['quarantined day 10', quarantined(), { promote: false, reaffirm: false, demote: false, restore: true, archive: false }],
    ['quarantined day 124', quarantined({ quarantinedAt: '2026-01-01T00:00:00Z' }), { promote: false, reaffirm: false, demote: false, restore: true, archive: true }],
    ['archived', archived(), { promote: false, reaffirm: false, demote: false, restore: false, archive: false }],
    ['conflicted', verified({ conflict: true, lastVerified: '2025-01-01' }), { promote: false, reaffirm: false, demote: false, restore: false, archive: false }],
  ] as const)('%s', (_label, facts, expected) => {
    expect(summary(facts)).toEqual(expected);
  });

  it('every disabled action carries the rule; enabled ones say what they will ask', () => {
    const list = allowedActions(inferred(), NOW);
    for (const a of list) expect(a.reason, a.action).toBeTruthy();
    expect(list.find((a) => a.action === 'promote')?.reason).toBe(
      'promotion refused: the observation period ends 2026-05-10, in 5 days',
    );
    expect(list.find((a) => a.action === 'demote')?.reason).toBe('asks for a one-line reason');
  });

  it('demote of a quarantined memory is disabled as already done', () => {
    const d = allowedActions(quarantined(), NOW).find((a) => a.action === 'demote');
    expect(d).toEqual({ action: 'demote', allowed: false, reason: 'reference_dashboard.md is already quarantined: nothing to do' });
  });

  it('restore reflects real checks when given', () => {
    expect(summary(quarantined(), { validateExit: 1, secretExit: 0 }).restore).toBe(false);
    expect(allowedActions(quarantined(), NOW, { validateExit: 0, secretExit: 0 }).find((a) => a.action === 'restore'))
      .toEqual({ action: 'restore', allowed: true });
    expect(allowedActions(quarantined(), NOW).find((a) => a.action === 'restore')?.reason)
      .toBe('re-runs validate and secret-check first');
  });
});
