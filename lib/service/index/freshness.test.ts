/**
 * The freshness protocol (docs/freshness.md) with real processes: `memtrust watch` keeps the
 * index and answers cookies; this process asks as a CLI command would. What must hold: a
 * process that skips its rescan never sees an index older than the files, whatever was
 * written just before it asked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config';
import { createContext, type ServiceContext } from '../context';
import { indexVouched, ASK_MIN_FILES } from './ask-monitor';
import { leasePath, watchDir } from './monitor-files';
import { scan } from './scan-service';
import { keepFresh } from './keep-fresh';
import { CORPUS_OWNER, writeScanCorpus } from '../fixtures/scan-corpus';
import {
  CLI,
  childEnv,
  memoryFile,
  put,
  removeSandbox,
  sandbox,
  testFields,
  TEST_BODY,
  type Sandbox,
} from '../test-support';

const FILES = ASK_MIN_FILES + 200;

function fillRoot(root: string): void {
  for (let i = 0; i < FILES; i++)
    put(root, `memories/note-${i}.md`, memoryFile(testFields([['trust-level', 'inferred']]), `${TEST_BODY}n${i}\n`));
}

/** What the watcher printed: shown when a wait times out. */
let watchLog = '';

function startWatch(sb: Sandbox): ChildProcess {
  const child = spawn(process.execPath, [CLI, 'watch'], { env: childEnv(sb.env), stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (d: Buffer) => {
    watchLog += d.toString();
  });
  return child;
}

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the watcher said:\n${watchLog}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function ctxOf(sb: Sandbox, env: Record<string, string> = sb.env): ServiceContext {
  return createContext(loadConfig({ env }), env);
}

const sizeOf = (ctx: ServiceContext, rel: string) =>
  (ctx.handle.sqlite.prepare('SELECT size FROM entries WHERE rel_path = ?').get(rel) as { size: number } | undefined)
    ?.size;

describe('a CLI process skips its rescan only on a live watcher’s word', () => {
  let sb: Sandbox;
  let watcher: ChildProcess;
  let ctx: ServiceContext;

  beforeAll(async () => {
    sb = sandbox('memtrust-fresh-');
    fillRoot(sb.root);
    ctx = ctxOf(sb);
    expect(scan(ctx, { askWatcher: true }).vouched).toBeUndefined(); // no watcher yet
    watcher = startWatch(sb);
    await until('the watcher’s first scan', () => indexVouched(sb.db, ctx.sources));
  }, 60_000);

  afterAll(async () => {
    if (watcher.exitCode === null) {
      watcher.kill('SIGTERM');
      await new Promise((r) => watcher.once('exit', r));
    }
    removeSandbox(sb);
  });

  it('takes the index as it is while nothing changed, and lists the same rows', async () => {
    const before = ctx.handle.sqlite.prepare('SELECT key, sha256 FROM entries ORDER BY key').all();
    // The asker waits only a few milliseconds (answerTimeoutMs); on a loaded machine the answer
    // can come late, and the scan then rescans, as it must. Ask again until the watcher answers.
    let stats = scan(ctx, { askWatcher: true });
    for (let i = 0; i < 20 && !stats.vouched; i++) {
      await new Promise((r) => setTimeout(r, 50));
      stats = scan(ctx, { askWatcher: true });
    }
    expect(stats.vouched).toBe(true);
    expect(stats.read).toBe(0);
    expect(stats.files).toBe(0); // nothing listed
    expect(ctx.handle.sqlite.prepare('SELECT key, sha256 FROM entries ORDER BY key').all()).toEqual(before);
  });

  it('never skips past a write made just before it asked (in-place edits, adds, deletes)', async () => {
    let vouchedAfterWrite = 0;
    const ask = () => {
      const stats = scan(ctx, { askWatcher: true });
      if (stats.vouched) vouchedAfterWrite++;
    };
    for (let i = 0; i < 10; i++) {
      // In place: the directory's mtime does not move, so only the watcher's events can tell.
      await until('the watcher to settle', () => indexVouched(sb.db, ctx.sources));
      const rel = `memories/note-${i}.md`;
      const grown = Buffer.concat([fs.readFileSync(path.join(sb.root, rel)), Buffer.from(`edit ${i}\n`)]);
      fs.writeFileSync(path.join(sb.root, rel), grown);
      ask();
      expect(sizeOf(ctx, rel)).toBe(grown.length);
    }
    for (let i = 0; i < 5; i++) {
      await until('the watcher to settle', () => indexVouched(sb.db, ctx.sources));
      const added = `memories/added-${i}.md`;
      put(sb.root, added, memoryFile(testFields([['trust-level', 'inferred']]), TEST_BODY));
      ask();
      expect(sizeOf(ctx, added)).toBeDefined();
      await until('the watcher to settle', () => indexVouched(sb.db, ctx.sources));
      fs.rmSync(path.join(sb.root, added));
      ask();
      expect(sizeOf(ctx, added)).toBeUndefined();
    }
    // The watcher cannot have scanned within microseconds of the write: every answer was "dirty".
    expect(vouchedAfterWrite).toBe(0);
  }, 120_000);

  it('is not asked for other roots, another owner’s rules, or by a small index', () => {
    const other = sandbox('memtrust-fresh-other-');
    try {
      put(other.root, 'memories/a.md', memoryFile(testFields([['trust-level', 'inferred']]), TEST_BODY));
      // Same database, other roots: the lease's key differs.
      const otherCtx = ctxOf(sb, { ...sb.env, MEMTRUST_ROOT: other.root });
      expect(indexVouched(sb.db, otherCtx.sources)).toBe(false);
    } finally {
      removeSandbox(other);
    }
    // Another owner: the index's rules signature differs, so the scan re-checks every file.
    const owner2 = ctxOf(sb, { ...sb.env, OWNER_EMAILS: 'someone-else@example.com' });
    const stats = scan(owner2, { askWatcher: true });
    expect(stats.vouched).toBeUndefined();
    expect(stats.read).toBe(FILES);
    scan(ctx); // back to our owner's rules for the next tests
  }, 60_000);

  it('scans itself when the watcher does not answer in time', async () => {
    await until('the watcher to settle', () => indexVouched(sb.db, ctx.sources));
    // A watcher that cannot answer (stopped; in life: busy) keeps its lease.
    watcher.kill('SIGSTOP');
    try {
      put(sb.root, 'memories/while-stopped.md', memoryFile(testFields([['trust-level', 'inferred']]), TEST_BODY));
      // A stopped watcher never answers: the asker gives up after its timeout and scans.
      const t = Date.now();
      const stats = scan(ctx, { askWatcher: true });
      expect(stats.vouched).toBeUndefined();
      expect(Date.now() - t).toBeLessThan(5_000);
      expect(sizeOf(ctx, 'memories/while-stopped.md')).toBeDefined();
    } finally {
      watcher.kill('SIGCONT');
    }
  }, 60_000);

  it('a watcher that stopped leaves no lease; a dead one’s lease is ignored', async () => {
    watcher.kill('SIGTERM');
    await new Promise((r) => watcher.once('exit', r));
    expect(fs.existsSync(leasePath(sb.db))).toBe(false);
    // A lease left by a process that died without cleaning up (pid gone).
    fs.mkdirSync(watchDir(sb.db), { recursive: true });
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.once('exit', r));
    fs.writeFileSync(leasePath(sb.db), JSON.stringify({ pid: dead.pid, key: 'x', files: FILES }));
    const t = Date.now();
    expect(indexVouched(sb.db, ctx.sources)).toBe(false);
    expect(Date.now() - t).toBeLessThan(50);
  }, 60_000);
});

