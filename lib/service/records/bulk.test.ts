/**
 * Bulk actions over a selection of memories and records (docs/review-inbox.md "Bulk
 * actions"): a trust root and a consolidation store (its contract fixture), real files and
 * SQLite. The memories go through the memory bulk batch, the records through the record
 * batch path; each batch's Undo puts its files back byte for byte, and a flagged record
 * is never bulk-promoted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FAKE_TOKEN,
  FEEDBACK_BODY,
  feedbackMemory,
  openCtx,
  put,
  removeSandbox,
  sandbox,
  type Sandbox,
} from '../test-support';
import { FIXTURE_IDS, writeContractFixture } from '../../sources/consolidation/test-fixtures';
import { applyRecordBulk, confirmationWithRecords, planRecordBulk, recordIdsOf } from './bulk';
import { applyPlan, planTransitions } from '../batches/batch-plan';
import { undoBatch } from '../batches/undo';
import { inboxView } from '../index/inbox';
import { scan } from '../index/scan-service';
import type { ServiceContext } from '../context';

const memory = (name: string, tier: string, extra = '') => feedbackMemory(name, tier, { body: FEEDBACK_BODY + extra });

let sb: Sandbox;
let ctx: ServiceContext;
let cons: string;
beforeEach(() => {
  sb = sandbox('memtrust-record-bulk-');
  put(sb.root, 'memories/feedback_due.md', memory('Due', 'inferred'));
  put(sb.root, 'memories/feedback_token.md', memory('Token', 'inferred', `Deploy with ${FAKE_TOKEN}.\n`));
  cons = path.join(sb.tmp, 'consolidation');
  writeContractFixture(cons);
  sb.env.MEMTRUST_ROOT = [sb.root, cons].join(path.delimiter);
  ctx = openCtx(sb);
});
afterEach(() => removeSandbox(sb));

const rid = (key: string) => `${ctx.recordSources[0]!.id}:${key}`;
const snapshot = (dir: string) =>
  new Map(
    (fs.readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => !f.startsWith('.memtrust') && fs.statSync(path.join(dir, f)).isFile())
      .map((f) => [f, fs.readFileSync(path.join(dir, f)).toString('base64')]),
  );
const keyOf = (name: string) =>
  inboxView(ctx, { queue: 'any', limit: 500 }, undefined).items.find((i) => i.name === name)!.key;
const tierOf = (key: string) => inboxView(ctx, { queue: 'any', limit: 500 }, key).pane?.item.tier;

/** The two halves of a bulk action as the inbox runs them (app/batch-actions.ts). */
function bulk(keys: string[], action: 'promote' | 'demote', reason = '') {
  const records = recordIdsOf(ctx, keys);
  const memories = keys.filter((k) => !records.has(k));
  const mem = applyPlan(ctx, planTransitions(ctx, memories, action, reason), {
    actor: 'user:web',
    confirmed: true,
    reason,
  });
  const rec = applyRecordBulk(ctx, [...records], action, reason, { actor: 'user:web' });
  return { mem, rec };
}

