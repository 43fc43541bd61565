/**
 * The file layouts read through their LayoutAdapter give the index's answer (docs/records.md,
 * "File layouts"): on a trust-model root (memories/, quarantine/, archive/, a stale verified
 * memory, conflicts, a symlink, a credential) and a Claude Code folder with MEMORY.md,
 * `adapter.read` lists the same ids, files, tiers, native states, flags and actions as
 * `list --json`, the same counts per tier and queue as the inbox query, and reading changes
 * no file, no row and no audit event.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config';
import { closeDb } from '../../../db/client';
import { listInbox } from '../../../db/queries/inbox';
import { runList } from '../../cli/commands/list-cmd';
import type { Io } from '../../cli/io';
import { writeContractFixture as writeTrustRoot } from '../../sources/trust-root/test-fixtures';
import { writeContractFixture as writeClaudeFolder } from '../../sources/claude-code/test-fixtures';
import type { LayoutRecord } from '../../sources/record';
import { createContext, type ServiceContext } from '../context';
import { scan } from './scan-service';

const NOW = '2026-11-23T12:00:00Z';
/** Token-shaped fake built at run time, so no secret-looking literal sits in the repository. */
const FAKE_TOKEN = ['ghp', 'Fake0Token1Value2For3Tests4Only5xyzw'].join('_');

let tmp = '';
let ctx: ServiceContext;

function put(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/** Every file of both roots → sha256, and the index's memory rows and audit events. */
function state(): { files: Map<string, string>; rows: unknown[]; events: unknown[] } {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) files.set(p, crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
    }
  };
  for (const src of ctx.sources) walk(src.root);
  const sqlite = ctx.handle.sqlite;
  return {
    files,
    rows: sqlite.prepare('SELECT * FROM entries ORDER BY key').all(),
    events: sqlite.prepare('SELECT * FROM audit_events ORDER BY id').all(),
  };
}

function listJson(): { items: Record<string, unknown>[] } {
  let text = '';
  const io: Io = { out: (l) => (text += `${l}\n`), write: (t) => (text += t), err: () => {}, isTTY: false };
  expect(runList(ctx, { limit: 1_000_000, json: true }, io)).toBe(0);
  return JSON.parse(text) as { items: Record<string, unknown>[] };
}

const readAll = (): LayoutRecord[] =>
  ctx.sources.flatMap((s) => s.adapter.read(s.root, { sourceId: s.id, now: ctx.now(), owner: ctx.owner() }).records);

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-same-index-files-'));
  const trust = path.join(tmp, 'trust');
  const claude = path.join(tmp, 'claude', 'memory');
  writeTrustRoot(trust);
  writeClaudeFolder(claude);
  // Beside the contract fixtures: a stale verified memory, a conflict, a symlink and a credential.
  put(
    trust,
    'memories/feedback_old.md',
    '---\nname: Old rule\ndescription: stale\ntype: feedback\ntrust-level: verified\ncreated-at: 2026-01-01T09:00:00Z\nlast-verified: 2026-02-01T09:00:00Z\n---\nAn old rule.\n',
  );
  put(
    trust,
    'quarantine/project_release.md',
    '---\nname: Release day\ndescription: a second copy\ntype: project\ntrust-level: quarantined\nquarantined-at: 2026-11-21T09:00:00Z\n---\nA copy in quarantine.\n',
  );
  // A symlink (an error row) under a memory's name: a conflict too.
  fs.symlinkSync(path.join(trust, 'memories/feedback_merge.md'), path.join(trust, 'quarantine/feedback_merge.md'));
  put(
    claude,
    'reference_bot.md',
    `---\nname: Bot\ndescription: the bot\ntype: reference\n---\nThe bot token is ${FAKE_TOKEN}.\n`,
  );
  const env = {
    MEMTRUST_ROOT: [trust, claude].join(path.delimiter),
    MEMTRUST_DB: path.join(tmp, 'index.sqlite'),
    MEMTRUST_NOW: NOW,
    MEMTRUST_MACHINE: 'test-machine',
    OWNER_EMAILS: 'owner@example.com',
    XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
    XDG_DATA_HOME: path.join(tmp, 'data'),
  };
  ctx = createContext(loadConfig({ env }), env);
  scan(ctx);
});

