/** The merged audit timeline over the prepared root: two machines' files, ten events (e1 … e10). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { auditActionCounts, auditEventsStable, auditMachines, listAuditEvents } from './audit-events';
import { openFixture } from '../../lib/report/test-fixture';
import { parseAuditParams, toAuditFilter } from '../../lib/report/filters';
import { closeDb } from '../client';
import type { ServiceContext } from '../../lib/service/context';

let ctx: ServiceContext;
let tmp: string;
beforeAll(async () => ({ ctx, tmp } = await openFixture('memtrust-audit-events-')));
afterAll(() => {
  closeDb(ctx.handle.path);
  fs.rmSync(tmp, { recursive: true, force: true });
});

const page = { limit: 50, offset: 0 };
const list = (raw: Record<string, string>) =>
  listAuditEvents(ctx.handle.sqlite, toAuditFilter(parseAuditParams(raw)), page);
const ops = (raw: Record<string, string>) => list(raw).items.map((e) => e.id);

describe('audit timeline', () => {
  it('merges both machines into one timeline, newest first', () => {
    const r = list({});
    expect(r.total).toBe(10);
    expect(r.items.map((e) => e.id)).toEqual([
      'op-09',
      'op-08',
      'op-07',
      'op-06',
      'op-05',
      'op-04',
      'op-03',
      'op-10',
      'op-02',
      'op-01',
    ]);
    expect(new Set(r.items.map((e) => e.machine))).toEqual(new Set(['test', 'laptop-b']));
    expect(auditMachines(ctx.handle.sqlite)).toEqual(['laptop-b', 'test']);
  });

  it('keeps every field of an event, findings and the recovered flag included', () => {
    const [e6] = list({ actor: 'validator' }).items;
    expect(e6).toMatchObject({
      at: '2026-11-10T09:00:00Z',
      machine: 'laptop-b',
      action: 'demote',
      memory: 'user_q_india.md',
      from: 'verified',
      to: 'quarantined',
      reason: 'secret-check: private network address',
      recovered: false,
    });
    expect(e6!.findings).toEqual([
      { check: 'secret', code: 'secret.private-ip', line: 8, message: 'private network address 10.… on line 8' },
    ]);
    expect(list({ memory: 'echo' }).items[0]!.recovered).toBe(true);
  });

  it('filters by action, actor, machine, memory (substring, any case) and type', () => {
    expect(ops({ action: 'demote' })).toEqual(['op-06', 'op-04', 'op-01']);
    expect(ops({ actor: 'user:web' })).toEqual(['op-09', 'op-04', 'op-10', 'op-01']);
    expect(ops({ machine: 'laptop-b' })).toEqual(['op-08', 'op-06', 'op-03', 'op-01']);
    expect(ops({ memory: 'ALPHA' })).toEqual(['op-09', 'op-05']);
    expect(ops({ type: 'user' })).toEqual(['op-09', 'op-06', 'op-05', 'op-03', 'op-10', 'op-02']);
    expect(ops({ action: 'demote', machine: 'laptop-b' })).toEqual(['op-06', 'op-01']);
  });

  it('filters by an inclusive date range (to = the whole day)', () => {
    expect(ops({ from: '2026-11-01' })).toEqual(['op-09', 'op-08', 'op-07', 'op-06']);
    expect(ops({ to: '2026-09-30' })).toEqual(['op-10', 'op-02', 'op-01']);
    expect(ops({ from: '2026-10-01', to: '2026-10-01' })).toEqual(['op-05', 'op-04', 'op-03']);
  });

  it('ignores malformed filter values instead of failing', () => {
    expect(list({ action: 'explode', from: '2026-02-30', type: 'note' }).total).toBe(10);
  });

  it('pages server-side without loading the rest', () => {
    const p2 = listAuditEvents(ctx.handle.sqlite, {}, { limit: 4, offset: 4 });
    expect(p2.total).toBe(10);
    expect(p2.items.map((e) => e.id)).toEqual(['op-05', 'op-04', 'op-03', 'op-10']);
  });

  it('offers a stable order and per-action counts for reports', () => {
    const s = auditEventsStable(ctx.handle.sqlite, { fromMs: Date.parse('2026-08-24T00:00:00Z') }, 3);
    expect(s.total).toBe(9);
    expect(s.items.map((e) => e.id)).toEqual(['op-09', 'op-08', 'op-07']);
    expect(auditActionCounts(ctx.handle.sqlite, {})).toEqual({
      archive: 1,
      create: 4,
      demote: 3,
      reaffirm: 1,
      restore: 1,
    });
  });
});

describe('scope: the configured roots only (docs/audit-trail.md)', () => {
  it('events of a source outside the scope are in no view, count or chart', () => {
    const id = ctx.sources[0]!.id;
    const scoped = listAuditEvents(ctx.handle.sqlite, { scope: [id] }, page);
    expect(scoped.total).toBe(10);
    const elsewhere = listAuditEvents(ctx.handle.sqlite, { scope: ['some-other-root-abc123'] }, page);
    expect(elsewhere).toEqual({ items: [], total: 0 });
    expect(auditActionCounts(ctx.handle.sqlite, { scope: [] })).toEqual({});
    expect(auditEventsStable(ctx.handle.sqlite, { scope: [] }, 100).total).toBe(0);
  });
});
