/**
 * Chart numbers over the prepared root (lib/report/test-fixture.ts), checked
 * against values worked out by hand from its dates — not copied from output.
 * now = 2026-11-22T12:00:00Z (Sunday); weeks W0 = 2026-08-31 … W11 = 2026-11-16.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { chartsData, chartWindow, weekStart, type Bucket, type ChartsData } from './charts';
import { openFixture } from '../../lib/report/test-fixture';
import { toAuditFilter } from '../../lib/report/filters';
import { closeDb } from '../client';
import type { ServiceContext } from '../../lib/service/context';

let ctx: ServiceContext;
let tmp: string;
let all: ChartsData;

beforeAll(async () => {
  ({ ctx, tmp } = await openFixture('memtrust-charts-'));
  all = chartsData(ctx.handle.sqlite, {}, ctx.now());
});
afterAll(() => {
  closeDb(ctx.handle.path);
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Non-zero buckets as { label: count }. */
const nz = (b: Bucket[]) => Object.fromEntries(b.filter((x) => x.count > 0).map((x) => [x.label, x.count]));
const ms = (iso: string) => Date.parse(iso);

describe('weeks', () => {
  it('start on Monday 00:00 UTC', () => {
    expect(new Date(weekStart(ms('2026-11-22T12:00:00Z'))).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(new Date(weekStart(ms('2026-11-16T00:00:00Z'))).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(new Date(weekStart(ms('2026-11-15T23:59:59Z'))).toISOString()).toBe('2026-11-09T00:00:00.000Z');
  });

  it('default to the 12 weeks up to now, or follow the date filter', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(chartWindow(now, {})).toEqual({ first: ms('2026-08-31T00:00:00Z'), weeks: 12 });
    // 2026-10-07 is a Wednesday: its week starts 10-05; "to 2026-10-20" ends in the week of 10-19.
    expect(chartWindow(now, toAuditFilter({ from: '2026-10-07', to: '2026-10-20' }))).toEqual({
      first: ms('2026-10-05T00:00:00Z'),
      weeks: 3,
    });
  });
});

describe('charts over the prepared root', () => {
  it('counts transitions per week by action (e1 falls before the window)', () => {
    expect(all.from).toBe('2026-08-31');
    expect(all.weeks).toBe(12);
    const byWeek = Object.fromEntries(all.transitions.filter((w) => w.total > 0).map((w) => [w.week, w.total]));
    expect(byWeek).toEqual({ '2026-08-31': 1, '2026-09-07': 1, '2026-09-28': 3, '2026-11-09': 2, '2026-11-16': 2 });
    const w4 = all.transitions.find((w) => w.week === '2026-09-28')!;
    expect([w4.create, w4.demote, w4.promote]).toEqual([2, 1, 0]);
    const w11 = all.transitions.find((w) => w.week === '2026-11-16')!;
    expect([w11.create, w11.reaffirm]).toEqual([1, 1]);
    expect(all.actions).toEqual(['create', 'reaffirm', 'demote', 'restore', 'archive']);
  });

  it('reconstructs tier counts by walking events back from today', () => {
    const at = (week: string) => {
      const p = all.tiers.find((t) => t.week === week)!;
      return [p.verified, p.inferred, p.quarantined, p.archived];
    };
    expect(all.tiers).toHaveLength(12);
    expect(at('2026-11-16')).toEqual([5, 3, 3, 1]); // today
    expect(at('2026-11-09')).toEqual([5, 2, 3, 1]); // undo e8 (create inferred)
    expect(at('2026-10-26')).toEqual([6, 1, 2, 1]); // undo e6 (demote verified) and e7 (create inferred)
    expect(at('2026-09-28')).toEqual([6, 1, 2, 1]); // nothing between 10-05 and 11-08
    expect(at('2026-09-21')).toEqual([5, 1, 1, 1]); // undo e3, e4, e5
    expect(at('2026-08-31')).toEqual([4, 1, 2, 1]); // undo e10 (restore); e2 (archive) is inside W0
  });

  it('buckets verified memories by whole days since last verification', () => {
    // alpha 2 d, bravo 90 d (not stale), charlie 91 d (stale), delta 386 d, echo never.
    expect(nz(all.verified)).toEqual({ '0–15': 1, '76–90': 1, '91–120': 1, '366+': 1, never: 1 });
    expect(all.verified.find((b) => b.label === '76–90')!.zone).toBe('ok');
    expect(all.verified.find((b) => b.label === '91–120')!.zone).toBe('stale');
  });

  it('buckets inferred memories by elapsed days in observation (due at exactly 7 × 24 h)', () => {
    // foxtrot 2 d, golf 7 d 0 h, hotel 52 d 12 h.
    expect(nz(all.inferred)).toEqual({ 'day 2': 1, '7–13': 1, '30+': 1 });
  });

  it('buckets quarantined memories by age with the 30/90-day windows', () => {
    // india 12 d (passive), juliett 52 d (audit), kilo 144 d (archive candidate); lima is archived.
    expect(nz(all.quarantine)).toEqual({ '11–20': 1, '46–60': 1, '121–180': 1 });
    expect(all.quarantine.filter((b) => b.count > 0).map((b) => b.zone)).toEqual(['passive', 'audit', 'archive']);
  });

  it('counts validator findings by category', () => {
    const cats = Object.fromEntries(all.findings.map((f) => [`${f.check}:${f.code}`, [f.findings, f.memories]]));
    expect(cats).toEqual({
      'validate:missing-recommended-field': [4, 4], // echo, foxtrot, golf, hotel lack last-verified
      'secret:secret.aws-access-key': [1, 1], // alpha
      'injection:injection.instruction-override': [1, 1], // charlie
    });
  });

  it('follows the type filter in every chart', () => {
    const u = chartsData(ctx.handle.sqlite, toAuditFilter({ type: 'user' }), ctx.now());
    expect(nz(u.verified)).toEqual({ '0–15': 1, never: 1 });
    expect(nz(u.inferred)).toEqual({ '30+': 1 });
    expect(nz(u.quarantine)).toEqual({ '11–20': 1 });
    expect(u.tiers.at(-1)).toMatchObject({ verified: 2, inferred: 1, quarantined: 1, archived: 1 });
    // user files' events in the window: e2, e3, e5, e6, e9, e10.
    expect(u.transitions.reduce((a, w) => a + w.total, 0)).toBe(6);
    expect(u.findings.map((f) => [f.code, f.findings])).toEqual([
      ['missing-recommended-field', 2],
      ['secret.aws-access-key', 1],
    ]); // most findings first
  });

  it('follows the source filter (an unknown source shows nothing)', () => {
    const none = chartsData(ctx.handle.sqlite, { source: 'nope' }, ctx.now());
    expect(none.verified.every((b) => b.count === 0)).toBe(true);
    expect(none.transitions.every((w) => w.total === 0)).toBe(true);
    expect(none.findings).toEqual([]);
    const own = chartsData(ctx.handle.sqlite, { source: ctx.sources[0]!.id }, ctx.now());
    expect(own.verified).toEqual(all.verified);
  });

  it('applies the event filters to the weekly transitions only', () => {
    const d = chartsData(ctx.handle.sqlite, toAuditFilter({ action: 'demote' }), ctx.now());
    expect(d.transitions.filter((w) => w.total > 0).map((w) => [w.week, w.total])).toEqual([
      ['2026-09-28', 1],
      ['2026-11-09', 1],
    ]);
    expect(d.tiers.at(-1)).toEqual(all.tiers.at(-1));
  });
});
