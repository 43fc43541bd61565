/**
 * The dashboard's view of versions (docs/versions.md, "Versions in the dashboard"): the
 * deleted-outside list, a memory's versions, the masked diff between two, Recover at a
 * version and of a deleted memory (one undoable batch, MEMORY.md line back), and the tier
 * tables as of a time. A Claude Code folder indexed a day before a consolidation-like run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { claudeFolder } from '../fixtures/claude-folder';
import { openCtx, put, removeSandbox, sandbox, sha, type Sandbox } from '../test-support';
import type { ServiceContext } from '../context';
import { scan } from '../index/scan-service';
import { undoBatch } from '../batches/undo';
import { deletedOutside } from './deleted-outside';
import { recoverMemory, versionDiff, versionsView } from './version-view';
import { asOfRows } from './as-of-view';
import { REDACTED } from './redact';

const BEFORE = '2026-11-21T12:00:00Z';
const AFTER = '2026-11-22T12:00:00Z';
let sb: Sandbox;
let ctx: ServiceContext;
let originals: Record<string, Buffer>;
let deleted: string[];
let rewritten: string[];

beforeEach(() => {
  sb = sandbox('memtrust-vview-');
  vi.stubEnv('MEMTRUST_VERSIONS', 'on');
  vi.stubEnv('MEMTRUST_NOW', BEFORE);
  for (const [rel, bytes] of Object.entries(claudeFolder())) put(sb.root, rel, bytes);
  // The first index at BEFORE, the rescan after the run at AFTER: the context's time is the
  // scan's (the one versions and outside changes carry).
  sb.env.MEMTRUST_NOW = BEFORE;
  ctx = openCtx(sb);
  const files = fs
    .readdirSync(sb.root)
    .filter((f) => f.endsWith('.md') && f !== 'MEMORY.md')
    .sort();
  originals = Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(sb.root, f))]));
  // The password-bearing file is among the rewritten ones: its diff must show no value.
  rewritten = ['reference_nas.md', 'feedback_tabs.md'];
  deleted = files.filter((f) => !rewritten.includes(f)).slice(0, 3);
  for (const f of deleted) fs.rmSync(path.join(sb.root, f));
  for (const f of rewritten)
    fs.writeFileSync(path.join(sb.root, f), originals[f]!.toString().replace(/\n$/, '\nMerged from two notes.\n'));
  const index = fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8');
  fs.writeFileSync(
    path.join(sb.root, 'MEMORY.md'),
    index
      .split('\n')
      .filter((l) => !deleted.some((d) => l.includes(`(${d})`)))
      .join('\n'),
  );
  vi.stubEnv('MEMTRUST_NOW', AFTER);
  ctx = { ...ctx, now: () => new Date(AFTER) };
  scan(ctx);
});
afterEach(() => {
  vi.unstubAllEnvs();
  removeSandbox(sb);
});

describe('versions in the dashboard', () => {
  it('lists the memories deleted outside memtrust, per root, and not those memtrust moved or put back', () => {
    const list = deletedOutside(ctx);
    expect(list.map((d) => d.filename).sort()).toEqual([...deleted].sort());
    for (const d of list) {
      expect(d).toMatchObject({ deletedAt: AFTER.replace('.000', ''), size: originals[d.filename]!.length });
      expect(d.batch).toBeTruthy();
    }
    expect(deletedOutside(ctx, ['no-such-root'])).toEqual([]);
    // A memory MEMORY.md listed comes back with its own line, where it was.
    const listed = list.find((d) => d.filename === 'feedback_commits.md')!;
    const indexBefore = fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8');
    const r = recoverMemory(ctx, listed.id, undefined, 'user:web');
    expect(r).toMatchObject({ ok: true, indexLines: 1 });
    expect(fs.readFileSync(path.join(sb.root, listed.filename)).equals(originals[listed.filename]!)).toBe(true);
    const grafana = '- [Grafana](reference_grafana.md) — grafana notes';
    const commits = '- [Commits](feedback_commits.md) — commits notes';
    expect(fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8')).toBe(
      indexBefore.replace(`${grafana}\n`, `${grafana}\n${commits}\n`),
    );
    expect(deletedOutside(ctx).map((d) => d.filename)).not.toContain(listed.filename);
    // One MEMORY.md never listed comes back without a line (none is made up).
    const unlisted = list.find((d) => d.filename === 'feedback_broken_desc.md')!;
    const indexNow = fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8');
    expect(recoverMemory(ctx, unlisted.id, undefined, 'user:web')).toMatchObject({ ok: true, indexLines: 0 });
    expect(fs.readFileSync(path.join(sb.root, unlisted.filename)).equals(originals[unlisted.filename]!)).toBe(true);
    expect(fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8')).toBe(indexNow);
    // Undo of the first batch deletes it again and takes its line out.
    if (!r.ok || !r.batch) throw new Error('no batch');
    expect(undoBatch(ctx, r.batch, 'user:web')).toMatchObject({ ok: true });
    expect(fs.existsSync(path.join(sb.root, listed.filename))).toBe(false);
    expect(fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8')).toBe(indexBefore);
  });

  it("a memory's versions, and a diff of two that shows the changed lines and never a credential", () => {
    const v = versionsView(ctx, 'reference_nas.md');
    if (!v.ok) throw new Error(v.message);
    expect(v.value.deleted).toBe(false);
    expect(v.value.versions).toHaveLength(2);
    expect(v.value.versions.map((x) => x.who)).toEqual(['first seen', 'outside']);
    expect(v.value.versions[1]).toMatchObject({
      current: true,
      sha: sha(fs.readFileSync(path.join(sb.root, 'reference_nas.md'))),
    });
    const [a, b] = v.value.versions.map((x) => x.sha!.slice(0, 12));
    const d = versionDiff(ctx, v.value.id, a!, b!);
    if (!d.ok) throw new Error(d.message);
    expect(d.value.rows.filter((r) => r.op === 'added').map((r) => r.text)).toEqual(['Merged from two notes.']);
    expect(d.value.removed).toBe(0);
    const text = JSON.stringify(d.value);
    expect(text).not.toMatch(/Tr0ub4dor-not-real|Hunter\d+-not-real/);
    expect(text).toContain(REDACTED);
    expect(versionDiff(ctx, v.value.id, 'ffffffff', b!)).toMatchObject({ ok: false });
    // Recover at the first version: the file as it was (credential values replaced, docs/versions.md).
    const r = recoverMemory(ctx, v.value.id, v.value.versions[0]!.sha!, 'user:web');
    expect(r).toMatchObject({ ok: true, files: ['reference_nas.md'] });
    expect(fs.readFileSync(path.join(sb.root, 'reference_nas.md'), 'utf8')).not.toContain('Merged from two notes.');
    const tabs = versionsView(ctx, 'feedback_tabs.md');
    if (!tabs.ok) throw new Error(tabs.message);
    expect(recoverMemory(ctx, tabs.value.id, tabs.value.versions[0]!.sha!, 'user:web')).toMatchObject({ ok: true });
    expect(fs.readFileSync(path.join(sb.root, 'feedback_tabs.md')).equals(originals['feedback_tabs.md']!)).toBe(true);
  });

  it('a deleted memory has versions too; the tier tables as of before the run show it', () => {
    const v = versionsView(ctx, deleted[0]!);
    if (!v.ok) throw new Error(v.message);
    expect(v.value.deleted).toBe(true);
    expect(v.value.versions.at(-1)).toMatchObject({ deleted: true, who: 'outside' });
    const then = asOfRows(ctx, new Date('2026-11-21T18:00:00Z'), 'all')!;
    expect(then.map((r) => r.relPath)).toEqual(expect.arrayContaining(deleted));
    expect(then.filter((r) => deleted.includes(r.relPath)).every((r) => r.now === 'deleted')).toBe(true);
    const now = asOfRows(ctx, new Date(AFTER), 'all')!;
    expect(now.map((r) => r.relPath)).not.toEqual(expect.arrayContaining([deleted[0]]));
    // Claude Code files without trust-level read as inferred, as the index reads them.
    const inferred = asOfRows(ctx, new Date('2026-11-21T18:00:00Z'), 'inferred')!;
    const verified = asOfRows(ctx, new Date('2026-11-21T18:00:00Z'), 'verified')!;
    expect(inferred.length + verified.length).toBe(then.length);
    expect(asOfRows(ctx, new Date('2026-11-21T18:00:00Z'), 'all', ['no-such-root'])).toEqual([]);
  });
});
