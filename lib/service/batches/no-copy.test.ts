/**
 * No copy anywhere (CONTRACT §2.5; docs/batches.md "Where the copies live", "Copies that
 * held a removed credential", "Expiry"): undo copies live in the data directory (0600 /
 * 0700), a credential removed from a memory — by repair or by hand — leaves no copy in
 * any file memtrust owns, undo of such a batch is refused with the reason, old batches
 * expire, and a store inside a git checkout gets nothing of memtrust's in its work tree.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataDir, loadConfig } from '../../core/config';
import { createContext, type ServiceContext } from '../context';
import { scan } from '../index/scan-service';
import { armFaults, disarmFaults, isKill } from '../write/crash';
import { recoverAll } from '../write/recover';
import { repairAndRestore, repairModel } from '../write/repair';
import { transitionAsBatch as transition } from '../write/transition-batch';
import { forgetPlaces, rootDataDir, rootKey } from '../meta/places';
import { batchesHome, readManifest } from './batch-store';
import { undoBatch } from './undo';
import {
  FAKE_TOKEN,
  NOW,
  closeCtx,
  envFor,
  memoryFile,
  put,
  removeSandbox,
  runCli,
  sandbox,
  type Sandbox,
} from '../test-support';

const TOKEN = FAKE_TOKEN;
/** The batch ids of the root's trail, in order (the trail is read independently of the code under test). */
const readAuditIds = (s: Sandbox) =>
  fs
    .readFileSync(path.join(s.root, '.memtrust', 'audit', 'test-machine.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { batch: string }).batch);
let sb: Sandbox | null = null;
afterEach(() => {
  disarmFaults();
  if (sb) removeSandbox(sb);
  sb = null;
});

const trustFields = (tier: string, extra: [string, string][] = []): [string, string][] => [
  ['name', 'CI token'],
  ['description', 'how the CI bot logs in'],
  ['type', 'reference'],
  ['source-machine', 'box'],
  ['trust-level', tier],
  ['created-at', '2026-01-01T00:00:00Z'],
  ...extra,
];
const QUARANTINED: [string, string][] = [
  ['last-verified', '2026-11-10'],
  ['quarantined-at', '2026-11-10T09:00:00Z'],
  ['quarantined-by', 'box'],
  ['quarantine-reason', 'holds a token'],
];
const BODY = `\nThe CI bot logs in with ${TOKEN} until it is rotated.\n\nKeep the build green.\n`;

function open(s: Sandbox, extra: Record<string, string> = {}): ServiceContext {
  const env = { ...s.env, ...extra };
  const ctx = createContext(loadConfig({ env }), env);
  scan(ctx);
  return ctx;
}

/** Every file under `dir` (recursively) whose bytes hold `needle`, skipping `skip` paths. */
function filesHolding(dir: string, needle: string, skip: (p: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (skip(p)) continue;
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.readFileSync(p).includes(Buffer.from(needle))) out.push(p);
    }
  };
  walk(dir);
  return out;
}

const allFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? [p, ...allFiles(p)] : [p];
  });

describe('undo copies', () => {
  it('live in the data directory, keyed by root, files 0600 and folders 0700; nothing in the root', () => {
    sb = sandbox('memtrust-nocopy-');
    put(sb.root, 'memories/reference_ci.md', memoryFile(trustFields('inferred'), BODY));
    const ctx = open(sb);
    const r = transition(ctx, { ref: 'reference_ci.md', action: 'demote', reason: 'holds a token', actor: 'user:cli' });
    expect(r).toMatchObject({ ok: true, to: 'quarantined' });
    const home = batchesHome(sb.root);
    expect(home).toBe(path.join(dataDir(sb.env), 'roots', rootKey(sb.root), 'batches'));
    expect(fs.readdirSync(home)).toEqual([r.ok ? r.op : '']);
    expect(fs.existsSync(path.join(sb.root, '.memtrust', 'batches'))).toBe(false);
    for (const p of allFiles(home)) {
      const mode = fs.statSync(p).mode & 0o777;
      if (fs.statSync(p).isDirectory()) expect(mode, p).toBe(0o700);
      else if (p.includes(`${path.sep}blobs${path.sep}`)) expect(mode, p).toBe(0o600);
    }
    expect(fs.statSync(home).mode & 0o777).toBe(0o700);
    closeCtx(sb);
  });

  it('an earlier version’s batch inside the root is still undone where it is', () => {
    sb = sandbox('memtrust-nocopy-legacy-');
    put(sb.root, 'memories/reference_notes.md', memoryFile(trustFields('inferred'), '\nPlain notes, no secret.\n'));
    const before = fs.readFileSync(path.join(sb.root, 'memories/reference_notes.md'));
    const ctx = open(sb);
    const r = transition(ctx, { ref: 'reference_notes.md', action: 'demote', reason: 'old', actor: 'user:cli' });
    if (!r.ok) throw new Error(r.message);
    // As an earlier version left it: the batch folder inside the root.
    const legacy = path.join(sb.root, '.memtrust', 'batches', r.op);
    fs.mkdirSync(path.dirname(legacy), { recursive: true });
    fs.renameSync(path.join(batchesHome(sb.root), r.op), legacy);
    const u = undoBatch(ctx, r.op, 'user:cli');
    expect(u, u.ok ? '' : u.message).toMatchObject({ ok: true, noop: false });
    expect(fs.readFileSync(path.join(sb.root, 'memories/reference_notes.md')).equals(before)).toBe(true);
    closeCtx(sb);
  });
});

