/**
 * The record write pipeline (docs/records-write.md) over real temp stores with the test
 * adapters: line-range edits keep every other byte, two records of one file land in one
 * batch, a file changed since the plan is refused, a read-only layout names its command,
 * undo puts the bytes back, and the CLI's verbs reach the same path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerForTests } from '@/lib/sources/registry';
import { loadConfig } from '../../core/config';
import { closeDb } from '../../../db/client';
import { createContext, type ServiceContext } from '../context';
import { readAudit, sandbox, treeFiles, type Sandbox } from '../test-support';
import { undoBatch } from '../batches/undo';
import { recoverAll } from '../write/recover';
import { main } from '../../cli/main';
import type { Io } from '../../cli/io';
import { applyRecordActions, commitRecordPlan, planRecordActions, previewRecordActions } from './apply';
import { EXPIRED_FILE, READ_ONLY_FILE, testLinesAdapter, testReadOnlyAdapter } from './test-adapter';

const STORE = 'team.memory.jsonl';
// CRLF lines, a comment line, a line without a final newline: every byte outside the edited lines must survive.
const TEAM = `${[
  '# decisions the team agreed on (made-up data)',
  '{"id":"deploy","status":"active","text":"Deploys go through staging at 10.0.0.5 first."}',
  '{"id":"owner","status":"active","text":"The on-call owner is the platform team."}',
  '{"id":"proxy","status":"quarantined","text":"The proxy forwards port 8443."}',
].join('\r\n')}\r\n{"id":"backups","status":"verified","text":"Backups run nightly."}`;
const SOLO = '{"id":"solo","status":"active","text":"A record alone in its file."}\n';

let unregister: (() => void)[] = [];
beforeAll(() => {
  unregister = [registerForTests(testLinesAdapter), registerForTests(testReadOnlyAdapter)];
});
afterAll(() => {
  for (const u of unregister) u();
});

const boxes: Sandbox[] = [];
afterEach(() => {
  for (const sb of boxes.splice(0)) {
    closeDb(sb.db);
    fs.rmSync(sb.tmp, { recursive: true, force: true });
  }
});

function store(files: Record<string, string> = { [STORE]: TEAM, 'solo.memory.jsonl': SOLO }): {
  sb: Sandbox;
  ctx: ServiceContext;
} {
  const sb = sandbox('memtrust-records-');
  boxes.push(sb);
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(sb.root, rel), text);
  const ctx = createContext(loadConfig({ env: sb.env }), sb.env);
  return { sb, ctx };
}

const read = (sb: Sandbox, rel: string) => fs.readFileSync(path.join(sb.root, rel), 'utf8');
const lines = (s: string) => s.split('\n');

describe('applyRecordActions', () => {
  it('a line-range edit changes that line only, as one audited batch', () => {
    const { sb, ctx } = store();
    expect(ctx.recordSources).toHaveLength(1);
    const r = applyRecordActions(ctx, [{ id: 'owner', action: 'demote', reason: 'the team changed' }], {
      actor: 'user:cli',
    });
    expect(r).toMatchObject({ ok: true, done: 1 });
    const after = read(sb, STORE);
    const before = lines(TEAM);
    const now = lines(after);
    expect(now).toHaveLength(before.length);
    for (const [i, l] of now.entries()) {
      if (i === 2)
        expect(l).toBe('{"id":"owner","status":"quarantined","text":"The on-call owner is the platform team."}\r');
      else expect(l).toBe(before[i]);
    }
    expect(read(sb, 'solo.memory.jsonl')).toBe(SOLO);
    const events = readAudit(sb.root);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'demote',
      memory: 'owner',
      key: 'owner',
      layout: 'consolidation',
      record_action: 'demote',
      from: 'inferred',
      to: 'quarantined',
      reason: 'the team changed',
      memo: { file: STORE, line: 3, status: 'active' },
      batch: r.ok ? r.batch : '',
    });
    // Nothing temporary or pending is left.
    expect(fs.readdirSync(path.join(sb.root, '.memtrust', 'journal'))).toEqual([]);
    expect(Object.keys(treeFiles(sb.root, [])).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('two records of one file in one batch: both edits land, one batch id, one event each; undo puts the bytes back', () => {
    const { sb, ctx } = store();
    const before = treeFiles(sb.root);
    const r = applyRecordActions(
      ctx,
      [
        { id: 'deploy', action: 'promote' },
        { id: 'backups', action: 'archive' },
      ],
      { actor: 'user:cli' },
    );
    expect(r).toMatchObject({ ok: true, done: 2 });
    const now = lines(read(sb, STORE));
    expect(now[1]).toContain('"status":"verified"');
    expect(now[4]).toBe('{"id":"backups","status":"archived","text":"Backups run nightly."}');
    const events = readAudit(sb.root);
    expect(events.map((e) => e.key)).toEqual(['deploy', 'backups']);
    expect(new Set(events.map((e) => e.batch)).size).toBe(1);
    const u = undoBatch(ctx, r.ok ? r.batch : '', 'user:cli');
    expect(u).toMatchObject({ ok: true, noop: false });
    expect(treeFiles(sb.root)).toEqual(before);
    expect(read(sb, STORE)).toBe(TEAM);
    // Undo is a batch of its own, with one undo event per step, and can itself be undone.
    const undoEvents = readAudit(sb.root).slice(2);
    expect(undoEvents.map((e) => [e.action, e.key])).toEqual([
      ['undo', 'deploy'],
      ['undo', 'backups'],
    ]);
    expect(undoBatch(ctx, r.ok ? r.batch : '', 'user:cli')).toMatchObject({ ok: true, noop: true });
    const again = undoBatch(ctx, u.ok && u.outcome ? u.outcome.batch : '', 'user:cli');
    expect(again).toMatchObject({ ok: true, noop: false });
    expect(lines(read(sb, STORE))[1]).toContain('"status":"verified"');
  });

  it('an edit that removes lines shifts the later record of the same file (expire, then demote below it)', () => {
    const { sb, ctx } = store();
    const r = applyRecordActions(
      ctx,
      [
        { id: 'deploy', action: 'expire' },
        { id: 'proxy', action: 'restore' },
      ],
      { actor: 'user:cli' },
    );
    expect(r).toMatchObject({ ok: true, done: 2 });
    const now = lines(read(sb, STORE));
    expect(now).toHaveLength(4);
    expect(now[2]).toBe('{"id":"proxy","status":"active","text":"The proxy forwards port 8443."}\r');
    expect(read(sb, EXPIRED_FILE)).toBe(`${lines(TEAM)[1]!.replace(/\r$/, '')}\n`);
    const before = { [STORE]: TEAM };
    expect(undoBatch(ctx, r.ok ? r.batch : '', 'user:cli')).toMatchObject({ ok: true });
    expect(read(sb, STORE)).toBe(before[STORE]);
    expect(fs.existsSync(path.join(sb.root, EXPIRED_FILE))).toBe(false);
  });

  it('a move (shelve) goes src → dst through the same path, and back on undo', () => {
    const { sb, ctx } = store();
    const r = applyRecordActions(ctx, [{ id: 'solo', action: 'shelve' }], { actor: 'user:cli' });
    expect(r).toMatchObject({ ok: true });
    expect(fs.existsSync(path.join(sb.root, 'solo.memory.jsonl'))).toBe(false);
    expect(read(sb, 'shelf/solo.memory.jsonl')).toContain('"status":"shelved"');
    undoBatch(ctx, r.ok ? r.batch : '', 'user:cli');
    expect(read(sb, 'solo.memory.jsonl')).toBe(SOLO);
    expect(fs.existsSync(path.join(sb.root, 'shelf/solo.memory.jsonl'))).toBe(false);
  });

  it('undo is refused as a conflict when a file changed since the batch; nothing is touched', () => {
    const { sb, ctx } = store();
    const r = applyRecordActions(ctx, [{ id: 'deploy', action: 'expire' }], { actor: 'user:cli' });
    expect(r.ok).toBe(true);
    fs.appendFileSync(path.join(sb.root, EXPIRED_FILE), '{"id":"later","status":"active","text":"added by hand"}\n');
    const before = treeFiles(sb.root);
    const u = undoBatch(ctx, r.ok ? r.batch : '', 'user:cli');
    expect(u).toMatchObject({ ok: false, code: 'conflict' });
    expect(u.ok ? '' : u.message).toContain(EXPIRED_FILE);
    expect(treeFiles(sb.root)).toEqual(before);
  });

  it('an unknown verb names the layout and what the record allows', () => {
    const { ctx } = store();
    const r = applyRecordActions(ctx, [{ id: 'owner', action: 'close' }], { actor: 'user:cli' });
    expect(r).toMatchObject({ ok: false, code: 'refused' });
    expect(r.ok ? '' : r.message).toMatch(/consolidation layout has no action close; allowed now: promote, demote/);
  });

  it('a file changed since the plan is refused as a conflict, nothing written', () => {
    const { sb, ctx } = store();
    const p = planRecordActions(ctx, [
      { id: 'owner', action: 'demote' },
      { id: 'solo', action: 'archive' },
    ]);
    expect(p.ok).toBe(true);
    const edited = TEAM.replace('platform team', 'platform team (edited by hand)');
    fs.writeFileSync(path.join(sb.root, STORE), edited);
    const before = treeFiles(sb.root);
    const r = commitRecordPlan(ctx, (p as Extract<typeof p, { ok: true }>).planned, { actor: 'user:cli' });
    expect(r).toMatchObject({ ok: false, code: 'conflict' });
    expect(r.ok ? '' : r.message).toContain(STORE);
    expect(treeFiles(sb.root)).toEqual(before);
    expect(readAudit(sb.root)).toEqual([]);
  });

  it('refuses an action the record does not allow with its reason, and an unknown id', () => {
    const { sb, ctx } = store();
    const r = applyRecordActions(ctx, [{ id: 'proxy', action: 'demote' }], { actor: 'user:cli' });
    expect(r).toMatchObject({ ok: false, code: 'refused' });
    expect(r.ok ? '' : r.message).toMatch(/already quarantined.*allowed now: promote/);
    expect(applyRecordActions(ctx, [{ id: 'nope', action: 'demote' }], { actor: 'user:cli' })).toMatchObject({
      ok: false,
      code: 'not-found',
    });
    expect(fs.existsSync(path.join(sb.root, '.memtrust'))).toBe(false);
  });

  it('a read-only layout is refused with the owning tool’s command; nothing on disk changes', () => {
    const { sb, ctx } = store({ [READ_ONLY_FILE]: 'k1 active\nk2 active\n' });
    const before = treeFiles(sb.root, []);
    const r = applyRecordActions(ctx, [{ id: 'k1', action: 'demote' }], { actor: 'user:cli' });
    expect(r).toMatchObject({ ok: false, code: 'read-only', command: 'testtool demote k1' });
    expect(r.ok ? '' : r.message).toMatch(/governed layout\) is read-only.*testtool demote k1/);
    expect(treeFiles(sb.root, [])).toEqual(before);
  });

  it('preview shows each file before and after and writes nothing', () => {
    const { sb, ctx } = store();
    const before = treeFiles(sb.root, []);
    const p = previewRecordActions(ctx, [{ id: 'deploy', action: 'expire' }]);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.files.map((f) => f.file).sort()).toEqual([EXPIRED_FILE, STORE].sort());
    expect(p.files.find((f) => f.file === STORE)!.before).toBe(TEAM);
    expect(treeFiles(sb.root, [])).toEqual(before);
  });

  it('a kill between the two files of one step is finished by recovery (no half-moved record)', async () => {
    const { sb, ctx } = store();
    const { armFaults, disarmFaults, isKill } = await import('../write/crash');
    armFaults(null, { trace: true });
    const ref = store();
    applyRecordActions(ref.ctx, [{ id: 'deploy', action: 'expire' }], { actor: 'user:cli' });
    const points = disarmFaults().trace;
    // Right after the first file's change is committed and its intent cleared, before the second file.
    const cleared = points
      .map((l, i) => (/^unlink journal\/.*-f1\.json$/.test(l) ? i + 1 : 0))
      .filter(Boolean)
      .pop()!;
    expect(cleared).toBeGreaterThan(0);
    armFaults({ at: cleared, kill: true });
    try {
      applyRecordActions(ctx, [{ id: 'deploy', action: 'expire' }], { actor: 'user:cli' });
    } catch (e) {
      if (!isKill(e)) throw e;
    } finally {
      disarmFaults();
    }
    closeDb(sb.db);
    const ctx2 = createContext(loadConfig({ env: sb.env }), sb.env);
    const rec = recoverAll(ctx2);
    expect(rec.map((x) => x.outcome)).toEqual(['rolled-forward']);
    expect(read(sb, STORE)).toBe(read(ref.sb, STORE));
    expect(read(sb, EXPIRED_FILE)).toBe(read(ref.sb, EXPIRED_FILE));
    expect(readAudit(sb.root)).toHaveLength(1);
  });
});

describe('the CLI on record roots', () => {
  function cli(sb: Sandbox, argv: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => err.push(s), isTTY: false } as unknown as Io;
    const saved = { ...process.env };
    Object.assign(process.env, sb.env);
    return main(argv, io).then((code) => {
      process.env = saved;
      closeDb(sb.db);
      return { code, out: out.join('\n'), err: err.join('\n') };
    });
  }

  it('demote RECORD, resolve KEEP --expire OTHER, record-action ID VERB, undo BATCH', async () => {
    const { sb } = store();
    const d = await cli(sb, ['demote', 'owner', '--reason', 'stale']);
    expect(d.code, d.err).toBe(0);
    expect(d.out).toMatch(/undo it with: memtrust undo (b\S+)/);
    expect(lines(read(sb, STORE))[2]).toContain('"status":"quarantined"');
    const rs = await cli(sb, ['resolve', 'owner', '--expire', 'deploy', '--reason', 'contradiction']);
    expect(rs.code, rs.err).toBe(0);
    const now = lines(read(sb, STORE));
    expect(now[1]).toContain('"status":"archived"');
    expect(now[2]).toContain('"status":"active"');
    const batch = /memtrust undo (\S+)/.exec(rs.out)![1]!;
    expect(
      readAudit(sb.root)
        .filter((e) => e.batch === batch)
        .map((e) => e.key),
    ).toEqual(['owner', 'deploy']);
    const ra = await cli(sb, ['record-action', 'solo', 'shelve', '--json']);
    expect(ra.code, ra.err).toBe(0);
    expect(JSON.parse(ra.out)).toMatchObject({ ok: true, done: 1 });
    const u = await cli(sb, ['undo', batch]);
    expect(u.code, u.err).toBe(0);
    expect(lines(read(sb, STORE))[2]).toContain('"status":"quarantined"');
  });

  it('a read-only layout: exit 2 and the owner’s command printed', async () => {
    const { sb } = store({ [READ_ONLY_FILE]: 'k1 active\n' });
    const r = await cli(sb, ['archive', 'k1']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('read-only');
    expect(r.err).toMatch(/^ {2}testtool archive k1$/m);
  });
});
