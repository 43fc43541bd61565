/**
 * The overview's tier cards over memories and records (docs/dashboard.md "Overview"): a
 * trust root and a consolidation store in one configuration, real SQLite. Each card's
 * number is what the tier tab it opens lists, and its parts are each kind's own count.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TIERS, tierHint, tierTotals } from './tier-totals';
import { overview } from '../../../db/queries/overview';
import { listMemoriesAndRecords } from '../../../db/queries/memories';
import { feedbackMemory, openCtx, put, removeSandbox, sandbox, type Sandbox } from '../test-support';
import { CONSOLIDATION_FIXTURE, writeContractFixture } from '../../sources/consolidation/test-fixtures';
import { recordSourceSummaries, syncRecordIndex } from '../records/read';
import type { ServiceContext } from '../context';

const memory = (name: string, tier: string) => feedbackMemory(name, tier, { extra: [['last-verified', '2026-11-01']] });
const FIX = Object.values(CONSOLIDATION_FIXTURE.records);

let sb: Sandbox;
let ctx: ServiceContext;
beforeEach(() => {
  sb = sandbox('memtrust-tier-totals-');
  put(sb.root, 'memories/feedback_a.md', memory('A', 'verified'));
  put(sb.root, 'memories/feedback_b.md', memory('B', 'verified'));
  put(sb.root, 'memories/feedback_c.md', memory('C', 'inferred'));
  const cons = path.join(sb.tmp, 'consolidation');
  writeContractFixture(cons);
  sb.env.MEMTRUST_ROOT = [sb.root, cons].join(path.delimiter);
  ctx = openCtx(sb);
});
afterEach(() => removeSandbox(sb));

describe('tier cards', () => {
  it('count memories and records in one number per tier, the number the tier tab lists', () => {
    const now = ctx.now();
    const roots = recordSourceSummaries(ctx);
    const tiers = tierTotals(overview(ctx.handle.sqlite, now).tiers, roots);
    const memories = { verified: 2, inferred: 1, quarantined: 0, archived: 0 };
    const live = syncRecordIndex(ctx);
    for (const t of TIERS) {
      const records = FIX.filter((r) => r.tier === t).length;
      expect(tiers[t], t).toEqual({ total: memories[t] + records, memories: memories[t], records });
      const tab = listMemoriesAndRecords(ctx.handle.sqlite, { tier: t, limit: 1 }, live, now);
      expect(tab.total, `${t} tab`).toBe(tiers[t].total);
    }
    // The fixture holds records in more than one tier, so the sums above are not all memories.
    expect(TIERS.filter((t) => tiers[t].records > 0).length).toBeGreaterThan(1);
    expect(tierHint(tiers.verified, true)).toBe(`2 memories · ${tiers.verified.records} records`);
    expect(tierHint(tiers.verified, false)).toBeUndefined();
  });

  it('a record root with no records adds nothing, and the memory parts stay', () => {
    const now = ctx.now();
    const roots = recordSourceSummaries(ctx).map((r) => ({
      ...r,
      counts: { ...r.counts, tiers: { verified: 0, inferred: 0, quarantined: 0, archived: 0 } },
    }));
    const tiers = tierTotals(overview(ctx.handle.sqlite, now).tiers, roots);
    expect(TIERS.map((t) => tiers[t].total)).toEqual([2, 1, 0, 0]);
    expect(tierHint({ total: 2, memories: 1, records: 1 }, true)).toBe('1 memory · 1 record');
  });
});