describe('a credential removed leaves no copy', () => {
  it('repair removes the value; it is then in no file under the data directory, the index or .memtrust; undo refuses', () => {
    sb = sandbox('memtrust-nocopy-repair-');
    const bytes = memoryFile(trustFields('quarantined', QUARANTINED), BODY);
    put(sb.root, 'quarantine/reference_ci.md', bytes);
    const ctx = open(sb);
    const ref = { source: ctx.sources[0]!.id, filename: 'reference_ci.md' };
    const m = repairModel(ctx, ref);
    if (!m.ok) throw new Error(m.message);
    const redactions = Object.fromEntries(m.model.values.map((v) => [v.key, 'remove' as const]));
    const r = repairAndRestore(ctx, ref, { redactions }, m.model.sha256, 'repair-1');
    expect(r).toMatchObject({ ok: true, to: 'verified' });
    const text = fs.readFileSync(path.join(sb.root, 'memories/reference_ci.md'), 'utf8');
    expect(text).toContain('logs in with <redacted></redacted> until');
    scan(ctx);
    ctx.handle.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    // Every byte of the sandbox: data directory, SQLite (and its WAL), the root's .memtrust.
    const memoryFiles = new Set([path.join(sb.root, 'memories'), path.join(sb.root, 'quarantine')]);
    expect(filesHolding(sb.tmp, TOKEN, (p) => memoryFiles.has(p))).toEqual([]);
    const manifest = readManifest(sb.root, 'repair-1')!;
    expect(manifest.purged).toMatchObject([{ memory: 'reference_ci.md', why: 'credential-removed' }]);
    const u = undoBatch(ctx, 'repair-1', 'user:web');
    expect(u).toMatchObject({ ok: false, code: 'purged' });
    expect(u.ok ? '' : u.message).toContain('held a credential that was removed from the memory; it was purged');
    expect(fs.readFileSync(path.join(sb.root, 'memories/reference_ci.md'), 'utf8')).toBe(text);
    closeCtx(sb);
  });

  it('a value removed by hand is found at the next scan: the copies holding it are purged and undo says why (CLI)', () => {
    sb = sandbox('memtrust-nocopy-hand-');
    put(sb.root, 'memories/reference_ci.md', memoryFile(trustFields('inferred'), BODY));
    put(sb.root, 'memories/reference_notes.md', memoryFile(trustFields('inferred'), '\nNo secret here.\n'));
    let ctx = open(sb);
    const d = transition(ctx, { ref: 'reference_ci.md', action: 'demote', reason: 'holds a token', actor: 'user:cli' });
    const keep = transition(ctx, { ref: 'reference_notes.md', action: 'demote', reason: 'old', actor: 'user:cli' });
    if (!d.ok || !keep.ok) throw new Error('demote failed');
    const blobs = path.join(batchesHome(sb.root), d.op, 'blobs');
    expect(fs.readdirSync(blobs)).toHaveLength(1);
    // A rescan with the token still in the memory keeps the copy.
    scan(ctx);
    expect(fs.readdirSync(blobs)).toHaveLength(1);
    // The file rewritten outside memtrust, without the token.
    const file = path.join(sb.root, 'quarantine/reference_ci.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(TOKEN, '(rotated)'));
    closeCtx(sb);
    ctx = open(sb); // its start-up scan sees the change
    expect(fs.readdirSync(blobs)).toEqual([]);
    expect(filesHolding(dataDir(sb.env), TOKEN, () => false)).toEqual([]);
    expect(readManifest(sb.root, d.op)!.purged).toHaveLength(1);
    // The other batch held no credential: untouched, still undoable.
    expect(readManifest(sb.root, keep.op)!.purged).toBeUndefined();
    closeCtx(sb);
    const u = runCli(['undo', d.op], sb.env);
    expect(u.status).toBe(2);
    expect(u.stderr).toContain('held a credential that was removed from the memory; it was purged');
    expect(runCli(['undo', keep.op], sb.env).status).toBe(0);
  });
});

describe('expiry', () => {
  it('after undoRetentionDays the copies are deleted and undo says the batch expired; the setting extends it', () => {
    sb = sandbox('memtrust-nocopy-expiry-');
    put(sb.root, 'memories/reference_a.md', memoryFile(trustFields('inferred'), '\nFirst.\n'));
    put(sb.root, 'memories/reference_b.md', memoryFile(trustFields('inferred'), '\nSecond.\n'));
    const ctx = open(sb);
    const a = transition(ctx, { ref: 'reference_a.md', action: 'demote', reason: 'x', actor: 'user:cli' });
    const b = transition(ctx, { ref: 'reference_b.md', action: 'demote', reason: 'x', actor: 'user:cli' });
    if (!a.ok || !b.ok) throw new Error('demote failed');
    closeCtx(sb);
    const later = new Date(Date.parse(NOW) + 31 * 86_400_000).toISOString();
    // With a 60-day setting, 31 days later the batch is still undoable.
    fs.mkdirSync(path.join(sb.tmp, 'cfg', 'memtrust'), { recursive: true });
    fs.writeFileSync(path.join(sb.tmp, 'cfg', 'memtrust', 'settings.json'), '{"undoRetentionDays": 60}');
    let c = open(sb, { MEMTRUST_NOW: later });
    expect(undoBatch(c, a.op, 'user:cli')).toMatchObject({ ok: true, noop: false });
    closeCtx(sb);
    // The default, 30 days: the other batch expired.
    fs.rmSync(path.join(sb.tmp, 'cfg', 'memtrust', 'settings.json'));
    c = open(sb, { MEMTRUST_NOW: later });
    const u = undoBatch(c, b.op, 'user:cli');
    expect(u).toMatchObject({ ok: false, code: 'expired' });
    expect(u.ok ? '' : u.message).toContain('older than 30 days');
    expect(fs.existsSync(path.join(batchesHome(sb.root), b.op, 'blobs'))).toBe(false);
    expect(readManifest(sb.root, b.op)!.expired).toBeTruthy();
    closeCtx(sb);
  });
});

/** A project checkout with a Claude Code memory folder committed in it. */
function gitStore(): Sandbox {
  const s = sandbox('memtrust-nocopy-git-');
  const proj = path.join(s.tmp, 'proj');
  const root = path.join(proj, 'memory');
  fs.mkdirSync(root, { recursive: true });
  const fm = (name: string, type: string) => `---\nname: ${name}\ndescription: ${name} notes\ntype: ${type}\n---\n`;
  put(root, 'feedback_tests.md', `${fm('Tests', 'feedback')}\nRun the tests before merging.\n`);
  put(root, 'reference_ci.md', `${fm('CI', 'reference')}${BODY}`);
  put(
    root,
    'MEMORY.md',
    '# Memory index\n\n- [Tests](feedback_tests.md) — run them first\n- [CI](reference_ci.md) — the CI login\n',
  );
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
      cwd: proj,
      encoding: 'utf8',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'init');
  return { ...s, root, env: envFor(root, s.db, s.tmp) };
}

