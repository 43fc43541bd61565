/**
 * The kept session text against inputs the recorder could miss (text-cache.ts; docs/session-context.md,
 * "The kept text"). Same harness as text-cache.test.ts: real CLI and plugin processes on a generated
 * home, each answer compared with the planner's own (MEMTRUST_SESSION_CACHE=off) on the same disk.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClaudeHome } from '../../demo/claude-home';
import { generateCorpus, writeCorpus } from '../../demo';
import { CLI, childEnv } from '../test-support';
import { hookAnswer, runHook, type Via, claudeTestHome } from './text-cache-harness';
import type { Entry } from './text-cache';

const NOW = '2026-11-01T10:00:00.000Z';
let tmp: string;
let env: Record<string, string>;
let config: string;
const A = () => path.join(tmp, 'x', 'app');
const fast = { MEMTRUST_SESSION_CACHE_RACY_MS: '0', MEMTRUST_NOW: NOW };

const run = (cwd: string, extra: Record<string, string>, via: Via) => runHook({ env, tmp }, cwd, extra, via);
const hook = (cwd: string, extra: Record<string, string> = {}, via: Via = 'cli') =>
  hookAnswer({ env, tmp }, cwd, extra, via);
const planned = (cwd: string, extra: Record<string, string> = {}, via: Via = 'cli') =>
  hook(cwd, { ...extra, MEMTRUST_SESSION_CACHE: 'off' }, via).out;

/** Kept once, then `change`, then each entry's answer must be the planner's. */
function afterChange(change: () => void, extra: Record<string, string> = {}) {
  for (const via of ['cli', 'plugin'] as const) {
    hook(A(), { ...fast, ...extra }, via);
    expect(hook(A(), { ...fast, ...extra }, via).how, `kept before the change (${via})`).toBe('hit');
  }
  const before = planned(A(), { ...fast, ...extra });
  change();
  const after = planned(A(), { ...fast, ...extra });
  expect(after, 'the change changes the text').not.toBe(before);
  for (const via of ['cli', 'plugin'] as const)
    expect(hook(A(), { ...fast, ...extra }, via).out, via).toBe(planned(A(), { ...fast, ...extra }, via));
}

const entries = () => {
  const d = path.join(tmp, 'data', 'memtrust', 'session-text');
  return fs.existsSync(d)
    ? fs
        .readdirSync(d)
        .filter((f) => f.endsWith('.json'))
        .map((f) => path.join(d, f))
    : [];
};

