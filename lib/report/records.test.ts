/**
 * Record roots in the report (docs/records.md, "History and reports"): a section per
 * record root whose counts agree with `memtrust list --layout … --json` (a different
 * path: the record list), record events in the transitions list and the charts, and a
 * fake password in a consolidation statement in no report, through the real CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixtureEnv, writePreparedRoot } from './test-fixture';
import { runCli } from './cli-run';
import {
  CONSOLIDATION_FIXTURE,
  FIXTURE_IDS,
  rec,
  writeContractFixture,
  writeStore,
} from '../sources/consolidation/test-fixtures';
import type { Env } from '../core/env';
import type { ReportData } from './types';

const PASSWORD = 'Pw-FakeQz81xw9!';
let tmp: string;
let cons: string;
let env: Env;
let consId: string;
const reports: Record<string, string> = {};
let d: ReportData;
let listed: { items: { tier: string; flags: string[]; layout: string }[]; problems: unknown[] };

const ok = (args: string[]) => {
  const r = runCli(args, env);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
};

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-report-records-'));
  const root = path.join(tmp, 'root');
  writePreparedRoot(root);
  cons = path.join(tmp, 'consolidation');
  writeContractFixture(cons);
  writeStore(cons, 'vault.memory.jsonl', [
    rec('mem_vault01', { statement: `The NAS admin password: ${PASSWORD} (rotate it in spring).` }),
  ]);
  env = fixtureEnv([root, cons].join(path.delimiter), tmp);
  consId = (JSON.parse(ok(['roots', '--json'])).configured as { root: string; id: string }[]).find(
    (r) => r.root === cons,
  )!.id;
  ok(['record-action', `${consId}:${FIXTURE_IDS.promotable}`, 'promote', '--reason', 'observed for a week']);
  listed = JSON.parse(ok(['list', '--layout', 'consolidation', '--json']));
  for (const f of ['html', 'json', 'md']) {
    const out = path.join(tmp, `report.${f}`);
    ok(['report', '--format', f, '--out', out]);
    reports[f] = fs.readFileSync(out, 'utf8');
  }
  d = JSON.parse(reports.json!);
}, 120_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('record roots in the report', () => {
  it('one section per record root, its counts as the record list gives them', () => {
    expect(d.records).toHaveLength(1);
    const s = d.records[0]!;
    const roots = JSON.parse(ok(['roots', '--json'])).configured as { id: string; shape: string; label: string }[];
    const r = roots.find((x) => x.id === consId)!;
    expect(s).toMatchObject({ id: consId, root: cons, layout: 'consolidation', shape: r.shape, label: r.label });
    expect(s.error).toBeNull();
    const items = listed.items.filter((i) => i.layout === 'consolidation');
    expect(s.total).toBe(items.length);
    expect(s.total).toBe(Object.keys(CONSOLIDATION_FIXTURE.records).length + 1);
    for (const t of ['verified', 'inferred', 'quarantined', 'archived'] as const)
      expect(s.tiers[t], t).toBe(items.filter((i) => i.tier === t).length);
    const flags: Record<string, number> = {};
    for (const i of items) for (const f of i.flags) flags[f] = (flags[f] ?? 0) + 1;
    expect(s.flags).toEqual(Object.fromEntries(Object.entries(flags).sort(([a], [b]) => (a < b ? -1 : 1))));
    expect(s.problems).toBe(listed.problems.length);
    expect(s.problems).toBeGreaterThan(0);
    // The fixture's needs-review pair.
    expect(s.conflicts).toBe(2);
    expect(s.events).toBe(1);
  });

  it("the report's tier counts hold the records beside the memories", () => {
    const mem = JSON.parse(ok(['list', '--layout', 'trust-root', '--json'])) as {
      items: { tier: string }[];
      total: number;
    };
    const s = d.records[0]!;
    expect(mem.items.length).toBe(mem.total);
    expect(d.tiers.total).toBe(mem.total + s.total);
    for (const t of ['verified', 'inferred', 'quarantined', 'archived'] as const)
      expect(d.tiers[t], t).toBe(mem.items.filter((i) => i.tier === t).length + s.tiers[t]);
    // The lists agree with the counts they sit under.
    expect(d.stale.total).toBe(d.attention.stale);
    expect(d.review.total).toBe(d.attention.dueForReview);
    // A due record is listed by id and place, never by its statement.
    expect(d.review.items).toContainEqual(
      expect.objectContaining({ id: `${consId}:mem_vault01`, file: 'vault.memory.jsonl:1', name: null }),
    );
    // The quarantine list holds the quarantined records too (no days or window: the layout's rule).
    expect(d.quarantine.total).toBe(d.tiers.quarantined);
    const qRecords = d.quarantine.items.filter((q) => q.source === consId);
    expect(qRecords.length).toBe(s.tiers.quarantined);
    expect(qRecords.length).toBeGreaterThan(0);
    for (const q of qRecords) expect(q).toMatchObject({ name: null, days: null, since: null, window: 'layout' });
    expect(reports.md).toContain("the layout's rule");
    // The verified staleness chart counts them too.
    const charted = d.charts.verified.reduce((n, b) => n + b.count, 0);
    expect(charted).toBe(d.tiers.verified);
  });

  it('record events are listed with their layout and verb, and counted in the charts', () => {
    const recEvents = d.transitions.list.items.filter((e) => e.layout);
    expect(recEvents).toEqual([
      expect.objectContaining({
        layout: 'consolidation',
        recordAction: 'promote',
        action: 'promote',
        source: consId,
        memory: FIXTURE_IDS.promotable,
        from: 'inferred',
        to: 'verified',
        reason: 'observed for a week',
      }),
    ]);
    const charted = d.charts.transitions.reduce((n, w) => n + w.total, 0);
    expect(charted).toBe(d.transitions.list.total);
    expect(d.transitions.byAction.promote).toBeGreaterThanOrEqual(1);
  });

  it('HTML and Markdown carry the section; no report holds the password', () => {
    expect(reports.html).toContain(`<section id="records-${consId}">`);
    expect(reports.html).toContain(`consolidation ${consId}:${FIXTURE_IDS.promotable}`);
    expect(reports.md).toMatch(/^## Records: .*consolidation.*$/m);
    expect(reports.md).toMatch(/^\| Contradictions \| 2 \|$/m);
    for (const [f, text] of Object.entries(reports)) expect(text.includes(PASSWORD), `report.${f}`).toBe(false);
    // The record with the password is read (and counted) all the same.
    expect(ok(['show', `${consId}:mem_vault01`])).not.toContain(PASSWORD);
  });
});