const porcelain = (s: Sandbox) =>
  execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
    cwd: path.dirname(s.root),
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);

/** Each line of `git status` names a memory file (a Markdown file of the store, never under .memtrust). */
const onlyMemoryFiles = (lines: string[]) =>
  lines.filter((l) => !/^.. memory\/(quarantine\/)?[a-z_]+\.md( -> memory\/(quarantine\/)?[a-z_]+\.md)?$/i.test(l));

describe('a store inside a git checkout', () => {
  it('transition, undo and repair leave only memory files in git status; audit, journal and copies are in the data directory', () => {
    sb = gitStore();
    const ctx = open(sb);
    expect(porcelain(sb)).toEqual([]);
    const d = transition(ctx, { ref: 'feedback_tests.md', action: 'demote', reason: 'old', actor: 'user:cli' });
    if (!d.ok) throw new Error(d.message);
    expect(porcelain(sb).length).toBeGreaterThan(0);
    expect(onlyMemoryFiles(porcelain(sb))).toEqual([]);
    expect(undoBatch(ctx, d.op, 'user:cli')).toMatchObject({ ok: true });
    expect(onlyMemoryFiles(porcelain(sb))).toEqual([]);
    const c = transition(ctx, { ref: 'reference_ci.md', action: 'demote', reason: 'holds a token', actor: 'user:cli' });
    if (!c.ok) throw new Error(c.message);
    const ref = { source: ctx.sources[0]!.id, filename: 'reference_ci.md' };
    const m = repairModel(ctx, ref);
    if (!m.ok) throw new Error(m.message);
    const redactions = Object.fromEntries(m.model.values.map((v) => [v.key, 'remove' as const]));
    expect(repairAndRestore(ctx, ref, { redactions }, m.model.sha256)).toMatchObject({ ok: true });
    scan(ctx);
    expect(onlyMemoryFiles(porcelain(sb))).toEqual([]);
    expect(fs.existsSync(path.join(sb.root, '.memtrust'))).toBe(false);
    const home = rootDataDir(sb.root);
    expect(fs.statSync(home).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(path.join(home, 'audit'))).toEqual(['test-machine.jsonl']);
    expect(fs.readdirSync(path.join(home, 'journal'))).toEqual([]);
    // The demote's copy held the token the repair removed: purged, and its undo says so.
    expect(undoBatch(ctx, c.op, 'user:cli')).toMatchObject({ ok: false, code: 'purged' });
    closeCtx(sb);
  });

  it('a transition killed at any step is recovered from the journal in the data directory', () => {
    const probe = gitStore();
    let ctx = open(probe);
    armFaults(null);
    expect(transition(ctx, { ref: 'feedback_tests.md', action: 'demote', reason: 'x', actor: 'user:cli' }).ok).toBe(
      true,
    );
    const points = disarmFaults().calls;
    removeSandbox(probe);
    expect(points).toBeGreaterThan(5);
    const journal = (s: Sandbox) => {
      try {
        return fs.readdirSync(path.join(rootDataDir(s.root), 'journal'));
      } catch {
        return [];
      }
    };
    let pending = 0;
    // Five points spread over the whole write (the fault suite covers every point of every kind).
    const sample = [...new Set(Array.from({ length: 5 }, (_, i) => 1 + Math.round((i * (points - 1)) / 4)))];
    for (const at of sample) {
      const live = gitStore();
      sb = live;
      ctx = open(live);
      armFaults({ at, kill: true });
      try {
        transition(ctx, { ref: 'feedback_tests.md', action: 'demote', reason: 'x', actor: 'user:cli' });
      } catch (e) {
        if (!isKill(e)) throw e;
      }
      disarmFaults();
      if (journal(live).length > 0) pending++;
      const out = recoverAll(ctx);
      expect(
        out.every((o) => o.outcome !== 'conflict'),
        `point ${at}`,
      ).toBe(true);
      const here = ['feedback_tests.md', 'quarantine/feedback_tests.md'].filter((f) =>
        fs.existsSync(path.join(live.root, f)),
      );
      expect(here, `point ${at}`).toHaveLength(1);
      expect(journal(live), `point ${at}`).toEqual([]);
      expect(onlyMemoryFiles(porcelain(live)), `point ${at}`).toEqual([]);
      removeSandbox(live);
      sb = null;
    }
    // Most kills left an intent, in the data directory, for recovery to act on.
    expect(pending).toBeGreaterThan(sample.length / 4);
  }, 120_000);
});

