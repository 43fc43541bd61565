/**
 * Issue #3 item 7.1: the exact result of every transition on small hand-written
 * files — frontmatter set/removed, body bytes, location, audit line, index rows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { transition } from './transition';
import { applyBackfill, planBackfill } from '../batches/backfill';
import type { ServiceContext } from '../context';
import {
  MACHINE,
  NOW,
  TODAY,
  fieldsOf,
  memoryFile,
  openCtx,
  put,
  readAudit,
  sha,
  splitMemory,
  sandboxPerTest,
} from '../test-support';

const WHY =
  '\nKeep the release checklist in the repository because releases broke twice.\n\n**Why:** two broken releases.\n\n**How to apply:** read it before tagging.\n';
const BAD_UTF8 = Buffer.concat([
  Buffer.from('\nThe legacy export writes raw bytes like '),
  Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x80]),
  Buffer.from(' into the CSV header.\n\n**Why:** seen in prod.\n\n**How to apply:** strip them.\n'),
]);

const base = (type: string, extra: [string, string][]): [string, string][] => [
  ['name', 'Release checklist'],
  ['description', 'where the release checklist lives'],
  ['type', type],
  ['originSessionId', '6c1e2f0a-unknown-key-kept'],
  ...extra,
];

const sb = sandboxPerTest({ beforeEach, afterEach });
let ctx: ServiceContext;

interface Expect {
  rel: string;
  action: 'promote' | 'reaffirm' | 'demote' | 'restore' | 'archive';
  reason?: string;
  set: Record<string, string>;
  remove: string[];
  dst: string;
  from: string;
  to: string;
}

/** Runs one transition and checks every observable effect against `e`. */
function check(e: Expect, opId: string) {
  const before = fs.readFileSync(path.join(sb.root, e.rel));
  const filename = path.basename(e.rel);
  const r = transition(ctx, { ref: filename, action: e.action, reason: e.reason, actor: 'user:web', opId });
  expect(r).toMatchObject({
    ok: true,
    noop: false,
    op: opId,
    memory: filename,
    from: e.from,
    to: e.to,
    path: path.join(sb.root, e.dst),
  });
  if (e.dst !== e.rel) expect(fs.existsSync(path.join(sb.root, e.rel))).toBe(false);
  const after = fs.readFileSync(path.join(sb.root, e.dst));

  // Frontmatter: exactly the expected keys set / removed, every other line untouched and in order.
  const want = { ...fieldsOf(before), ...e.set };
  for (const k of e.remove) delete want[k];
  expect(fieldsOf(after)).toEqual(want);
  const touched = (l: string) => [...Object.keys(e.set), ...e.remove].some((k) => l.startsWith(`${k}:`));
  expect(splitMemory(after).lines.filter((l) => !touched(l))).toEqual(
    splitMemory(before).lines.filter((l) => !touched(l)),
  );
  // Bytes: body identical, BOM and line endings kept.
  const [sb4, sa] = [splitMemory(before), splitMemory(after)];
  expect(sa.body.equals(sb4.body)).toBe(true);
  expect(sa.bom).toBe(sb4.bom);
  expect(new Set(sa.eols)).toEqual(new Set(sb4.eols));

  // Audit line, exactly.
  const events = readAudit(sb.root);
  expect(events).toHaveLength(1);
  expect(events[0]).toEqual({
    v: 1,
    id: opId,
    at: NOW,
    machine: MACHINE,
    actor: 'user:web',
    action: e.action,
    memory: filename,
    from: e.from,
    to: e.to,
    reason: e.reason ?? null,
    findings: [],
    before_sha256: sha(before),
    after_sha256: sha(after),
    recovered: false,
    // A single transition is a batch of one: its batch is its operation id (docs/audit-trail.md `batch`).
    batch: opId,
  });

  // Index rows: one row, at the destination, with the new tier and bytes; the event mirrored.
  const rows = ctx.handle.sqlite
    .prepare('SELECT rel_path, location, tier, sha256 FROM entries WHERE filename = ?')
    .all(filename);
  expect(rows).toEqual([{ rel_path: e.dst, location: e.dst.split('/')[0], tier: e.to, sha256: sha(after) }]);
  const ev = ctx.handle.sqlite
    .prepare(
      'SELECT action, memory, from_tier, to_tier, reason, before_sha256, after_sha256, recovered FROM audit_events WHERE id = ?',
    )
    .all(opId);
  expect(ev).toEqual([
    {
      action: e.action,
      memory: filename,
      from_tier: e.from,
      to_tier: e.to,
      reason: e.reason ?? null,
      before_sha256: sha(before),
      after_sha256: sha(after),
      recovered: 0,
    },
  ]);
  return { before, after };
}

