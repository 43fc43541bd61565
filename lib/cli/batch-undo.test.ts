/**
 * Batches and undo through the real CLI (docs/batches.md;
 * docs/batches.md), on a 30-file folder shaped like a real Claude Code folder:
 * the plan, the --yes threshold, undo byte for byte (MEMORY.md included), undo
 * conflicts, undo of undo, and undo after the SQLite cache is deleted.
 */
import { dataDir } from '../core/config';
import { rootKey } from '../service/meta/places';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeFolder } from '../service/fixtures/claude-folder';
import {
  memoryFile,
  put,
  readAudit,
  removeSandbox,
  runCli,
  sandbox,
  treeFiles,
  type Sandbox,
} from '../service/test-support';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox('memtrust-batch-');
  for (const [rel, bytes] of Object.entries(claudeFolder())) put(sb.root, rel, bytes);
});
afterEach(() => removeSandbox(sb));

const cli = (...args: string[]) => runCli(args, sb.env);
const batches = () => {
  try {
    return fs.readdirSync(path.join(dataDir(sb.env), 'roots', rootKey(sb.root), 'batches')).sort();
  } catch {
    return [];
  }
};
/** The batch id a CLI apply printed. */
const batchOf = (stdout: string) => /^batch (\S+): /m.exec(stdout)?.[1] ?? /as batch (\S+):/.exec(stdout)?.[1] ?? '';
const SECRETS = ['Hunter1-not-real', 'FAKEfake0001NOTAREALKEY', '192.168.10.5', '10.10.0.12'];

describe('the plan (dry run)', () => {
  it('lists each file, its masked findings and destination, grouped by kind and class; writes nothing', () => {
    const before = treeFiles(sb.root);
    const text = cli('audit');
    expect(text.status).toBe(0);
    const json = cli('audit', '--json');
    expect(json.status).toBe(0);
    const { plan } = JSON.parse(json.stdout);
    expect(plan.kind).toBe('audit');
    expect(plan.files.length).toBeGreaterThan(10);
    // Every credential file of the fixture is in the plan, going to quarantine/.
    for (const f of ['reference_db_1.md', 'reference_api_1.md', 'reference_db_6.md']) {
      expect(plan.files.find((x: { memory: string }) => x.memory === f)).toMatchObject({
        action: 'demote',
        to: 'quarantined',
        destination: `quarantine/${f}`,
        moves: true,
      });
    }
    const db1 = plan.files.find((x: { memory: string }) => x.memory === 'reference_db_1.md');
    expect(db1.findings).toContainEqual(
      expect.objectContaining({
        check: 'secret',
        code: 'secret.url-credentials',
        class: 'credential',
        line: expect.any(Number),
      }),
    );
    const homelab = plan.files.find((x: { memory: string }) => x.memory === 'reference_homelab.md');
    expect(homelab.findings.every((f: { class: string }) => f.class === 'personal')).toBe(true);
    // Groups: counts add up to the per-file findings, by code and class.
    const count = (code: string) =>
      plan.files
        .flatMap((f: { findings: { code: string }[] }) => f.findings)
        .filter((x: { code: string }) => x.code === code).length;
    const url = plan.groups.find((g: { code: string }) => g.code === 'secret.url-credentials');
    expect(url).toMatchObject({ class: 'credential', findings: count('secret.url-credentials'), files: 6 });
    expect(plan.groups.find((g: { code: string }) => g.code === 'secret.private-ip')).toMatchObject({
      class: 'personal',
      findings: count('secret.private-ip'),
    });
    expect(plan.confirm).toEqual({
      needed: true,
      count: plan.files.length,
      reason: expect.stringContaining(`${plan.files.length} files`),
    });
    // The text form says the same, masked.
    expect(text.stdout).toContain(`plan: demote to quarantine ${plan.files.length} files`);
    expect(text.stdout).toMatch(/credential +secret\.url-credentials +\d+ findings in 6 files/);
    expect(text.stdout).toMatch(/personal +secret\.private-ip/);
    expect(text.stdout).toContain('  reference_db_1.md  inferred → quarantined  (to quarantine/reference_db_1.md)');
    expect(text.stdout).toContain('Re-run with --apply --yes');
    for (const s of SECRETS) expect(text.stdout + json.stdout, s).not.toContain(s);
    expect(treeFiles(sb.root)).toEqual(before);
    expect(batches()).toEqual([]);
  });

  it('backfill shows its plan too: each file, its tier and what it writes', () => {
    const r = cli('backfill', '--json');
    expect(r.status).toBe(0);
    const { plan } = JSON.parse(r.stdout);
    expect(plan.kind).toBe('backfill');
    expect(plan.files.find((f: { memory: string }) => f.memory === 'feedback_commits.md')).toMatchObject({
      action: 'backfill',
      from: null,
      to: 'verified',
      moves: false,
      destination: 'feedback_commits.md',
    });
    expect(plan.destinations.reduce((n: number, d: { files: number }) => n + d.files, 0)).toBe(plan.files.length);
    // Files whose frontmatter cannot be rewritten are shown as skipped, with the way out, never planned.
    expect(plan.skipped).toContainEqual({
      file: 'project_broken_yaml.md',
      reason: expect.stringMatching(/^frontmatter cannot be rewritten .*fix it by hand/),
    });
    expect(plan.files.find((f: { memory: string }) => f.memory === 'project_no_frontmatter.md')).toBeUndefined();
    expect(cli('backfill').stdout).toMatch(/^plan: back-fill \d+ files/m);
  });
});

