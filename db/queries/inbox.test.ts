/**
 * The inbox query on a real scanned root: each filter keeps exactly the memories it
 * names (class from the validators' rule, kind, age, layout, queues), pages add up,
 * and the view model flags credentials and hard failures but not personal findings.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inboxFacets, inboxTotal, listInbox, type InboxQuery } from './inbox';
import { inboxView } from '../../lib/service/index/inbox';
import { memoryFile, openCtx, put, removeSandbox, sandbox, type Sandbox } from '../../lib/service/test-support';
import { groupFindings } from '../../lib/validators/finding-groups';
import { transition } from '../../lib/service/write/transition';

const BODY =
  '\nRun the integration tests before merging because flaky merges cost a day.\n\n**Why:** main broke.\n\n**How to apply:** npm test.\n';
const TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const fm = (name: string, extra: [string, string][]): [string, string][] => [
  ['name', name],
  ['description', `${name} notes`],
  ['type', 'feedback'],
  ['source-machine', 'box'],
  ...extra,
];
const inferred = (name: string, created: string, body = BODY) =>
  memoryFile(
    fm(name, [
      ['trust-level', 'inferred'],
      ['created-at', created],
    ]),
    body,
  );
const verified = (name: string, lv: string) =>
  memoryFile(
    fm(name, [
      ['trust-level', 'verified'],
      ['created-at', '2026-01-01T00:00:00Z'],
      ['last-verified', lv],
    ]),
    BODY,
  );
const quarantined = (name: string, at: string) =>
  memoryFile(
    fm(name, [
      ['trust-level', 'quarantined'],
      ['created-at', '2026-01-01T00:00:00Z'],
      ['last-verified', at.slice(0, 10)],
      ['quarantined-at', at],
      ['quarantined-by', 'box'],
      ['quarantine-reason', 'doubtful'],
    ]),
    BODY,
  );

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
  put(
    sb.root,
    'memories/feedback_token.md',
    inferred('Token', '2026-10-01T00:00:00Z', `${BODY}\nDeploy with ${TOKEN}.\n`),
  );
  put(
    sb.root,
    'memories/feedback_ips.md',
    inferred(
      'Addresses',
      '2026-10-01T00:00:00Z',
      `${BODY}\n${Array.from({ length: 6 }, (_, i) => `- host ${i}: 10.0.0.${i + 1}`).join('\n')}\n`,
    ),
  );
  put(sb.root, 'memories/feedback_fresh.md', inferred('Fresh', '2026-11-20T00:00:00Z'));
  put(sb.root, 'memories/feedback_stale.md', verified('Stale', '2026-01-02'));
  put(sb.root, 'memories/feedback_ok.md', verified('Recent', '2026-11-01'));
  put(sb.root, 'quarantine/feedback_q_new.md', quarantined('Quarantined new', '2026-11-20T00:00:00Z'));
  put(sb.root, 'quarantine/feedback_q_old.md', quarantined('Quarantined old', '2026-07-01T00:00:00Z'));
});
afterEach(() => removeSandbox(sb));

const names = (items: { name: string | null }[]) => items.map((i) => i.name).sort();

describe('listInbox', () => {
  it('filters by queue, class, kind, age, tier and layout, each exactly', () => {
    const ctx = openCtx(sb);
    const db = ctx.handle.sqlite;
    const now = ctx.now();
    // A quarantine in its passive window (day 0–30) needs no decision yet.
    expect(names(listInbox(db, { queue: 'inbox' }, now).items)).toEqual([
      'Addresses',
      'Quarantined old',
      'Stale',
      'Token',
    ]);
    expect(listInbox(db, { queue: 'any' }, now).total).toBe(7);
    expect(names(listInbox(db, { queue: 'any', cls: 'credential' }, now).items)).toEqual(['Token']);
    expect(names(listInbox(db, { queue: 'any', cls: 'personal' }, now).items)).toEqual(['Addresses']);
    expect(names(listInbox(db, { queue: 'any', kind: 'secret.private-ip' }, now).items)).toEqual(['Addresses']);
    expect(names(listInbox(db, { queue: 'any', age: '0-7' }, now).items)).toEqual(['Fresh', 'Quarantined new']);
    expect(names(listInbox(db, { queue: 'any', age: '91+' }, now).items)).toEqual([
      'Quarantined old',
      'Recent',
      'Stale',
    ]);
    expect(names(listInbox(db, { queue: 'any', age: '31-90' }, now).items)).toEqual(['Addresses', 'Token']);
    expect(names(listInbox(db, { queue: 'any', tier: 'quarantined' }, now).items)).toEqual([
      'Quarantined new',
      'Quarantined old',
    ]);
    expect(listInbox(db, { queue: 'any', layout: 'claude-code' }, now).total).toBe(0);
    expect(listInbox(db, { queue: 'any', layout: 'trust-root' }, now).total).toBe(7);
    expect(inboxFacets(db).classCodes).toEqual({
      credential: ['secret.github-token'],
      personal: ['secret.private-ip'],
    });
  });

  it("the count alone is the listing's total, for every filter", () => {
    const ctx = openCtx(sb);
    const db = ctx.handle.sqlite;
    const now = ctx.now();
    const queries: InboxQuery[] = [
      { queue: 'inbox' },
      { queue: 'any' },
      { queue: 'any', cls: 'credential' },
      { queue: 'any', kind: 'secret.private-ip' },
      { queue: 'any', age: '91+' },
      { queue: 'any', tier: 'quarantined' },
      { queue: 'any', layout: 'trust-root' },
      { queue: 'inbox', source: ctx.sources[0]!.id },
    ];
    expect(queries.map((q) => inboxTotal(db, q, now))).toEqual(queries.map((q) => listInbox(db, q, now).total));
    expect(inboxTotal(db, { queue: 'inbox' }, now)).toBe(4);
  });

  it('pages add up to the total, in the sort order', () => {
    const ctx = openCtx(sb);
    const now = ctx.now();
    const pages = [0, 3, 6].flatMap((offset) =>
      listInbox(ctx.handle.sqlite, { queue: 'any', sort: 'file', limit: 3, offset }, now).items.map((i) => i.filename),
    );
    expect(pages).toEqual([...pages].sort());
    expect(new Set(pages).size).toBe(7);
  });

  it('flags credentials and hard failures for promote, not personal findings; the pane keeps a row that left the filter', () => {
    const ctx = openCtx(sb);
    const v = inboxView(ctx, { queue: 'any', sort: 'file' }, undefined);
    const byName = Object.fromEntries(v.items.map((i) => [i.name, i]));
    expect(byName.Token!.flagged).toMatch(/credential finding/);
    expect(byName.Addresses!.flagged).toBeNull();
    expect(byName.Addresses!.classes).toEqual({ credential: false, personal: true });
    const key = byName.Fresh!.key;
    const other = inboxView(ctx, { queue: 'any', tier: 'quarantined' }, key);
    expect(other.pane?.item.name).toBe('Fresh');
  });

  it('the count shrinks as decisions are made: a promote and a demote each take one out', () => {
    const ctx = openCtx(sb);
    const count = () => inboxView(ctx, {}, undefined).total;
    expect(count()).toBe(4);
    const p = transition(ctx, { ref: 'feedback_ips.md', actor: 'user:cli', action: 'promote' });
    expect(p.ok, JSON.stringify(p)).toBe(true);
    expect(count()).toBe(3);
    const d = transition(ctx, {
      ref: 'feedback_token.md',
      actor: 'user:cli',
      action: 'demote',
      reason: 'holds a token',
    });
    expect(d.ok, JSON.stringify(d)).toBe(true);
    expect(count()).toBe(2);
    const r = transition(ctx, { ref: 'feedback_stale.md', actor: 'user:cli', action: 'reaffirm' });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(count()).toBe(1);
  });
});

describe('groupFindings', () => {
  it('collapses identical findings into one row with a count and its lines', () => {
    const f = Array.from({ length: 60 }, (_, i) => ({
      check: 'secret',
      code: 'secret.private-ip',
      label: 'SECRET-DETECTED',
      line: 10 + i,
      message: 'private IPv4 address 10.x.x.x',
    }));
    const g = groupFindings([
      ...f,
      {
        check: 'validate',
        code: 'missing-required-field',
        label: 'FAIL-STRUCT',
        line: 1,
        message: 'missing required field: type',
      },
    ]);
    expect(g).toHaveLength(2);
    expect(g[0]).toMatchObject({ label: 'FAIL-STRUCT', count: 1 });
    expect(g[1]).toMatchObject({ code: 'secret.private-ip', count: 60, lines: f.map((x) => x.line) });
  });
});
