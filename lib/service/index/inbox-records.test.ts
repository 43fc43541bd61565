/**
 * Records beside memories in one list (docs/review-inbox.md "Records in the inbox"): a
 * trust root and a consolidation store (its contract fixture) in one configuration, real
 * SQLite. The inbox and the tier tabs count both kinds, the layout, queue and finding
 * filters keep exactly their rows, a record row's pane offers the record's own verbs,
 * and a demote through the record action path leaves the inbox and its batch's Undo
 * brings the record back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findingKinds, inboxView } from './inbox';
import { scan } from './scan-service';
import { listMemoriesAndRecords } from '../../../db/queries/memories';
import { inboxTotal, listInbox, type InboxQuery } from '../../../db/queries/inbox';
import { FAKE_TOKEN, feedbackMemory, openCtx, put, removeSandbox, sandbox, type Sandbox } from '../test-support';
import { parseTableParams } from '../../web/url-state';
import { CONSOLIDATION_FIXTURE, FIXTURE_IDS, writeContractFixture } from '../../sources/consolidation/test-fixtures';
import { listRecords, syncRecordIndex } from '../records/read';
import { applyRecordActions } from '../records/apply';
import { undoBatch } from '../batches/undo';
import type { ServiceContext } from '../context';

const memory = (name: string, tier: string, extra: [string, string][]) => feedbackMemory(name, tier, { extra });

const FIX = Object.entries(CONSOLIDATION_FIXTURE.records);
const fixtureCount = (pred: (r: { tier: string; flags: string[] }) => boolean) => FIX.filter(([, r]) => pred(r)).length;

let sb: Sandbox;
let ctx: ServiceContext;
let cons: string;
beforeEach(() => {
  sb = sandbox('memtrust-inbox-records-');
  put(sb.root, 'memories/feedback_stale.md', memory('Stale', 'verified', [['last-verified', '2026-01-02']]));
  put(sb.root, 'memories/feedback_ok.md', memory('Recent', 'verified', [['last-verified', '2026-11-01']]));
  put(sb.root, 'memories/feedback_due.md', memory('Due', 'inferred', []));
  cons = path.join(sb.tmp, 'consolidation');
  writeContractFixture(cons);
  sb.env.MEMTRUST_ROOT = [sb.root, cons].join(path.delimiter);
  ctx = openCtx(sb);
  expect(ctx.recordSources).toHaveLength(1);
});
afterEach(() => removeSandbox(sb));

const recId = (key: string) => `${ctx.recordSources[0]!.id}:${key}`;

describe('memories and records in one list', () => {
  it('the inbox and the tier tabs count both kinds, in one sort', () => {
    const all = inboxView(ctx, { queue: 'any', limit: 500 }, undefined);
    expect(all.total).toBe(3 + FIX.length);
    expect(all.items.filter((i) => i.kind === 'record')).toHaveLength(FIX.length);
    // One sort over both kinds: names in order, case-insensitively.
    const order = all.items.map((i) => (i.name ?? i.filename).toLowerCase());
    expect(order).toEqual([...order].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const live = syncRecordIndex(ctx);
    const verified = listMemoriesAndRecords(ctx.handle.sqlite, { tier: 'verified', limit: 500 }, live, ctx.now());
    expect(verified.total).toBe(2 + fixtureCount((r) => r.tier === 'verified'));
    expect(
      verified.items
        .filter((i) => i.kind === 'record')
        .map((i) => i.filename)
        .sort(),
    ).toEqual(
      FIX.filter(([, r]) => r.tier === 'verified')
        .map(([k]) => k)
        .sort(),
    );
    // Paging over both kinds: two pages of 3 hold what one page of 500 does.
    const p1 = listMemoriesAndRecords(ctx.handle.sqlite, { tier: 'verified', limit: 3 }, live, ctx.now());
    const p2 = listMemoriesAndRecords(ctx.handle.sqlite, { tier: 'verified', limit: 3, offset: 3 }, live, ctx.now());
    expect([...p1.items, ...p2.items].map((i) => i.key)).toEqual(verified.items.slice(0, 6).map((i) => i.key));
    // A record-only queue on a tab: its records, no memory.
    const expired = listMemoriesAndRecords(
      ctx.handle.sqlite,
      { tier: 'archived', recordQueue: 'expired', limit: 500 },
      live,
      ctx.now(),
    );
    expect(expired.items.map((i) => i.filename).sort()).toEqual(
      FIX.filter(([, r]) => r.tier === 'archived' && r.flags.includes('expired'))
        .map(([k]) => k)
        .sort(),
    );
    // Without record roots the tab is the memory list alone.
    expect(listMemoriesAndRecords(ctx.handle.sqlite, { tier: 'verified' }, [], ctx.now()).total).toBe(2);
  });

  it("the overview's inbox count is the inbox's total, records included", () => {
    const recordSources = syncRecordIndex(ctx);
    const db = ctx.handle.sqlite;
    const queries: InboxQuery[] = [
      { queue: 'inbox' },
      { queue: 'any' },
      { queue: 'due' },
      { queue: 'any', tier: 'verified' },
    ];
    for (const q of queries) {
      const total = listInbox(db, { ...q, recordSources, limit: 1 }, ctx.now()).total;
      expect(inboxTotal(db, { ...q, recordSources }, ctx.now())).toBe(total);
    }
    // Records count: with them left out, the count drops by theirs.
    const withRecords = inboxTotal(db, { queue: 'any', recordSources }, ctx.now());
    expect(withRecords - inboxTotal(db, { queue: 'any' }, ctx.now())).toBe(FIX.length);
  });

  it('filters by layout, queue, finding and root keep exactly their rows', () => {
    const keys = (q: Parameters<typeof inboxView>[1]) =>
      inboxView(ctx, { limit: 500, ...q }, undefined)
        .items.map((i) => i.filename)
        .sort();
    expect(keys({ queue: 'any', layout: 'consolidation' })).toEqual(FIX.map(([k]) => k).sort());
    expect(keys({ queue: 'any', layout: 'trust-root' })).toEqual([
      'feedback_due.md',
      'feedback_ok.md',
      'feedback_stale.md',
    ]);
    // The record flag `conflict` is the contradictions queue; the memory conflicts queue holds none of them.
    expect(keys({ queue: 'conflicts' })).toEqual([]);
    expect(keys({ queue: 'contradictions' })).toEqual(
      FIX.filter(([, r]) => r.flags.includes('conflict'))
        .map(([k]) => k)
        .sort(),
    );
    expect(keys({ queue: 'write-rule' })).toEqual(
      FIX.filter(([, r]) => r.flags.includes('write-rule'))
        .map(([k]) => k)
        .sort(),
    );
    // The default queue: the stale memory, the due memory, and records that need a decision (never archived ones).
    const inbox = inboxView(ctx, { limit: 500 }, undefined).items;
    expect(inbox.filter((i) => i.kind !== 'record').map((i) => i.name)).toEqual(['Due', 'Stale']);
    const recs = inbox.filter((i) => i.kind === 'record').map((i) => i.filename);
    expect(recs).toContain(FIXTURE_IDS.promotable);
    expect(recs).toContain(FIXTURE_IDS.pairKeep);
    expect(recs).not.toContain(FIXTURE_IDS.young);
    expect(recs).not.toContain(FIXTURE_IDS.working);
    expect(recs).not.toContain(FIXTURE_IDS.verified);
    // Records with a secret finding: what the records page's own filter gives (another path).
    const secret = listRecords(ctx, { finding: 'secret' }).items.map((r) => r.key);
    expect(secret.length).toBeGreaterThan(0);
    expect(keys({ queue: 'any', finding: 'secret' })).toEqual(secret.sort());
    expect(keys({ queue: 'any', source: ctx.recordSources[0]!.id })).toHaveLength(FIX.length);
    // Finding class and kind: the same words and the same rows as the records page's filters.
    for (const cls of ['credential', 'personal'] as const)
      expect(keys({ queue: 'any', cls }), cls).toEqual(
        listRecords(ctx, { cls })
          .items.map((r) => r.key)
          .sort(),
      );
    const facets = inboxView(ctx, { queue: 'any' }, undefined).facets;
    const secretKinds = facets.kinds.filter((x) => x.code.startsWith('secret.'));
    expect(secretKinds.length).toBeGreaterThan(0);
    for (const k of secretKinds)
      expect(keys({ queue: 'any', kind: k.code })).toEqual(
        listRecords(ctx, { kind: k.code })
          .items.map((r) => r.key)
          .sort(),
      );
    expect(facets.sources.map((s) => s.kind)).toContain('consolidation');
  });

  it("the tier tabs' Finding class and kind are the inbox's, on memories and records alike", () => {
    put(sb.root, 'memories/feedback_token.md', memory('Token', 'verified', [['last-verified', '2026-11-01']]));
    fs.appendFileSync(path.join(sb.root, 'memories/feedback_token.md'), `Deploy with ${FAKE_TOKEN} here.\n`);
    put(sb.root, 'memories/feedback_mail.md', memory('Mail', 'inferred', []));
    fs.appendFileSync(path.join(sb.root, 'memories/feedback_mail.md'), 'Ask jane.roe@example.org about it.\n');
    scan(ctx);
    const live = syncRecordIndex(ctx);
    const tab = (q: Parameters<typeof listMemoriesAndRecords>[1]) =>
      listMemoriesAndRecords(ctx.handle.sqlite, { limit: 500, ...q }, live, ctx.now())
        .items.map((i) => i.filename)
        .sort();
    const inbox = (q: Parameters<typeof inboxView>[1]) =>
      inboxView(ctx, { queue: 'any', limit: 500, ...q }, undefined)
        .items.map((i) => i.filename)
        .sort();
    const p = parseTableParams({ cls: 'credential', kind: 'secret.email', finding: 'secret' });
    expect(p).toMatchObject({ cls: 'credential', kind: 'secret.email', finding: 'secret' });
    expect(parseTableParams({ cls: 'secret' }).cls).toBeUndefined();
    for (const cls of ['credential', 'personal'] as const) {
      const rows = tab({ cls });
      expect(rows, cls).toEqual(inbox({ cls }));
      // The memory with that class of finding is there.
      expect(rows).toContain(cls === 'credential' ? 'feedback_token.md' : 'feedback_mail.md');
    }
    // Records are among them too (the fixture's secret findings).
    expect(
      [...tab({ cls: 'credential' }), ...tab({ cls: 'personal' })].filter((k) => !k.endsWith('.md')).length,
    ).toBeGreaterThan(0);
    const kinds = findingKinds(ctx, live);
    expect(kinds.map((k) => k.code)).toEqual(
      inboxView(ctx, { queue: 'any' }, undefined).facets.kinds.map((k) => k.code),
    );
    for (const k of kinds.filter((x) => x.check === 'secret')) {
      const rows = tab({ kind: k.code });
      expect(rows, k.code).toEqual(inbox({ kind: k.code }));
      expect(rows, k.code).toHaveLength(k.memories);
    }
    // A tier narrows it: the verified tab's credential rows are the verified ones among them.
    expect(tab({ tier: 'verified', cls: 'credential' })).toEqual(inbox({ tier: 'verified', cls: 'credential' }));
    expect(tab({ tier: 'inferred', cls: 'credential' })).not.toContain('feedback_token.md');
    // An older link's check (the overview's "Secrets detected" card) keeps its rows: both classes.
    expect(tab({ finding: 'secret' })).toEqual(
      [...new Set([...tab({ cls: 'credential' }), ...tab({ cls: 'personal' })])].sort(),
    );
  });

  it("a record row's pane offers its verbs; a demote leaves the inbox and Undo brings it back", () => {
    const id = recId(FIXTURE_IDS.promotable);
    const pane = inboxView(ctx, { limit: 500 }, id).pane!;
    expect(pane.item.kind).toBe('record');
    expect(pane.body).toContain('make check');
    expect(pane.record?.actions).toEqual(expect.arrayContaining(['promote', 'demote']));
    const before = fs.readFileSync(path.join(cons, 'agent.memory.jsonl'));

    const done = applyRecordActions(ctx, [{ id, action: 'demote', reason: 'not sure any more' }], {
      actor: 'user:web',
    });
    expect(done.ok).toBe(true);
    if (!done.ok) return;
    const after = inboxView(ctx, { queue: 'any', limit: 500 }, id);
    expect(after.pane?.item.tier).toBe('quarantined');
    expect(inboxView(ctx, { queue: 'due', limit: 500 }, undefined).items.map((i) => i.filename)).not.toContain(
      FIXTURE_IDS.promotable,
    );

    expect(undoBatch(ctx, done.batch, 'user:web').ok).toBe(true);
    expect(fs.readFileSync(path.join(cons, 'agent.memory.jsonl')).equals(before)).toBe(true);
    expect(inboxView(ctx, { queue: 'any', limit: 500 }, id).pane?.item.tier).toBe('inferred');
  });
});