describe('confirmation above 10 files or a quarter of a root', () => {
  it('audit --apply without --yes is refused in one line, exit 2, nothing changed', () => {
    const before = treeFiles(sb.root);
    const r = cli('audit', '--apply');
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^memtrust audit: refused without confirmation: it would demote or move (\d+) files \(more than 10\); nothing was changed\. Re-run with --apply --yes to confirm all \1\.$/,
    );
    expect(treeFiles(sb.root)).toEqual(before);
    expect(readAudit(sb.root)).toEqual([]);
    expect(batches()).toEqual([]);
  });

  it('a quarter of a small root needs --yes; fewer applies directly', () => {
    const small = sandbox('memtrust-batch-small-');
    try {
      const ok = (n: string) =>
        memoryFile(
          [
            ['name', n],
            ['description', `${n} rule`],
            ['type', 'feedback'],
          ],
          '\nKeep the build green on main.\n\n**Why:** broken main blocks everyone.\n\n**How to apply:** revert first.\n',
        );
      for (const n of ['alpha', 'bravo', 'charlie']) put(small.root, `memories/feedback_${n}.md`, ok(n));
      put(small.root, 'memories/feedback_bad.md', '# no frontmatter at all, a hard failure\n');
      // 1 of 4 is a quarter, not more: applies without --yes.
      const one = runCli(['audit', '--apply'], small.env);
      expect(one.status, one.stderr).toBe(0);
      expect(one.stdout).toMatch(/^batch \S+: 1 demoted — undo with: memtrust undo \S+$/m);
      put(small.root, 'memories/feedback_bad2.md', 'no frontmatter either\n');
      put(small.root, 'memories/feedback_bad3.md', 'nor here\n');
      // 2 of 5 is more than a quarter.
      const two = runCli(['audit', '--apply'], small.env);
      expect(two.status).toBe(2);
      expect(two.stderr).toMatch(
        /it would demote or move 2 of the 5 memories in .* \(more than a quarter\).*--apply --yes/,
      );
      expect(fs.existsSync(path.join(small.root, 'memories/feedback_bad2.md'))).toBe(true);
      expect(runCli(['audit', '--apply', '--yes'], small.env).status).toBe(0);
      expect(fs.existsSync(path.join(small.root, 'quarantine/feedback_bad2.md'))).toBe(true);
    } finally {
      removeSandbox(small);
    }
  });

  it('--yes alone is a usage error (64)', () => {
    expect(cli('audit', '--yes').status).toBe(64);
  });
});

