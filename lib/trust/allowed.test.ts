import { describe, expect, it } from 'vitest';
import { actionNames, allowedActionNames, allowedActions, restoreRefusal } from './allowed';
import { archived, inferred, NOW, quarantined, verified } from './fixtures';
import type { MemoryFacts } from './facts';

function summary(facts: MemoryFacts, checks?: { validateExit: number; secretExit: number }) {
  return Object.fromEntries(allowedActions(facts, NOW, checks).map((a) => [a.action, a.allowed]));
}

describe('allowedActions', () => {
  it.each([
    ['fresh verified', verified(), { promote: false, reaffirm: false, demote: true, restore: false, archive: false }],
    [
      'stale verified',
      verified({ lastVerified: '2025-01-01' }),
      { promote: false, reaffirm: true, demote: true, restore: false, archive: false },
    ],
    [
      'inferred in observation',
      inferred(),
      { promote: false, reaffirm: false, demote: true, restore: false, archive: false },
    ],
    [
      'inferred past observation',
      inferred({ createdAt: '2026-04-01' }),
      { promote: true, reaffirm: false, demote: true, restore: false, archive: false },
    ],
    [
      'quarantined day 10',
      quarantined(),
      { promote: false, reaffirm: false, demote: false, restore: true, archive: false },
    ],
    [
      'quarantined day 124',
      quarantined({ quarantinedAt: '2026-01-01T00:00:00Z' }),
      { promote: false, reaffirm: false, demote: false, restore: true, archive: true },
    ],
    ['archived', archived(), { promote: false, reaffirm: false, demote: false, restore: false, archive: false }],
    [
      'conflicted',
      verified({ conflict: true, lastVerified: '2025-01-01' }),
      { promote: false, reaffirm: false, demote: false, restore: false, archive: false },
    ],
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
    expect(d).toEqual({
      action: 'demote',
      allowed: false,
      reason: 'reference_dashboard.md is already quarantined: nothing to do',
    });
  });

  it('restore reflects real checks when given', () => {
    expect(summary(quarantined(), { validateExit: 1, secretExit: 0 }).restore).toBe(false);
    expect(
      allowedActions(quarantined(), NOW, { validateExit: 0, secretExit: 0 }).find((a) => a.action === 'restore'),
    ).toEqual({ action: 'restore', allowed: true });
    expect(allowedActions(quarantined(), NOW).find((a) => a.action === 'restore')?.reason).toBe(
      're-runs validate and secret-check first',
    );
  });
});

describe('what the file itself allows (docs/trust-model.md "Offered only when possible")', () => {
  const old = inferred({ createdAt: '2026-04-01' });
  const yaml = {
    check: 'validate' as const,
    code: 'yaml-syntax',
    label: 'FAIL-FORMAT',
    line: 3,
    message: 'YAML syntax error: bad',
  };
  const token = {
    check: 'secret' as const,
    code: 'secret.github-token',
    label: 'SECRET-DETECTED',
    line: 9,
    message: 'GitHub token ghp_…(40 chars)',
  };
  const email = {
    check: 'secret' as const,
    code: 'secret.email',
    label: 'SECRET-DETECTED',
    line: 4,
    message: 'e-mail address a…@example.org',
  };
  const state = (exits: [number, number], findings: object[]) => ({
    validateExit: exits[0],
    secretExit: exits[1],
    findings: findings as never,
  });

  it('an unparseable block withholds promote (with the line) but keeps demote', () => {
    const list = allowedActions(old, NOW, state([2, 0], [yaml]));
    expect(list.find((a) => a.action === 'promote')).toEqual({
      action: 'promote',
      allowed: false,
      reason:
        'promote refused: the frontmatter cannot be rewritten (YAML syntax error: bad at line 3); fix the frontmatter at line 3 first',
    });
    expect(list.find((a) => a.action === 'demote')?.allowed).toBe(true);
  });

  it('a credential withholds promote and re-affirm; personal data alone does not', () => {
    expect(allowedActions(old, NOW, state([0, 1], [token])).find((a) => a.action === 'promote')?.reason).toMatch(
      /a credential is in the file \(GitHub token ghp_…\(40 chars\) at line 9\)/,
    );
    expect(allowedActions(old, NOW, state([0, 1], [email])).find((a) => a.action === 'promote')?.allowed).toBe(true);
    const stale = verified({ lastVerified: '2025-01-01' });
    expect(allowedActions(stale, NOW, state([0, 1], [token])).find((a) => a.action === 'reaffirm')?.allowed).toBe(
      false,
    );
    expect(allowedActions(stale, NOW, state([1, 0], [])).find((a) => a.action === 'reaffirm')?.reason).toMatch(
      /fails validation/,
    );
  });

  it('a refused restore names each blocker, its line and the way out; binary files never pass', () => {
    expect(restoreRefusal('x.md', [yaml, token])).toBe(
      'restore refused: x.md: 2 findings block it — line 3 (validate): YAML syntax error: bad → fix the YAML at line 3 · ' +
        'line 9 (secret-check): GitHub token ghp_…(40 chars) → remove the value (repair leaves an empty <redacted></redacted>); edit the file in quarantine/ by hand, then restore',
    );
    expect(
      restoreRefusal('b.md', [
        {
          check: 'validate',
          code: 'binary-file',
          label: 'FAIL-STRUCT',
          message: 'binary file (NUL byte in the first 8 KiB)',
        },
      ]),
    ).toMatch(/can never pass validation, so it cannot be restored/);
    expect(restoreRefusal('ok.md', [])).toBeNull();
    // Wrapping keeps a value: offered for personal data only, never for a credential (CONTRACT §3).
    expect(restoreRefusal('p.md', [email])).toMatch(/wrap it in <redacted>…<\/redacted>/);
    expect(restoreRefusal('c.md', [token])).not.toMatch(/wrap/);
    expect(allowedActions(old, NOW, state([0, 1], [token])).find((a) => a.action === 'promote')?.reason).not.toMatch(
      /wrap/,
    );
    expect(
      allowedActions(quarantined(), NOW, state([2, 1], [yaml, token])).find((a) => a.action === 'restore'),
    ).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/^restore refused: reference_dashboard\.md: 2 findings block it/),
    });
  });
});

describe('allowedActionNames (listings) agrees with allowedActions', () => {
  it.each([
    verified(),
    verified({ lastVerified: '2025-01-01' }),
    inferred(),
    inferred({ createdAt: '2026-04-01' }),
    quarantined(),
    quarantined({ quarantinedAt: '2026-01-01T00:00:00Z' }),
    archived(),
    verified({ conflict: true, lastVerified: '2025-01-01' }),
  ])('%#', (facts) => {
    for (const state of [
      undefined,
      { validateExit: 0, secretExit: 0, findings: [] },
      {
        validateExit: 2,
        secretExit: 1,
        findings: [{ check: 'secret' as const, code: 'secret.aws-key', message: 'AWS key' }],
      },
    ]) {
      expect(allowedActionNames(facts, NOW, state)).toEqual(actionNames(allowedActions(facts, NOW, state)));
    }
  });
});