afterAll(() => {
  closeDb(ctx.handle.path);
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('a file layout read as records is the index', () => {
  it('both roots are file sources, one of each layout', () => {
    expect(ctx.recordSources).toEqual([]);
    expect(ctx.sources.map((s) => [s.adapter.layout, !!s.adapter.files]).sort()).toEqual([
      ['claude-code', true],
      ['trust-root', true],
    ]);
  });

  it('the same ids, files, tiers, native states, flags and actions as `list --json`', () => {
    const records = readAll();
    const items = listJson().items;
    const fromRecords = records
      .map((r) => JSON.stringify([r.id, r.layout, r.location.file, r.tier, r.native, r.flags, r.actions]))
      .sort();
    const fromIndex = items
      .map((i) =>
        JSON.stringify([i.id, i.layout, (i.location as { file: string }).file, i.tier, i.native, i.flags, i.actions]),
      )
      .sort();
    expect(fromRecords).toEqual(fromIndex);
    // The fixture holds what the comparison must cover.
    expect(records).toHaveLength(14);
    const flagged = (f: string) => records.filter((r) => (r.flags as string[]).includes(f)).map((r) => r.location.file);
    expect(flagged('stale')).toEqual(['memories/feedback_old.md']);
    expect(flagged('conflict').sort()).toEqual([
      'memories/feedback_merge.md',
      'memories/project_release.md',
      'quarantine/feedback_merge.md',
      'quarantine/project_release.md',
    ]);
    expect(new Set(records.map((r) => r.tier))).toEqual(new Set(['verified', 'inferred', 'quarantined', 'archived']));
    expect(records.find((r) => r.location.file === 'quarantine/feedback_merge.md')?.actions).toEqual([]);
    expect(JSON.stringify(records)).not.toContain(FAKE_TOKEN);
  });

  it('the same counts per tier and per queue as the inbox query', () => {
    const records = readAll();
    const now = ctx.now();
    for (const s of ctx.sources) {
      const mine = records.filter((r) => r.id.startsWith(`${s.id}:`));
      const total = (q: Parameters<typeof listInbox>[1]) =>
        listInbox(ctx.handle.sqlite, { queue: 'any', source: s.id, limit: 1000, ...q }, now).total;
      expect(total({}), `${s.adapter.layout}: all`).toBe(mine.length);
      for (const tier of ['verified', 'inferred', 'quarantined', 'archived'] as const)
        expect(total({ tier }), `${s.adapter.layout}: ${tier}`).toBe(mine.filter((r) => r.tier === tier).length);
      expect(total({ queue: 'stale' }), `${s.adapter.layout}: stale`).toBe(
        mine.filter((r) => r.flags.includes('stale')).length,
      );
      expect(total({ queue: 'conflicts' }), `${s.adapter.layout}: conflicts`).toBe(
        mine.filter((r) => r.flags.includes('conflict')).length,
      );
    }
  });

  it('reading changes no file, no index row and no audit event; a rescan finds nothing new', () => {
    const before = state();
    readAll();
    expect(state()).toEqual(before);
    const stats = scan(ctx);
    expect([stats.read, stats.removed, stats.events]).toEqual([0, 0, 0]);
    expect(state()).toEqual(before);
  });

  it('changeToken moves with a file and stands still otherwise', () => {
    const s = ctx.sources.find((x) => x.adapter.layout === 'claude-code')!;
    const a = s.adapter.changeToken(s.root);
    expect(s.adapter.changeToken(s.root)).toBe(a);
    put(s.root, 'user_new.md', '---\nname: New\ndescription: new\ntype: user\n---\nNew.\n');
    expect(s.adapter.changeToken(s.root)).not.toBe(a);
    fs.rmSync(path.join(s.root, 'user_new.md'));
  });
});
