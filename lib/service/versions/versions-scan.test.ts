/**
 * Versions kept by the scan and changes made outside memtrust (docs/versions.md): a
 * Claude Code folder indexed, then a consolidation-like run deletes eight files, rewrites
 * two and edits MEMORY.md; the rescan keeps every version, writes `outside` events, and no
 * stored version holds a credential value.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { claudeFolder } from '../fixtures/claude-folder';
import { NOW, openCtx, put, readAudit, removeSandbox, sandbox, sha, type Sandbox } from '../test-support';
import { scan } from '../index/scan-service';
import { VersionStore } from './version-store';
import { REDACTED } from './redact';
import { chunksOf, decodeChunk } from './pack';
import { applyPlan, planTransitions } from '../batches/batch-plan';
import { appendAudit } from '../audit/audit-log';
import { listAsOf } from './as-of';
import { outsideBatchTargets, recoverVersions } from './recover';
import { listAuditEvents } from '../../../db/queries/audit-events';
import { history } from '../../../db/queries/history';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox('memtrust-versions-');
  vi.stubEnv('MEMTRUST_NOW', NOW);
  vi.stubEnv('MEMTRUST_VERSIONS', 'on');
  for (const [rel, bytes] of Object.entries(claudeFolder())) put(sb.root, rel, bytes);
});
afterEach(() => {
  vi.unstubAllEnvs();
  removeSandbox(sb);
});

const store = () => new VersionStore(path.join(sb.tmp, 'versions'));
/** Every byte of the version store, packs decompressed. */
function storeText(): string {
  const dir = path.join(sb.tmp, 'versions');
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const raw = fs.readFileSync(p);
        out.push(raw.toString('latin1'));
        for (const c of chunksOf(raw)) {
          const d = decodeChunk(c.payload)!;
          out.push(JSON.stringify(d.header), d.body.toString('utf8'));
        }
      }
    }
  };
  walk(dir);
  return out.join('\n');
}

const memories = () =>
  fs
    .readdirSync(sb.root)
    .filter((f) => f.endsWith('.md') && f !== 'MEMORY.md')
    .sort();

