import { describe, expect, it } from 'vitest';
import { planAssistantWrite } from './assistant-write';
import { backfillPlan } from './backfill';
import { NOW } from './fixtures';

const STAMP = '2026-05-05T12:00:00Z';

describe('planAssistantWrite', () => {
  it('a new file: inferred, created-at now, source-machine; whatever the assistant wrote', () => {
    const p = planAssistantWrite({
      prior: null,
      current: { 'trust-level': 'verified', 'created-at': '2020-01-01', 'last-verified': '2026-05-05' },
      now: NOW,
      machine: 'laptop',
    });
    expect(p).toEqual({
      noop: false,
      action: 'create',
      from: null,
      to: 'inferred',
      set: { 'trust-level': 'inferred', 'created-at': STAMP, 'source-machine': 'laptop' },
      remove: ['last-verified'],
      reason: 'written by the assistant: inferred until the user promotes it',
    });
  });

  it('an edit of a verified memory keeps verified and its fields, and sets the flag', () => {
    const prior = {
      'trust-level': 'verified',
      'last-verified': '2026-04-01',
      'created-at': '2026-01-01T00:00:00Z',
      'source-machine': 'desk',
    };
    const p = planAssistantWrite({
      prior,
      current: { ...prior, 'last-verified': '2026-05-05' },
      now: NOW,
      machine: 'laptop',
    });
    expect(p).toMatchObject({
      noop: false,
      action: 'edit',
      from: 'verified',
      to: 'verified',
      set: { 'last-verified': '2026-04-01', 'changed-since-verified': STAMP },
      remove: [],
    });
  });

  it('an edit that drops trust-level from a verified memory puts it back', () => {
    const prior = { 'trust-level': 'verified', 'last-verified': '2026-04-01' };
    const p = planAssistantWrite({ prior, current: {}, now: NOW, machine: 'laptop' });
    expect(p).toMatchObject({
      to: 'verified',
      set: { 'trust-level': 'verified', 'last-verified': '2026-04-01', 'changed-since-verified': STAMP },
    });
  });

  it('an inferred memory cannot be raised by an edit', () => {
    const prior = { 'trust-level': 'inferred', 'created-at': '2026-05-01T00:00:00Z', 'source-machine': 'desk' };
    const p = planAssistantWrite({
      prior,
      current: { ...prior, 'trust-level': 'verified', 'last-verified': '2026-05-05', 'created-at': '2020-01-01' },
      now: NOW,
      machine: 'laptop',
    });
    expect(p).toMatchObject({
      action: 'edit',
      from: 'inferred',
      to: 'inferred',
      set: { 'trust-level': 'inferred', 'created-at': '2026-05-01T00:00:00Z' },
      remove: ['last-verified'],
    });
  });

  it('an untouched inferred memory needs nothing', () => {
    const prior = { 'trust-level': 'inferred', 'created-at': '2026-05-01T00:00:00Z', 'source-machine': 'desk' };
    expect(planAssistantWrite({ prior, current: prior, now: NOW, machine: 'laptop' })).toMatchObject({
      noop: true,
      tier: 'inferred',
    });
  });

  it('a legacy file without trust-level keeps its age (mtime) and becomes inferred', () => {
    const p = planAssistantWrite({
      prior: {},
      priorMtime: new Date('2025-03-04T05:06:07Z'),
      current: {},
      now: NOW,
      machine: 'laptop',
    });
    expect(p).toMatchObject({
      from: null,
      to: 'inferred',
      set: { 'trust-level': 'inferred', 'created-at': '2025-03-04T05:06:07Z', 'source-machine': 'laptop' },
    });
  });
});

describe('backfill after the first backfill of the root', () => {
  const file = {
    filename: 'user_new.md',
    location: 'memories' as const,
    type: 'user',
    mtime: new Date('2026-05-01T00:00:00Z'),
  };
  it('a user memory found without trust-level is an unstamped assistant write: inferred', () => {
    expect(backfillPlan(file, NOW, 'laptop')).toMatchObject({ tier: 'verified' });
    const p = backfillPlan(file, NOW, 'laptop', { afterFirstBackfill: true });
    expect(p).toMatchObject({ kind: 'apply', tier: 'inferred', basis: 'after-first-backfill' });
    expect(p.kind === 'apply' && 'last-verified' in p.set).toBe(false);
  });
  it('not even an override makes it verified; quarantine stays possible', () => {
    const p = backfillPlan(file, NOW, 'laptop', { afterFirstBackfill: true, tier: 'verified' });
    expect(p).toMatchObject({ tier: 'inferred' });
    expect(p.kind === 'apply' && p.notes.join(' ')).toContain('verified refused');
    expect(backfillPlan(file, NOW, 'laptop', { afterFirstBackfill: true, tier: 'quarantined' })).toMatchObject({
      tier: 'quarantined',
    });
  });
});