describe('undo', () => {
  it('puts every file back byte for byte, MEMORY.md included; every event carries the batch', () => {
    const before = treeFiles(sb.root);
    const applied = cli('audit', '--apply', '--yes');
    expect(applied.status, applied.stderr).toBe(0);
    const id = batchOf(applied.stdout);
    expect(id).toMatch(/^b\d{8}T\d{6}Z-[0-9a-f]{6}$/);
    const events = readAudit(sb.root);
    expect(events.length).toBeGreaterThan(10);
    expect(new Set(events.map((e) => e.batch))).toEqual(new Set([id]));
    expect(treeFiles(sb.root)).not.toEqual(before);
    expect(
      fs
        .readFileSync(path.join(sb.root, 'MEMORY.md'))
        .equals(Buffer.from(before['MEMORY.md'] ? claudeFolder()['MEMORY.md']! : '')),
    ).toBe(false);

    const undo = cli('undo', id);
    expect(undo.status, undo.stderr).toBe(0);
    expect(undo.stdout).toContain(`batch ${id} undone as batch`);
    expect(treeFiles(sb.root)).toEqual(before);
    expect(fs.readFileSync(path.join(sb.root, 'MEMORY.md')).equals(claudeFolder()['MEMORY.md']!)).toBe(true);
    const undoId = batchOf(undo.stdout);
    const undoEvents = readAudit(sb.root).filter((e) => e.action === 'undo');
    expect(undoEvents).toHaveLength(events.length);
    expect(new Set(undoEvents.map((e) => e.batch))).toEqual(new Set([undoId]));
    // Undoing it again changes nothing and says so.
    const again = cli('undo', id);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('already undone');
    expect(treeFiles(sb.root)).toEqual(before);
  });

  it('is refused as a conflict, naming the file, when a file changed since the batch; nothing changes', () => {
    const id = batchOf(cli('audit', '--apply', '--yes').stdout);
    fs.appendFileSync(path.join(sb.root, 'quarantine', 'reference_api_2.md'), '\nedited after the batch\n');
    const mid = treeFiles(sb.root);
    const r = cli('undo', id);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `memtrust undo: refused as a conflict: reference_api_2.md changed since batch ${id}; nothing was changed (undo never overwrites a later change: revert it, or move the other files back one by one)`,
    );
    expect(treeFiles(sb.root)).toEqual(mid);
    // MEMORY.md edited by hand since the batch is a conflict too.
    fs.writeFileSync(
      path.join(sb.root, 'quarantine', 'reference_api_2.md'),
      fs
        .readFileSync(path.join(sb.root, 'quarantine', 'reference_api_2.md'))
        .subarray(0, -'\nedited after the batch\n'.length),
    );
    fs.appendFileSync(path.join(sb.root, 'MEMORY.md'), '- [New](feedback_new.md) — added by hand\n');
    const m = cli('undo', id);
    expect(m.status).toBe(2);
    expect(m.stderr).toContain(`refused as a conflict: MEMORY.md changed since batch ${id}`);
  });

  it('an undo can itself be undone (back to the state after the batch)', () => {
    const id = batchOf(cli('audit', '--apply', '--yes').stdout);
    const afterBatch = treeFiles(sb.root);
    const undoId = batchOf(cli('undo', id).stdout);
    expect(undoId).not.toBe(id);
    const redo = cli('undo', undoId);
    expect(redo.status, redo.stderr).toBe(0);
    expect(treeFiles(sb.root)).toEqual(afterBatch);
    // …and the original batch can be undone once more.
    const original = claudeFolder();
    expect(cli('undo', id).status).toBe(0);
    for (const [rel, bytes] of Object.entries(original))
      expect(fs.readFileSync(path.join(sb.root, rel)).equals(bytes), rel).toBe(true);
  });

  it('works after the SQLite cache is deleted: what undo needs lives in files (the trail and the data directory)', () => {
    const before = treeFiles(sb.root);
    const id = batchOf(cli('audit', '--apply', '--yes').stdout);
    for (const f of fs.readdirSync(sb.tmp)) if (f.startsWith('index.sqlite')) fs.rmSync(path.join(sb.tmp, f));
    const r = cli('undo', id);
    expect(r.status, r.stderr).toBe(0);
    expect(treeFiles(sb.root)).toEqual(before);
    // The rebuilt index knows both batches (history shows them).
    const h = cli('history', '--json');
    const batchesSeen = new Set(JSON.parse(h.stdout).events.map((e: { batch: string }) => e.batch));
    expect(batchesSeen.has(id)).toBe(true);
    expect(batchesSeen.size).toBe(2);
  });

  it('a single transition is a batch of one and can be undone', () => {
    const before = treeFiles(sb.root);
    const d = cli('demote', 'feedback_commits.md', '--reason', 'superseded', '--op', 'single-op-1');
    expect(d.status, d.stderr).toBe(0);
    expect(readAudit(sb.root)).toEqual([expect.objectContaining({ id: 'single-op-1', batch: 'single-op-1' })]);
    expect(cli('undo', 'single-op-1').status).toBe(0);
    expect(treeFiles(sb.root)).toEqual(before);
  });

  it('a back-fill batch is undone to the exact bytes (CRLF and nested files included)', () => {
    const before = treeFiles(sb.root);
    const b = cli('backfill', '--apply', '--yes');
    expect(b.status, b.stderr).toBe(0);
    const id = batchOf(b.stdout);
    expect(treeFiles(sb.root)).not.toEqual(before);
    expect(cli('undo', id).status).toBe(0);
    expect(treeFiles(sb.root)).toEqual(before);
  });

  it('an archive (trust-model root, archive/YYYY-MM/) is undone back into quarantine/', () => {
    const tr = sandbox('memtrust-batch-archive-');
    try {
      put(
        tr.root,
        'quarantine/feedback_old.md',
        memoryFile(
          [
            ['name', 'Old rule'],
            ['description', 'an old rule'],
            ['type', 'feedback'],
            ['trust-level', 'quarantined'],
            ['quarantined-at', '2026-07-01T00:00:00Z'],
            ['quarantine-reason', 'outdated'],
          ],
          '\nUse the old deploy script.\n\n**Why:** history.\n\n**How to apply:** do not.\n',
          { crlf: true },
        ),
      );
      put(
        tr.root,
        'memories/feedback_keep.md',
        memoryFile(
          [
            ['name', 'Keep'],
            ['description', 'kept'],
            ['type', 'feedback'],
          ],
          '\nKeep this one around for the test.\n',
        ),
      );
      const before = treeFiles(tr.root);
      const a = runCli(['archive', 'feedback_old.md', '--op', 'arch-1'], tr.env);
      expect(a.status, a.stderr).toBe(0);
      expect(fs.existsSync(path.join(tr.root, 'archive/2026-07/feedback_old.md'))).toBe(true);
      const u = runCli(['undo', 'arch-1'], tr.env);
      expect(u.status, u.stderr).toBe(0);
      expect(treeFiles(tr.root)).toEqual(before);
    } finally {
      removeSandbox(tr);
    }
  });

  it('refuses unknown and malformed ids', () => {
    expect(cli('undo', 'b-unknown').status).toBe(2);
    expect(cli('undo', '../etc').status).toBe(64);
    expect(cli('undo').status).toBe(64);
  });
});

describe('an interrupted batch', () => {
  it('is rolled forward by recovery and can still be undone to the exact bytes', () => {
    const before = treeFiles(sb.root);
    const crashed = runCli(['audit', '--apply', '--yes'], sb.env, { MEMTRUST_CRASH_AT: 'after-link' });
    expect(crashed.signal).toBe('SIGKILL');
    const [id] = batches();
    expect(id).toBeDefined();
    // The next command recovers the interrupted step (its event keeps the batch), then undoes it.
    const r = cli('undo', id!);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('recovery:');
    expect(readAudit(sb.root).filter((e) => e.batch === id)).toEqual([
      expect.objectContaining({ action: 'demote', recovered: true }),
    ]);
    expect(treeFiles(sb.root)).toEqual(before);
  });
});