describe('the version store', () => {
  it('keeps every file of a first index once, private, and with no credential value', () => {
    const ctx = openCtx(sb);
    const s = store();
    const lines = s.readIndex(sb.root).filter((l) => !l.index);
    expect(lines.map((l) => l.rel).sort()).toEqual(memories());
    // MEMORY.md is kept beside them, flagged as the index (recover reads which lines it had).
    const index = s.readIndex(sb.root).filter((l) => l.index);
    expect(index.map((l) => l.rel)).toEqual(['MEMORY.md']);
    expect(index[0]!.sha).toBe(sha(fs.readFileSync(path.join(sb.root, 'MEMORY.md'))));
    for (const l of lines) {
      expect(l.id).toBe(`${ctx.sources[0]!.id}:${l.rel}`);
      expect(l.sha).toBe(sha(fs.readFileSync(path.join(sb.root, l.rel))));
    }
    for (const p of s.packNames()) expect(fs.statSync(s.packFile(p)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(s.indexFile(sb.root)).mode & 0o777).toBe(0o600);
    // Nothing in the root.
    const inRoot = (fs.readdirSync(sb.root, { recursive: true }) as string[]).filter((f) => /versions|\.br$/.test(f));
    expect(inRoot).toEqual([]);
    // A clean file comes back byte for byte; one with a password comes back without it.
    const clean = lines.find((l) => l.rel === 'feedback_tabs.md')!;
    expect(s.bytesOf(clean)!.equals(fs.readFileSync(path.join(sb.root, 'feedback_tabs.md')))).toBe(true);
    const nas = lines.find((l) => l.rel === 'reference_nas.md')!;
    expect(nas.redacted).toBeGreaterThan(0);
    expect(s.bytesOf(nas)!.toString()).toContain(REDACTED);
    const text = storeText();
    expect(text).not.toContain('Tr0ub4dor-not-real');
    expect(text).not.toMatch(/Hunter\d+-not-real/);
    expect(text).not.toMatch(/sk-FAKEfake/);
    // A rescan with nothing changed keeps nothing new.
    scan(ctx);
    expect(store().readIndex(sb.root)).toHaveLength(lines.length + index.length);
  });

  it('a consolidation run outside memtrust: eight deleted, two rewritten, MEMORY.md edited', () => {
    const ctx = openCtx(sb);
    const files = memories();
    const deleted = files.slice(0, 8);
    const rewritten = files.slice(8, 10);
    const originals = Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(sb.root, f))]));
    for (const f of deleted) fs.rmSync(path.join(sb.root, f));
    for (const f of rewritten)
      fs.writeFileSync(path.join(sb.root, f), `${originals[f]!.toString()}\nMerged from two notes.\n`);
    const index = fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8');
    fs.writeFileSync(
      path.join(sb.root, 'MEMORY.md'),
      index
        .split('\n')
        .filter((l) => !deleted.some((d) => l.includes(`(${d})`)))
        .join('\n'),
    );
    const stats = scan(ctx);
    expect(stats.removed).toBe(8);
    // The scan's summary counts them (it said "0 audit events added" when they were recorded).
    expect(stats.outside).toBe(10);
    expect(stats.events).toBeGreaterThanOrEqual(10);
    const outside = readAudit(sb.root).filter((e) => e.actor === 'outside');
    expect(
      outside
        .filter((e) => e.action === 'deleted')
        .map((e) => e.memory)
        .sort(),
    ).toEqual(deleted);
    expect(
      outside
        .filter((e) => e.action === 'rewritten')
        .map((e) => e.memory)
        .sort(),
    ).toEqual(rewritten);
    expect(new Set(outside.map((e) => e.batch)).size).toBe(1);
    for (const e of outside.filter((x) => x.action === 'deleted')) {
      expect(e.before_sha256).toBe(sha(originals[e.memory]!));
      expect(e.after_sha256).toBeNull();
      expect(e.lines_changed).toBe(originals[e.memory]!.toString().replace(/\n$/, '').split('\n').length);
    }
    for (const e of outside.filter((x) => x.action === 'rewritten')) {
      expect(e.after_sha256).toBe(sha(fs.readFileSync(path.join(sb.root, e.memory))));
      expect(e.lines_changed).toBe(2); // a blank line and the merge note
      expect(e.reason).toBe('rewritten outside memtrust: 2 lines changed');
    }
    // Mirrored: the audit page and the memory's history read these rows.
    const rows = ctx.handle.sqlite.prepare("SELECT count(*) AS n FROM audit_events WHERE actor = 'outside'").get() as {
      n: number;
    };
    expect(rows.n).toBe(10);
    const page = listAuditEvents(ctx.handle.sqlite, { actor: 'outside' }, { limit: 50, offset: 0 });
    expect(page.total).toBe(10);
    expect(page.items.every((e) => e.actor === 'outside')).toBe(true);
    const timeline = history(ctx.handle.db, { memory: rewritten[0]!, source: ctx.sources[0]!.id });
    expect(timeline.map((h) => h.action)).toContain('rewritten');
    // Every version kept: the rewritten files' old and new bytes, the deleted ones marked gone.
    const lines = store().readIndex(sb.root);
    for (const f of rewritten) expect(lines.filter((l) => l.rel === f && !l.gone)).toHaveLength(2);
    for (const f of deleted) expect(lines.filter((l) => l.rel === f).at(-1)?.gone).toBe(true);
    // A second rescan sees nothing new.
    scan(ctx);
    expect(readAudit(sb.root).filter((e) => e.actor === 'outside')).toHaveLength(10);
    // Recover all: every file as it was, and MEMORY.md with the lines it had for them, each in its place.
    const s = store();
    const r = recoverVersions(ctx, s, outsideBatchTargets(ctx, s, outside[0]!.batch!));
    expect(r).toMatchObject({ ok: true });
    for (const f of [...deleted, ...rewritten])
      expect(fs.readFileSync(path.join(sb.root, f)).equals(originals[f]!), f).toBe(true);
    expect(fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8')).toBe(index);
    const listedThen = deleted.filter((d) => index.includes(`](${d})`));
    expect(listedThen.length).toBeGreaterThan(0);
    expect(listedThen.length).toBeLessThan(deleted.length); // one was never listed: no line made up for it
    expect(r.ok && r.indexLines).toBe(listedThen.length);
  });

  it('a file added by another program is an `added` event; memtrust-less first index writes none', () => {
    const ctx = openCtx(sb);
    expect(readAudit(sb.root).filter((e) => e.actor === 'outside')).toHaveLength(0);
    put(sb.root, 'feedback_new.md', '---\nname: New\n---\n\nOne line.\nTwo lines.\n');
    scan(ctx);
    const added = readAudit(sb.root).filter((e) => e.actor === 'outside');
    expect(added).toMatchObject([
      { action: 'added', memory: 'feedback_new.md', before_sha256: null, lines_changed: 6 },
    ]);
  });

  it("memtrust's own writes are not outside changes; their new bytes are kept as versions", () => {
    const ctx = openCtx(sb);
    const chosen = memories().slice(0, 3);
    const plan = planTransitions(
      ctx,
      chosen.map((n) => `${ctx.sources[0]!.id}:${n}`),
      'demote',
      'outdated',
    );
    const r = applyPlan(ctx, plan, { actor: 'user:cli', confirmed: true, reason: 'outdated' });
    expect(r).toMatchObject({ ok: true });
    // Another process's view: the rows are re-read from the files.
    ctx.handle.sqlite.prepare('UPDATE entries SET mtime_ms = 0').run();
    scan(ctx);
    expect(readAudit(sb.root).filter((e) => e.actor === 'outside')).toEqual([]);
  });

  it('a change an audit event already names (a hook recorded the assistant writing it) is not an outside change', () => {
    const ctx = openCtx(sb);
    const bytes = Buffer.from('---\nname: Hooked\n---\n\nWritten by the assistant.\n');
    put(sb.root, 'feedback_hooked.md', bytes);
    const rewritten = Buffer.from(`${fs.readFileSync(path.join(sb.root, 'feedback_tabs.md'))}\nOne more line.\n`);
    fs.writeFileSync(path.join(sb.root, 'feedback_tabs.md'), rewritten);
    const event = (memory: string, after: Buffer, before: string | null) => ({
      v: 1 as const,
      id: `hook-${memory}`,
      at: NOW,
      machine: 'test-machine',
      actor: 'assistant' as const,
      action: 'edit' as const,
      memory,
      from: null,
      to: null,
      reason: null,
      findings: [],
      before_sha256: before,
      after_sha256: sha(after),
      recovered: false,
    });
    appendAudit(sb.root, 'test-machine', event('feedback_hooked.md', bytes, null));
    appendAudit(sb.root, 'test-machine', event('feedback_tabs.md', rewritten, null));
    // Another machine's memtrust moved one away (its event starts from the old bytes), seen over a sync.
    const moved = fs.readFileSync(path.join(sb.root, 'user_role.md'));
    fs.rmSync(path.join(sb.root, 'user_role.md'));
    appendAudit(sb.root, 'other-machine', event('user_role.md', Buffer.from('elsewhere'), sha(moved)));
    scan(ctx);
    expect(readAudit(sb.root).filter((e) => e.actor === 'outside')).toEqual([]);
    // Both versions are still kept.
    const lines = store().readIndex(sb.root);
    expect(lines.filter((l) => l.rel === 'feedback_tabs.md')).toHaveLength(2);
    expect(lines.filter((l) => l.rel === 'feedback_hooked.md')).toHaveLength(1);
  });

  it('a root synced between machines: an outside change another machine recorded is not recorded again', () => {
    const ctx = openCtx(sb);
    const gone = fs.readFileSync(path.join(sb.root, 'user_role.md'));
    const edited = Buffer.from(`${fs.readFileSync(path.join(sb.root, 'feedback_tabs.md'))}\nSynced edit.\n`);
    fs.rmSync(path.join(sb.root, 'user_role.md'));
    fs.writeFileSync(path.join(sb.root, 'feedback_tabs.md'), edited);
    const seen = (memory: string, action: 'deleted' | 'rewritten', before: string, after: string | null) => ({
      v: 1 as const,
      id: `other-${memory}`,
      at: NOW,
      machine: 'other-machine',
      actor: 'outside' as const,
      action,
      memory,
      from: null,
      to: null,
      reason: `${action} outside memtrust`,
      findings: [],
      before_sha256: before,
      after_sha256: after,
      recovered: false,
    });
    const tabsBefore = ctx.handle.sqlite
      .prepare('SELECT sha256 FROM entries WHERE filename = ?')
      .get('feedback_tabs.md') as {
      sha256: string;
    };
    // The other machine saw the deletion only; this one sees the rewrite first.
    appendAudit(sb.root, 'other-machine', seen('user_role.md', 'deleted', sha(gone), null));
    const stats = scan(ctx);
    const mine = readAudit(sb.root).filter((e) => e.actor === 'outside' && e.machine !== 'other-machine');
    expect(mine.map((e) => [e.memory, e.action, e.before_sha256])).toEqual([
      ['feedback_tabs.md', 'rewritten', tabsBefore.sha256],
    ]);
    expect(stats.outside).toBe(1);
  });

  it('list --as-of: the root as it was before an outside change, and after', () => {
    const ctx = openCtx(sb);
    const files = memories();
    fs.rmSync(path.join(sb.root, files[0]!));
    fs.appendFileSync(path.join(sb.root, files[1]!), '\nLater.\n');
    // The rescan a day later: outside changes carry the scan's time (the context's now).
    scan({ ...ctx, now: () => new Date('2026-11-23T12:00:00Z') });
    const before = listAsOf(ctx, new Date('2026-11-22T18:00:00Z'))!;
    expect(before.map((i) => i.relPath)).toEqual(files);
    expect(before.find((i) => i.relPath === files[0])?.now).toBe('deleted');
    expect(before.find((i) => i.relPath === files[1])?.now).toBe('changed');
    expect(before.find((i) => i.relPath === files[2])?.now).toBe('same');
    const after = listAsOf(ctx, new Date('2026-11-23T12:00:00Z'))!;
    expect(after.map((i) => i.relPath)).toEqual(files.slice(1));
    expect(listAsOf(ctx, new Date('2026-11-01T00:00:00Z'))).toEqual([]);
  });
});
