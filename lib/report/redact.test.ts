/** The secret guard on free text (reasons, names) and the URL filter parser. */
import { describe, expect, it } from 'vitest';
import { REASON_WITHHELD, TEXT_WITHHELD, guardEvent, guardReason, textGuard } from './redact';
import { auditHref, describeFilters, parseAuditParams, toAuditFilter } from './filters';

const owner = { emails: ['owner@example.com'], homeUser: 'owner' };
// Built at run time so no token-shaped literal sits in the repository.
const token = ['ghp', '_', 'Ab3'.repeat(12)].join('');
const aws = ['AK', 'IA', 'Q7Z3X9W2V8U4T6S1'].join('');

describe('textGuard', () => {
  const guard = textGuard(owner);

  it('withholds a reason that the secret check flags, whole', () => {
    expect(guardReason(guard, `rotated ${token} after the leak`)).toBe(REASON_WITHHELD);
    expect(guardReason(guard, `key ${aws} was in the notes`)).toBe(REASON_WITHHELD);
    expect(guardReason(guard, 'ask jordan.lee@example.org first')).toBe(REASON_WITHHELD);
    expect(guard('lives in /home/sam/notes')).toBe(TEXT_WITHHELD);
  });

  it('keeps ordinary text, the owner’s own address and empty values', () => {
    expect(guardReason(guard, 'contradicts the CI config')).toBe('contradicts the CI config');
    expect(guard('mail owner@example.com')).toBe('mail owner@example.com');
    expect(guard(null)).toBeNull();
    expect(guard('')).toBe('');
    // Masked finding messages are not secrets themselves.
    expect(guard('GitHub token ghp_…(40 chars)')).toBe('GitHub token ghp_…(40 chars)');
  });

  it('guards every free-text field of an event', () => {
    const e = {
      machine: 'laptop',
      memory: `user_${aws.toLowerCase()}.md`,
      reason: `see ${token}`,
      findings: [{ message: `token ${token}` }],
      action: 'demote',
    };
    const g = guardEvent(guard, e);
    expect(g).toEqual({
      machine: 'laptop',
      memory: e.memory,
      reason: REASON_WITHHELD,
      findings: [{ message: TEXT_WITHHELD }],
      action: 'demote',
    });
  });
});

describe('audit URL filters', () => {
  it('keeps valid values and drops malformed ones', () => {
    const p = parseAuditParams({
      action: 'demote',
      actor: 'root',
      from: '2026-02-30',
      to: '2026-03-01',
      type: ['user', 'project'],
      page: '2',
      junk: 'x',
    });
    expect(p).toEqual({ action: 'demote', to: '2026-03-01', type: 'user', page: 2 });
    expect(toAuditFilter(p)).toMatchObject({
      action: 'demote',
      toMs: Date.parse('2026-03-02T00:00:00Z'),
      type: 'user',
    });
  });

  it('round-trips through a link in a fixed order', () => {
    const p = parseAuditParams({ memory: 'a&b', action: 'promote', page: '3' });
    expect(auditHref('/audit', p)).toBe('/audit?action=promote&memory=a%26b&page=3');
    expect(auditHref('/audit', p, { page: undefined })).toBe('/audit?action=promote&memory=a%26b');
    expect(describeFilters(p)).toEqual(['action promote', 'memory a&b']);
  });
});
