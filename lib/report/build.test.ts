/** Report data over the prepared root; expectations worked out from the fixture's dates (see test-fixture.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { buildReport } from './build';
import { openFixture } from './test-fixture';
import { closeDb } from '../../db/client';
import type { ServiceContext } from '../service/context';
import type { ReportData } from './types';

let ctx: ServiceContext;
let tmp: string;
let root: string;
let d: ReportData;
beforeAll(async () => {
  ({ ctx, tmp, root } = await openFixture('memtrust-build-'));
  d = buildReport(ctx);
});
afterAll(() => {
  closeDb(ctx.handle.path);
  fs.rmSync(tmp, { recursive: true, force: true });
});

const files = (items: { file: string }[]) => items.map((i) => i.file.split('/').pop());

describe('report data', () => {
  it('says when, where and for what it was made', () => {
    expect(d.generatedAt).toBe('2026-11-22T12:00:00Z');
    expect(d.machine).toBe('test');
    expect(d.roots).toEqual([{ id: ctx.sources[0]!.id, root, kind: 'trust-root', error: null }]);
    // Default period: 90 days before today's UTC midnight.
    expect(d.filters).toEqual({ since: '2026-08-24T00:00:00Z' });
    expect(d.period).toEqual({ from: '2026-08-24T00:00:00Z', to: '2026-11-22T12:00:00Z' });
    // No record root configured: no record section (lib/report/records.test.ts covers them).
    expect(d.records).toEqual([]);
  });

  it('counts tiers and what needs attention', () => {
    expect(d.tiers).toEqual({ total: 12, verified: 5, inferred: 3, quarantined: 3, archived: 1 });
    expect(d.attention).toEqual({
      stale: 3,
      dueForReview: 2,
      observing: 1,
      conflicts: 0,
      quarantine: { passive: 1, audit: 1, archive: 1 },
    });
  });

  it('lists stale verified memories, oldest verification first, never-verified last', () => {
    expect(d.stale.total).toBe(3);
    expect(d.stale.items.map((s) => [s.file.split('/').pop(), s.lastVerified, s.days])).toEqual([
      ['reference_old_delta.md', '2025-11-01', 386],
      ['project_stale_charlie.md', '2026-08-23', 91],
      ['user_unverified_echo.md', null, null],
    ]);
    expect(d.stale.items[0]).toMatchObject({
      id: `${ctx.sources[0]!.id}:reference_old_delta.md`,
      name: 'reference old delta',
    });
  });

  it('lists the review queue (observation over) and the quarantine windows with reasons', () => {
    expect(d.review.items.map((r) => [r.file, r.days, r.basis])).toEqual([
      ['memories/user_due_hotel.md', 52, 'created-at'],
      ['memories/project_due_golf.md', 7, 'created-at'],
    ]);
    expect(d.quarantine.items.map((q) => [files([q])[0], q.window, q.days, q.reason])).toEqual([
      ['feedback_q_kilo.md', 'archive', 144, 'contradicts the CI config'],
      ['project_q_juliett.md', 'audit', 52, 'superseded by the new deploy flow'],
      ['user_q_india.md', 'passive', 12, 'outdated build steps'],
    ]);
  });

  it('lists failures and flags with their masked messages; warnings only as counts', () => {
    expect(d.findings.list.items.map((f) => [files([f])[0], f.code, f.label, f.line])).toEqual([
      ['project_stale_charlie.md', 'injection.instruction-override', 'FLAGGED', 11],
      ['user_fresh_alpha.md', 'secret.aws-access-key', 'SECRET-DETECTED', 11],
    ]);
    expect(d.findings.list.items[1]!.message).toBe('AWS access key AKIA…(20 chars)');
    expect(d.findings.categories.map((c) => [c.code, c.findings])).toEqual([
      ['missing-recommended-field', 4],
      ['injection.instruction-override', 1], // ties: by check name
      ['secret.aws-access-key', 1],
    ]);
  });

  it('lists the transitions of the period (e1 is older) and counts them per action', () => {
    expect(d.transitions.list.total).toBe(9);
    expect(d.transitions.byAction).toEqual({ archive: 1, create: 4, demote: 2, reaffirm: 1, restore: 1 });
    expect(d.transitions.list.items[0]).toEqual({
      at: '2026-11-20T13:00:00Z',
      machine: 'test',
      actor: 'user:web',
      action: 'reaffirm',
      source: ctx.sources[0]!.id,
      memory: 'user_fresh_alpha.md',
      from: 'verified',
      to: 'verified',
      reason: null,
      findings: 0,
      recovered: false,
    });
    expect(d.transitions.list.items.find((e) => e.actor === 'validator')!.findings).toBe(1);
  });

  it('draws the charts over the period: 13 weeks from Monday 2026-08-24', () => {
    expect(d.charts.from).toBe('2026-08-24');
    expect(d.charts.weeks).toBe(13);
    expect(d.charts.tiers.at(-1)).toEqual({
      week: '2026-11-16',
      verified: 5,
      inferred: 3,
      quarantined: 3,
      archived: 1,
    });
  });

  it('applies --since, the type filter and the list cap', () => {
    const since = buildReport(ctx, { sinceMs: Date.parse('2026-11-01T00:00:00Z') });
    expect(since.transitions.list.total).toBe(4);
    expect(since.filters).toEqual({ since: '2026-11-01T00:00:00Z' });
    const user = buildReport(ctx, { type: 'user', limit: 1 });
    expect(user.tiers).toEqual({ total: 5, verified: 2, inferred: 1, quarantined: 1, archived: 1 });
    expect(user.filters).toEqual({ since: '2026-08-24T00:00:00Z', type: 'user' });
    expect(user.stale).toMatchObject({ total: 1 });
    expect(user.transitions.list.total).toBe(6); // e2, e3, e5, e6, e9, e10
    expect(user.transitions.list.items).toHaveLength(1);
  });
});