beforeAll(() => {
  ({ tmp, config, env } = claudeTestHome('memtrust-kept-holes-'));
  writeClaudeHome({
    configDir: config,
    seed: 7,
    now: new Date(NOW),
    projects: [{ path: A(), memories: 8 }],
    userAgents: [{ name: 'reviewer', memories: 2 }],
  });
  // The first run after a source change builds the launcher's bundles (and keeps nothing): not part of any case.
  hook(A(), { MEMTRUST_SESSION_CACHE: 'off' });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the kept session text: inputs the recorder must see', () => {
  it('a user agent memory folder whose name ends in .v8 (a code cache’s suffix) gains a memory', () => {
    const src = path.join(config, 'agent-memory', 'reviewer');
    const dir = path.join(config, 'agent-memory', 'notes.v8');
    fs.cpSync(src, dir, { recursive: true });
    // Only the folder's listing changes: a file MEMORY.md does not name.
    afterChange(() =>
      fs.writeFileSync(
        path.join(dir, 'project_new_note.md'),
        '---\nname: new note\ndescription: a new note\ntype: project\n---\nThe build runs on Fridays.\n',
      ),
    );
  });

  it('a trust-model root (bodies quoted) gains a memory', () => {
    const root = path.join(tmp, 'home', '.claude', 'claude-memory');
    writeCorpus(root, generateCorpus({ n: 6, seed: 3, now: new Date(NOW) }));
    afterChange(() => {
      const mem = fs.readdirSync(path.join(root, 'memories')).find((n) => n.endsWith('.md'))!;
      fs.writeFileSync(
        path.join(root, 'memories', `copy-${mem}`),
        fs.readFileSync(path.join(root, 'memories', mem), 'utf8').replace(/\n$/, '\nOne more line.\n'),
      );
    });
  });

  it('Claude Code’s autoMemoryDirectory setting', () => {
    const auto = path.join(tmp, 'auto-mem');
    fs.cpSync(path.join(config, 'agent-memory', 'reviewer'), auto, { recursive: true });
    afterChange(() =>
      fs.writeFileSync(path.join(config, 'settings.json'), JSON.stringify({ autoMemoryDirectory: auto })),
    );
  });

  it('a dangling .git link appears below the project’s top (projectRoot finds it by lstat)', () => {
    const sub = path.join(A(), 'sub');
    fs.mkdirSync(sub, { recursive: true });
    const git = path.join(sub, '.git');
    try {
      for (const via of ['cli', 'plugin'] as const) {
        hook(sub, fast, via);
        expect(hook(sub, fast, via).how, `kept before the change (${via})`).toBe('hit');
      }
      const before = planned(sub, fast);
      fs.symlinkSync(path.join(tmp, 'nowhere'), git);
      expect(planned(sub, fast), 'sub is a project of its own now').not.toBe(before);
      for (const via of ['cli', 'plugin'] as const) expect(hook(sub, fast, via).out, via).toBe(planned(sub, fast, via));
      // And a session there keeps its text too.
      for (const via of ['cli', 'plugin'] as const) expect(hook(sub, fast, via).how, via).toBe('hit');
    } finally {
      fs.rmSync(git, { force: true });
    }
  });

  it('the session’s project folder goes away', () => {
    const moved = `${A()}-moved`;
    try {
      fs.mkdirSync(path.join(A(), '.claude', 'agent-memory', 'tester'), { recursive: true });
      fs.cpSync(path.join(config, 'agent-memory', 'reviewer'), path.join(A(), '.claude', 'agent-memory', 'tester'), {
        recursive: true,
      });
      afterChange(() => fs.renameSync(A(), moved));
    } finally {
      if (fs.existsSync(moved)) fs.renameSync(moved, A());
    }
  });
});

describe('the kept session text on the wall clock (no MEMTRUST_NOW)', () => {
  it('holds until an inferred memory’s observation ends, then answers as the planner does', () => {
    const wall = { MEMTRUST_SESSION_CACHE_RACY_MS: '0' };
    const dir = path.join(config, 'projects', A().replace(/[^A-Za-z0-9]/g, '-'), 'memory');
    const f = path.join(dir, 'project_ends_soon.md');
    fs.writeFileSync(f, '---\nname: ends soon\ndescription: x\ntype: project\n---\nDeploys go out on Tuesdays.\n');
    fs.appendFileSync(path.join(dir, 'MEMORY.md'), '- [Ends soon](project_ends_soon.md) — deploy day\n');
    // Its observation (7 days from its mtime, no created-at) ends a few seconds from now.
    const ends = Date.now() + 5_000;
    const started = new Date(ends - 7 * 86_400_000);
    fs.utimesSync(f, started, started);
    if (new Date(ends).getUTCDate() !== new Date().getUTCDate()) return; // midnight first: not this case
    for (const via of ['cli', 'plugin'] as const) {
      hook(A(), wall, via);
      expect(hook(A(), wall, via).how, via).toBe('hit');
    }
    const before = planned(A(), wall);
    while (Date.now() <= ends + 50) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    const after = planned(A(), wall);
    expect(after, 'its observation over changes the text').not.toBe(before);
    for (const via of ['cli', 'plugin'] as const) {
      const got = hook(A(), wall, via);
      expect(got.how, via).not.toBe('hit');
      expect(got.out, via).toBe(planned(A(), wall, via));
    }
  });
});