describe('a watcher whose database folder is read-only', () => {
  it('keeps its own index fresh, publishes no lease and never throws', () => {
    const sb = sandbox('memtrust-fresh-ro-');
    try {
      put(sb.root, 'memories/a.md', memoryFile(testFields([['trust-level', 'inferred']]), TEST_BODY));
      const ctx = ctxOf(sb);
      scan(ctx);
      // The questions folder cannot be made: a file stands where it would go.
      fs.writeFileSync(watchDir(sb.db), '');
      const keeper = keepFresh(ctx);
      try {
        expect(() => keeper.fresh()).not.toThrow();
        expect(fs.statSync(watchDir(sb.db)).isFile()).toBe(true);
      } finally {
        keeper.close();
      }
    } finally {
      removeSandbox(sb);
    }
  });
});

describe('over real shapes: a Claude Code folder and two trust-model roots', () => {
  it('a command asking right after in-place edits of MEMORY.md and nested-key files sees them', async () => {
    const sb = sandbox('memtrust-fresh-real-');
    const corpus = writeScanCorpus(path.join(sb.tmp, 'roots'), FILES, 300);
    const claude = corpus.roots[2]!;
    const env = { ...sb.env, MEMTRUST_ROOT: corpus.roots.join(path.delimiter), OWNER_EMAILS: CORPUS_OWNER };
    const real: Sandbox = { ...sb, env };
    const ctx = ctxOf(real, env);
    const watcher = startWatch(real);
    try {
      await until('the watcher’s first scan', () => indexVouched(sb.db, ctx.sources), 60_000);
      const rowOf = (rel: string) =>
        ctx.handle.sqlite
          .prepare('SELECT name, secret_exit AS secret FROM entries WHERE source = ? AND rel_path = ?')
          .get(ctx.sources[2]!.id, rel) as { name: string; secret: number } | undefined;
      // Nested `metadata:` keys, edited in place: the name changes and a password appears in prose.
      const nestedFile = path.join(claude, 'feedback_release.md');
      fs.writeFileSync(
        nestedFile,
        fs
          .readFileSync(nestedFile, 'utf8')
          .replace('name: Release checklist', 'name: Release checklist v2')
          .concat('\nThe staging login is admin / password: Correct-Horse-Fake-9\n'),
      );
      let stats = scan(ctx, { askWatcher: true });
      expect(stats.vouched).toBeUndefined();
      expect(rowOf('feedback_release.md')).toEqual({ name: 'Release checklist v2', secret: 1 });
      // MEMORY.md, the index file the folder loads every session, in place.
      await until('the watcher to settle', () => indexVouched(sb.db, ctx.sources), 30_000);
      fs.appendFileSync(path.join(claude, 'MEMORY.md'), '- [Homelab](project_homelab.md) — password: hunter2-fake\r\n');
      stats = scan(ctx, { askWatcher: true });
      expect(stats.vouched).toBeUndefined();
      const indexFindings = ctx.handle.sqlite
        .prepare('SELECT count(*) AS n FROM index_findings WHERE source = ?')
        .get(ctx.sources[2]!.id) as { n: number };
      expect(indexFindings.n).toBeGreaterThan(0);
      // The fixture's round of touches, edits, deletes and adds in every root: the index a command
      // gets right after is the one a full rescan would give.
      await until('the watcher to settle', () => indexVouched(sb.db, ctx.sources), 30_000);
      corpus.mutate();
      scan(ctx, { askWatcher: true });
      const snapshot = () => ctx.handle.sqlite.prepare('SELECT key, sha256, size FROM entries ORDER BY key').all();
      const asked = snapshot();
      ctx.handle.sqlite.prepare("UPDATE meta SET value = 'x' WHERE key = 'secret_rules'").run(); // force a full re-check
      scan(ctx);
      expect(snapshot()).toEqual(asked);
    } finally {
      watcher.kill('SIGTERM');
      await new Promise((r) => watcher.once('exit', r));
      removeSandbox(sb);
    }
  }, 180_000);
});

describe('memtrust watch over a root it cannot read', () => {
  it('says which root and what follows, instead of watching silently', async () => {
    const sb = sandbox('memtrust-fresh-missing-');
    const missing = path.join(sb.tmp, 'no-such-folder');
    const w = startWatch({ ...sb, env: { ...sb.env, MEMTRUST_ROOT: missing } });
    try {
      watchLog = '';
      await until('the warning', () => watchLog.includes('re-check every file'), 30_000);
      expect(watchLog).toContain(missing);
    } finally {
      w.kill('SIGTERM');
      await new Promise((r) => w.once('exit', r));
      removeSandbox(sb);
    }
  }, 60_000);
});