describe('an earlier version’s files inside a store that is in a git checkout', () => {
  it('an intent left in <root>/.memtrust/journal/ is still recovered, and its trail still read', () => {
    // A Claude Code folder, first used outside git: memtrust's files went into the root.
    sb = sandbox('memtrust-nocopy-migrate-');
    const fm = '---\nname: Tests\ndescription: run them first\ntype: feedback\n---\n';
    put(sb.root, 'feedback_tests.md', `${fm}\nRun the tests before merging.\n`);
    put(sb.root, 'MEMORY.md', '# Memory index\n\n- [Tests](feedback_tests.md) — run them first\n');
    let ctx = open(sb);
    const first = transition(ctx, { ref: 'feedback_tests.md', action: 'demote', reason: 'x', actor: 'user:cli' });
    if (!first.ok) throw new Error(first.message);
    expect(undoBatch(ctx, first.op, 'user:cli')).toMatchObject({ ok: true });
    armFaults(null, { trace: true });
    transition(ctx, { ref: 'feedback_tests.md', action: 'demote', reason: 'x', actor: 'user:cli' });
    const labels = disarmFaults().trace;
    expect(undoBatch(ctx, labels.length ? readAuditIds(sb).pop()! : '', 'user:cli')).toMatchObject({ ok: true });
    // Killed right after the link: the intent is in the root's journal.
    const at = labels.findIndex((l) => /^link .*\.tmp -> .*\/feedback_tests\.md$/.test(l)) + 1;
    expect(at).toBeGreaterThan(0);
    armFaults({ at, kill: true });
    try {
      transition(ctx, { ref: 'feedback_tests.md', action: 'demote', reason: 'y', actor: 'user:cli' });
    } catch (e) {
      if (!isKill(e)) throw e;
    }
    disarmFaults();
    closeCtx(sb);
    expect(fs.readdirSync(path.join(sb.root, '.memtrust', 'journal'))).toHaveLength(1);
    // Now the folder is in a git checkout: memtrust's own files go to the data directory.
    execFileSync('git', ['init', '-q'], { cwd: sb.tmp });
    forgetPlaces();
    ctx = open(sb);
    expect(rootDataDir(sb.root)).not.toBe(path.join(sb.root, '.memtrust'));
    expect(fs.readdirSync(path.join(sb.root, '.memtrust', 'journal'))).toEqual([]);
    const here = ['feedback_tests.md', 'quarantine/feedback_tests.md'].filter((f) =>
      fs.existsSync(path.join(sb!.root, f)),
    );
    expect(here).toHaveLength(1);
    // The earlier trail (in the root) and the new one (data directory) are both history.
    const actions = (
      ctx.handle.sqlite.prepare('SELECT action FROM audit_events ORDER BY at, id').all() as { action: string }[]
    ).map((r) => r.action);
    expect(actions.filter((a) => a === 'undo')).toHaveLength(2);
    // Recovery finished the killed demote: its event went to the trail's new place.
    const moved = fs
      .readFileSync(path.join(rootDataDir(sb.root), 'audit', 'test-machine.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(moved.map((l) => JSON.parse(l))).toMatchObject([{ action: 'demote', recovered: true }]);
    expect(here).toEqual(['quarantine/feedback_tests.md']);
    closeCtx(sb);
  });
});

describe('a trust-model root inside a git checkout', () => {
  it('keeps its audit trail in .memtrust/audit/ for git to carry; its .gitignore keeps everything else out', () => {
    sb = sandbox('memtrust-nocopy-trustgit-');
    put(sb.root, 'memories/reference_notes.md', memoryFile(trustFields('inferred'), '\nPlain notes.\n'));
    execFileSync('git', ['init', '-q'], { cwd: sb.root });
    const ctx = open(sb);
    const d = transition(ctx, { ref: 'reference_notes.md', action: 'demote', reason: 'old', actor: 'user:cli' });
    if (!d.ok) throw new Error(d.message);
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: sb.root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(3))
      .sort();
    expect(status).toEqual([
      '.memtrust/.gitignore',
      '.memtrust/audit/test-machine.jsonl',
      'quarantine/reference_notes.md',
    ]);
    // What stays in the root but is memtrust's own working state is ignored (the lock, the journal, a notes log).
    fs.mkdirSync(path.join(sb.root, '.memtrust', 'journal'), { recursive: true });
    for (const f of ['lock.test-machine', 'journal/x.json', 'audit/test-machine.notes.log', 'index-lines.json'])
      fs.writeFileSync(path.join(sb.root, '.memtrust', f), '{}');
    const ignored = execFileSync(
      'git',
      [
        'check-ignore',
        '.memtrust/lock.test-machine',
        '.memtrust/journal/x.json',
        '.memtrust/audit/test-machine.notes.log',
        '.memtrust/index-lines.json',
      ],
      { cwd: sb.root, encoding: 'utf8' },
    );
    expect(ignored.split('\n').filter(Boolean)).toHaveLength(4);
    closeCtx(sb);
  });
});