describe('the kept session text: a corrupt or hostile entry, two hooks at once', () => {
  const mutations: [string, (e: Entry) => unknown][] = [
    ['null', () => null],
    ['an array', () => []],
    ['a string', () => 'x'],
    ['facts not a list', (e) => ({ ...e, facts: 5 })],
    ['a dependency not a list', (e) => ({ ...e, deps: [null] })],
    ['a dependency of an unknown kind', (e) => ({ ...e, deps: [[tmp, 'x']], out: '{"hostile":true}' })],
    ['paths not strings', (e) => ({ ...e, sp: e.sp.map(() => 5) })],
    ['the answer not a string', (e) => ({ ...e, out: 5 })],
    ['the answer an object', (e) => ({ ...e, out: { a: 1 } })],
    ['the answer not JSON', (e) => ({ ...e, out: 'not json' })],
  ];
  it.each(mutations)('%s: exit 0, one valid JSON answer, no stack trace', (_what, mutate) => {
    for (const via of ['cli', 'plugin'] as const) {
      for (const f of entries()) fs.rmSync(f);
      hook(A(), fast, via);
      const files = entries();
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) {
        const e = JSON.parse(fs.readFileSync(f, 'utf8')) as Entry;
        fs.writeFileSync(f, JSON.stringify(mutate(e)));
      }
      const r = run(A(), fast, via);
      expect(r.status).toBe(0);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(() => JSON.parse(r.stdout), r.stdout).not.toThrow();
      expect(r.stdout).toBe(planned(A(), fast, via));
    }
  });

  it('a child process started during the run keeps nothing, node:child_process loaded before the run too', () => {
    // git's global config with an include: the owner's address is asked of git (lib/core/identity.ts).
    const home = env.HOME!;
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, '.gitconfig-work'), '[user]\n\temail = owner@example.com\n');
    fs.writeFileSync(path.join(home, '.gitconfig'), '[include]\n\tpath = ~/.gitconfig-work\n');
    try {
      // Another clock than the cases above (no kept text holds for it); no address from the environment.
      const asked = { ...fast, MEMTRUST_NOW: '2026-11-01T10:30:00.000Z', OWNER_EMAILS: '' };
      // node:child_process loaded during the run, and before it began, as the CLI launcher loads it
      // to rebuild a bundle: a module loaded before is not seen at keep, but the spawn lists the
      // whole environment to pass it on, which keeps nothing either.
      const preloads: Record<string, string>[] = [{}, { NODE_OPTIONS: '--require=node:child_process' }];
      for (const preload of preloads)
        for (const via of ['cli', 'plugin'] as const) {
          const a = hook(A(), { ...asked, ...preload }, via);
          expect(a.how, `${via} ${JSON.stringify(preload)}`).toMatch(/child_process loaded|the whole environment/);
          expect(a.out).toBe(planned(A(), asked, via));
          expect(hook(A(), { ...asked, ...preload }, via).how).not.toBe('hit');
        }
    } finally {
      fs.rmSync(path.join(home, '.gitconfig'), { force: true });
      fs.rmSync(path.join(home, '.gitconfig-work'), { force: true });
    }
  });

  it('two hooks at once answer as the planner does', async () => {
    for (const f of entries()) fs.rmSync(f);
    const one = () =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const c = spawn(process.execPath, [CLI, 'context', '--format', 'hook'], {
          env: childEnv(env, { MEMTRUST_ROOT: '', ...fast }),
          cwd: tmp,
        });
        let out = '';
        c.stdout.on('data', (b) => (out += b));
        c.on('close', (code) => resolve({ code, out }));
        c.stdin.end(JSON.stringify({ session_id: 's-2', cwd: A(), source: 'startup' }));
      });
    const want = planned(A(), fast);
    for (let round = 0; round < 3; round++) {
      const got = await Promise.all([one(), one(), one()]);
      for (const g of got) {
        expect(g.code).toBe(0);
        expect(g.out).toBe(want);
      }
    }
    for (const f of entries()) expect(fs.statSync(f).mode & 0o777).toBe(0o600);
  });
});