describe('bulk actions over memories and records', () => {
  it('one selection promotes its memories and records; a flagged one of each is left out; Undo of each restores', () => {
    const memBefore = snapshot(sb.root);
    const recBefore = snapshot(cons);
    const keys = [keyOf('Due'), keyOf('Token'), rid(FIXTURE_IDS.promotable), rid(FIXTURE_IDS.young)];
    expect([...recordIdsOf(ctx, keys)].sort()).toEqual([rid(FIXTURE_IDS.promotable), rid(FIXTURE_IDS.young)].sort());

    const plan = planRecordBulk(ctx, [...recordIdsOf(ctx, keys)], 'promote');
    expect(plan.items.map((i) => [i.id, i.from, i.to])).toEqual([
      [rid(FIXTURE_IDS.promotable), 'inferred', 'verified'],
    ]);
    // The young record's layout does not promote it yet: left out with the layout's own reason.
    expect(plan.leftOut.map((l) => l.id)).toEqual([rid(FIXTURE_IDS.young)]);
    expect(plan.leftOut[0]!.reason.length).toBeGreaterThan(10);

    const { mem, rec } = bulk(keys, 'promote');
    expect(mem.ok).toBe(true);
    expect(rec.batches).toHaveLength(1);
    expect(rec.done).toBe(1);
    expect(tierOf(rid(FIXTURE_IDS.promotable))).toBe('verified');
    expect(tierOf(keyOf('Due'))).toBe('verified');
    expect(tierOf(keyOf('Token'))).toBe('inferred');
    expect(tierOf(rid(FIXTURE_IDS.young))).toBe('inferred');

    expect(undoBatch(ctx, rec.batches[0]!, 'user:web').ok).toBe(true);
    expect(snapshot(cons)).toEqual(recBefore);
    expect(mem.ok && mem.outcome?.batch).toBeTruthy();
    if (!mem.ok || !mem.outcome) return;
    expect(undoBatch(ctx, mem.outcome.batch, 'user:web').ok).toBe(true);
    expect(snapshot(sb.root)).toEqual(memBefore);
  });

  it('a record with a credential finding is never bulk-promoted, but demotes with the memories', () => {
    const file = path.join(cons, 'agent.memory.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes(FIXTURE_IDS.promotable));
    const rec = JSON.parse(lines[at]!) as { statement: string };
    rec.statement += ` Deploy with ${FAKE_TOKEN}.`;
    lines[at] = JSON.stringify(rec);
    fs.writeFileSync(file, lines.join('\n'));
    scan(ctx);
    const id = rid(FIXTURE_IDS.promotable);

    const promote = planRecordBulk(ctx, [id], 'promote');
    expect(promote.items).toEqual([]);
    expect(promote.leftOut).toEqual([{ id, reason: expect.stringContaining('credential finding') }]);
    expect(applyRecordBulk(ctx, [id], 'promote', '', { actor: 'user:web' }).batches).toEqual([]);
    expect(tierOf(id)).toBe('inferred');
    // The inbox row says so too: it is flagged, so the selection's Promote is off.
    expect(inboxView(ctx, { queue: 'any', limit: 500 }, undefined).items.find((i) => i.key === id)?.flagged).toMatch(
      /credential/,
    );

    const before = fs.readFileSync(file);
    const { mem, rec: r } = bulk([keyOf('Token'), id], 'demote', 'holds a token');
    expect(mem.ok).toBe(true);
    expect(r.batches).toHaveLength(1);
    expect(tierOf(id)).toBe('quarantined');
    expect(undoBatch(ctx, r.batches[0]!, 'user:web').ok).toBe(true);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('the typed count covers the records: demoting most of a record root needs it, one record does not', () => {
    const memPlan = planTransitions(ctx, [keyOf('Due')], 'demote', 'stale');
    const live = (
      ctx.handle.sqlite
        .prepare("SELECT count(*) AS n FROM entries WHERE is_record = 1 AND source = ? AND tier <> 'archived'")
        .get(ctx.recordSources[0]!.id) as { n: number }
    ).n;
    expect(live).toBeGreaterThan(4);
    const one = planRecordBulk(ctx, [rid(FIXTURE_IDS.promotable)], 'demote', 'stale');
    expect(one.items).toHaveLength(1);
    // One memory of two is more than a quarter of the trust root already; without it, one record passes.
    expect(confirmationWithRecords(ctx, [], one, 0)).toMatchObject({ needed: false, count: 1 });
    const all = planRecordBulk(ctx, Object.values(FIXTURE_IDS).map(rid), 'demote', 'stale');
    expect(all.items.length * 4).toBeGreaterThan(live);
    const c = confirmationWithRecords(ctx, memPlan.roots, all, 0);
    expect(c.needed).toBe(true);
    // The count to type is the memories and the records that move, together.
    expect(c.count).toBe(memPlan.roots.reduce((n, r) => n + r.moving, 0) + all.items.length);
    expect(c.reason).toMatch(/more than/);
  });

  it('back-fill leaves every record out with the reason', () => {
    const p = planRecordBulk(ctx, [rid(FIXTURE_IDS.promotable)], 'backfill');
    expect(p.items).toEqual([]);
    expect(p.leftOut[0]!.reason).toMatch(/nothing to back-fill/);
  });
});