describe('transition results (trust-model root)', () => {
  it('promote (CRLF file): trust-level + last-verified set in place', () => {
    put(
      sb.root,
      'memories/feedback_release_checklist.md',
      memoryFile(
        base('feedback', [
          ['trust-level', 'inferred'],
          ['created-at', '2026-11-01T09:00:00Z'],
          ['source-machine', 'other-box'],
        ]),
        WHY.replace(/\n/g, '\r\n'),
        { crlf: true },
      ),
    );
    ctx = openCtx(sb);
    const { after } = check(
      {
        rel: 'memories/feedback_release_checklist.md',
        action: 'promote',
        set: { 'trust-level': 'verified', 'last-verified': TODAY },
        remove: [],
        dst: 'memories/feedback_release_checklist.md',
        from: 'inferred',
        to: 'verified',
      },
      'op-promote',
    );
    expect(splitMemory(after).eols.every((x) => x === '\r\n')).toBe(true);
  });

  it('reaffirm (BOM file): only last-verified changes', () => {
    put(
      sb.root,
      'memories/project_release_checklist.md',
      memoryFile(
        base('project', [
          ['trust-level', 'verified'],
          ['created-at', '2025-01-01T00:00:00Z'],
          ['last-verified', '2026-06-01'],
        ]),
        WHY,
        { bom: true },
      ),
    );
    ctx = openCtx(sb);
    const { after } = check(
      {
        rel: 'memories/project_release_checklist.md',
        action: 'reaffirm',
        set: { 'last-verified': TODAY },
        remove: [],
        dst: 'memories/project_release_checklist.md',
        from: 'verified',
        to: 'verified',
      },
      'op-reaffirm',
    );
    expect([...after.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('demote (body with invalid UTF-8): quarantine fields set, moved to quarantine/', () => {
    put(
      sb.root,
      'memories/feedback_legacy_export.md',
      memoryFile(
        base('feedback', [
          ['trust-level', 'verified'],
          ['created-at', '2026-01-01T00:00:00Z'],
          ['last-verified', '2026-10-01'],
        ]),
        BAD_UTF8,
      ),
    );
    ctx = openCtx(sb);
    check(
      {
        rel: 'memories/feedback_legacy_export.md',
        action: 'demote',
        reason: 'advice is outdated',
        set: {
          'trust-level': 'quarantined',
          'last-verified': TODAY,
          'quarantined-at': NOW,
          'quarantined-by': MACHINE,
          'quarantine-reason': 'advice is outdated',
        },
        remove: [],
        dst: 'quarantine/feedback_legacy_export.md',
        from: 'verified',
        to: 'quarantined',
      },
      'op-demote',
    );
  });

  it('restore: quarantine fields removed whole, lands verified in memories/', () => {
    put(
      sb.root,
      'quarantine/feedback_release_checklist.md',
      memoryFile(
        base('feedback', [
          ['trust-level', 'quarantined'],
          ['created-at', '2026-01-01T00:00:00Z'],
          ['last-verified', '2026-10-01'],
          ['quarantined-at', '2026-10-01T08:00:00Z'],
          ['quarantined-by', 'other-box'],
          ['quarantine-reason', 'doubtful'],
        ]),
        WHY,
      ),
    );
    ctx = openCtx(sb);
    check(
      {
        rel: 'quarantine/feedback_release_checklist.md',
        action: 'restore',
        set: { 'trust-level': 'verified', 'last-verified': TODAY },
        remove: ['quarantined-at', 'quarantined-by', 'quarantine-reason'],
        dst: 'memories/feedback_release_checklist.md',
        from: 'quarantined',
        to: 'verified',
      },
      'op-restore',
    );
  });

  it('archive: bytes unchanged, moved to archive/<month of quarantined-at>/', () => {
    put(
      sb.root,
      'quarantine/feedback_release_checklist.md',
      memoryFile(
        base('feedback', [
          ['trust-level', 'quarantined'],
          ['created-at', '2026-01-01T00:00:00Z'],
          ['last-verified', '2026-07-01'],
          ['quarantined-at', '2026-07-01T10:00:00Z'],
          ['quarantined-by', 'other-box'],
          ['quarantine-reason', 'doubtful'],
        ]),
        WHY,
      ),
    );
    ctx = openCtx(sb);
    const { before, after } = check(
      {
        rel: 'quarantine/feedback_release_checklist.md',
        action: 'archive',
        set: {},
        remove: [],
        dst: 'archive/2026-07/feedback_release_checklist.md',
        from: 'quarantined',
        to: 'archived',
      },
      'op-archive',
    );
    expect(after.equals(before)).toBe(true);
  });

  it('backfill (apply): trust-level, created-at from mtime, last-verified, source-machine; one event', () => {
    const mtime = new Date('2026-09-14T07:30:05Z');
    const rel = 'memories/project_release_checklist.md';
    const before = put(
      sb.root,
      rel,
      memoryFile(
        [
          ['name', 'Release checklist'],
          ['description', 'where it lives'],
          ['type', 'project'],
        ],
        WHY,
      ),
      mtime,
    );
    const bytes = fs.readFileSync(before);
    ctx = openCtx(sb);
    const plan = planBackfill(ctx);
    expect(plan.map((p) => [p.relPath, p.plan.kind])).toEqual([[rel, 'apply']]);
    const r = applyBackfill(ctx, plan[0]!, 'user:web');
    expect(r).toMatchObject({ ok: true, noop: false, from: null, to: 'verified' });
    const after = fs.readFileSync(path.join(sb.root, rel));
    expect(fieldsOf(after)).toEqual({
      ...fieldsOf(bytes),
      'trust-level': 'verified',
      'created-at': '2026-09-14T07:30:05Z',
      'last-verified': TODAY,
      'source-machine': MACHINE,
    });
    expect(splitMemory(after).body.equals(splitMemory(bytes).body)).toBe(true);
    const events = readAudit(sb.root);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'backfill',
      memory: 'project_release_checklist.md',
      from: null,
      to: 'verified',
      before_sha256: sha(bytes),
      after_sha256: sha(after),
      recovered: false,
      reason: 'type project defaults to verified',
    });
    expect(ctx.handle.sqlite.prepare('SELECT tier, location, trust_level FROM entries').all()).toEqual([
      { tier: 'verified', location: 'memories', trust_level: 'verified' },
    ]);
    expect(planBackfill(ctx)).toEqual([]);
  });
});
