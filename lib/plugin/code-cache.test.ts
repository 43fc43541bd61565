/**
 * The guard's code cache (code-cache.ts): made in the data directory by the first write into a
 * memory root, read by the next, one per build of the validators' file, and never a
 * condition of the answer. Drives the committed bundles from a copy of the plugin's files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT } from '../service/test-support';
import { type Drive, driveHooks, NEW_MEMORY, PASSWORD_MEMORY, writeInput } from './test-drive-hooks';

describe('the guard loads the validators through a code cache in the data directory', () => {
  let d: Drive;
  let plugin: string;
  let cacheDir: string;
  const deps = () => path.join(plugin, 'dist', 'hooks', 'pre-write-deps.cjs');
  const all = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).sort() : []);
  // The validators' cache; the guard's own bundle (pre-write-main.cjs) has one beside it.
  const caches = () => all().filter((n) => n.startsWith('pre-write-deps.cjs.'));
  const mainCaches = () => all().filter((n) => n.startsWith('pre-write-main.cjs.'));
  const guard = (content: string, id: string) =>
    d.run('PreToolUse', writeInput('PreToolUse', path.join(d.root, 'memories', 'project_db.md'), content, id));
  const denied = (r: ReturnType<typeof guard>) => r.json?.hookSpecificOutput?.permissionDecision === 'deny';

  beforeAll(() => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-code-cache-'));
    plugin = path.join(tmp, 'plugin');
    for (const dir of ['dist/hooks', 'hooks'])
      fs.cpSync(path.join(PROJECT, dir), path.join(plugin, dir), { recursive: true });
    d = driveHooks(plugin, tmp);
    cacheDir = path.join(d.env.XDG_DATA_HOME!, 'memtrust', 'code-cache');
  });
  afterAll(() => fs.rmSync(d.tmp, { recursive: true, force: true }));

  it('the first memory write makes it, the next read it: the same answers', () => {
    expect(all()).toEqual([]);
    const first = guard(PASSWORD_MEMORY, 'toolu_cc1');
    expect(first.status).toBe(0);
    expect(denied(first)).toBe(true);
    const made = caches();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatch(/^pre-write-deps\.cjs\..+\.v8$/);
    expect(mainCaches()).toHaveLength(1);
    expect(all()).toHaveLength(2);
    const stat = fs.statSync(path.join(cacheDir, made[0]!));
    expect(stat.mode & 0o777).toBe(0o600);
    expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);

    const again = guard(PASSWORD_MEMORY, 'toolu_cc2');
    expect(again.json).toEqual(first.json);
    const clean = guard(NEW_MEMORY, 'toolu_cc3');
    expect(clean.status).toBe(0);
    expect(denied(clean)).toBe(false);
    // Read, not written again.
    expect(caches()).toEqual(made);
    expect(fs.statSync(path.join(cacheDir, made[0]!)).mtimeMs).toBe(stat.mtimeMs);
  });

  it('a new build of the file gets a cache of its own, and the old one goes', () => {
    const before = caches();
    const text = fs.readFileSync(deps());
    fs.rmSync(deps());
    fs.writeFileSync(deps(), text);
    const r = guard(PASSWORD_MEMORY, 'toolu_cc4');
    expect(denied(r)).toBe(true);
    const after = caches();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);
  });

  it('a cache that is not V8 data, or a data directory that takes none, changes nothing', () => {
    const [name] = caches();
    fs.writeFileSync(path.join(cacheDir, name!), 'not a code cache');
    expect(denied(guard(PASSWORD_MEMORY, 'toolu_cc5'))).toBe(true);
    // Rejected, so written again from this run.
    expect(fs.readFileSync(path.join(cacheDir, name!), 'utf8')).not.toBe('not a code cache');

    fs.rmSync(cacheDir, { recursive: true });
    fs.writeFileSync(cacheDir, 'a file where the folder would be');
    const r = guard(PASSWORD_MEMORY, 'toolu_cc6');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(denied(r)).toBe(true);
  });
});

describe('the session start and the stamp run their bundles through a code cache too', () => {
  let d: Drive;
  let cacheDir: string;
  const caches = (prefix: string) =>
    fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).filter((n) => n.startsWith(prefix) && n.endsWith('.v8')) : [];

  beforeAll(() => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-code-cache-'));
    const plugin = path.join(tmp, 'plugin');
    for (const dir of ['dist/hooks', 'hooks'])
      fs.cpSync(path.join(PROJECT, dir), path.join(plugin, dir), { recursive: true });
    d = driveHooks(plugin, tmp);
    cacheDir = path.join(d.env.XDG_DATA_HOME!, 'memtrust', 'code-cache');
  });
  afterAll(() => fs.rmSync(d.tmp, { recursive: true, force: true }));

  it('the first run makes its cache, the next reads it: the same answers', () => {
    const start = () => d.run('SessionStart', { session_id: 's', source: 'startup', cwd: d.tmp });
    const first = start();
    expect(first.status, first.stderr).toBe(0);
    expect(first.json.hookSpecificOutput.additionalContext).toContain('deploy host');
    expect(caches('session-start-main.cjs.')).toHaveLength(1);
    const again = start();
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(first.stdout);

    const stamp = (name: string, id: string) => {
      const file = path.join(d.root, 'memories', name);
      fs.writeFileSync(file, NEW_MEMORY);
      const r = d.run('PostToolUse', writeInput('PostToolUse', file, NEW_MEMORY, id));
      expect(r.status, r.stderr).toBe(0);
      expect(fs.readFileSync(file, 'utf8')).toContain('trust-level: inferred\n');
      return r;
    };
    const one = stamp('feedback_cache_one.md', 'toolu_cc_post1');
    expect(caches('post-write-deps.cjs.')).toHaveLength(1);
    const two = stamp('feedback_cache_two.md', 'toolu_cc_post2');
    expect(two.json.hookSpecificOutput.additionalContext).toBe(
      one.json.hookSpecificOutput.additionalContext.replace('feedback_cache_one.md', 'feedback_cache_two.md'),
    );
  });
  it('a cache made by a run that checked no memory is made again once by one that did, then kept', () => {
    const start = () => d.run('SessionStart', { session_id: 's', source: 'startup', cwd: d.tmp });
    const mtime = (name: string) => fs.statSync(path.join(cacheDir, name)).mtimeMs;
    expect(start().status).toBe(0); // every memory checked and kept (check-cache.ts)
    for (const n of caches('session-start-main.cjs.')) fs.rmSync(path.join(cacheDir, n));
    // An unchanged project: no memory checked, so the cache made is the plain one.
    const quiet = start();
    expect(quiet.status, quiet.stderr).toBe(0);
    const [plain] = caches('session-start-main.cjs.');
    expect(plain).toMatch(/\d\.v8$/);
    expect(start().stdout).toBe(quiet.stdout);
    expect(caches('session-start-main.cjs.')).toEqual([plain]);
    // A memory changed: checked on the spot, and the cache made again with the validators in it.
    const memory = path.join(d.root, 'memories', fs.readdirSync(path.join(d.root, 'memories')).sort()[0]!);
    fs.appendFileSync(memory, '\nOne more line.\n');
    expect(start().status).toBe(0);
    const [checks] = caches('session-start-main.cjs.');
    expect(caches('session-start-main.cjs.')).toHaveLength(1);
    expect(checks).toMatch(/\.checks\.v8$/);
    expect(checks!.replace(/\.checks\.v8$/, '.v8')).toBe(plain);
    // Read from then on, changed project or not: not made again.
    const made = mtime(checks!);
    fs.appendFileSync(memory, 'And another.\n');
    const after = start();
    expect(after.status, after.stderr).toBe(0);
    expect(after.stdout).toContain('deploy host');
    expect(start().stdout).toBe(after.stdout);
    expect(caches('session-start-main.cjs.')).toEqual([checks]);
    expect(mtime(checks!)).toBe(made);
  });
});

describe('one rule for both loaders', () => {
  it('the run that checked a memory file is told to the loaders by the symbol they read', async () => {
    const { CHECKS_RAN } = await import('../core/code-cache-hint');
    const run = await import('../core/code-cache-run.cjs');
    expect(run.CHECKS_RAN).toBe(CHECKS_RAN);
  });
});
