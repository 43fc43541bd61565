/**
 * The kept session text (text-cache.ts; docs/session-context.md, "The kept text"): a session
 * start answers from it only when the planner would answer the same. Real CLI and plugin
 * processes on a generated Claude Code home in a temp folder; every answer with the kept
 * text is compared with the planner's own (MEMTRUST_SESSION_CACHE=off) on the same disk.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeClaudeHome } from '../../demo/claude-home';
import { encodeProjectPath } from '../../sources/claude-home';
import { type Answer, hookAnswer, type Via, claudeTestHome } from './text-cache-harness';
import { saveKnownValues } from '../known-values-store';
import { ctimeMsOf, keptAnswer, statSig, type Entry } from './text-cache';

const NOW = '2026-11-01T10:00:00.000Z';
let tmp: string;
let env: Record<string, string>;
let config: string;
const A = () => path.join(tmp, 'x', 'app');
const B = () => path.join(tmp, 'x', 'other');
const memDir = (p: string) => path.join(config, 'projects', encodeProjectPath(p), 'memory');

const hook = (cwd: string, extra: Record<string, string> = {}, entry: Via = 'cli'): Answer =>
  hookAnswer({ env, tmp }, cwd, { MEMTRUST_NOW: NOW, ...extra }, entry);

/** The planner's own answer on the same disk. */
const planned = (cwd: string, extra: Record<string, string> = {}, entry: Via = 'cli') =>
  hook(cwd, { ...extra, MEMTRUST_SESSION_CACHE: 'off' }, entry).out;

const fast = { MEMTRUST_SESSION_CACHE_RACY_MS: '0' };

beforeAll(() => {
  ({ tmp, config, env } = claudeTestHome('memtrust-kept-'));
  writeClaudeHome({
    configDir: config,
    seed: 5,
    now: new Date(NOW),
    projects: [
      { path: A(), memories: 12, agents: ['tester'] },
      { path: B(), memories: 6 },
    ],
    userAgents: [{ name: 'reviewer', memories: 2 }],
  });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the kept session text', () => {
  it('is not kept while a file it read changed in the last two seconds, and is kept after', () => {
    const first = hook(A());
    expect(first.how).toMatch(/changed less than 2000 ms ago/);
    const later = Date.now() + 2100;
    while (Date.now() < later) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    const kept = hook(A());
    expect(kept.how).toBe('kept');
    const hit = hook(A());
    expect(hit.how).toBe('hit');
    expect(hit.out).toBe(kept.out);
    expect(hit.out).toBe(planned(A()));
  });

  it('holds only what the session’s own project and the user-level folders gave it', () => {
    hook(A(), fast);
    const files = fs.readdirSync(path.join(tmp, 'data', 'memtrust', 'session-text'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const p = path.join(tmp, 'data', 'memtrust', 'session-text', f);
      const text = fs.readFileSync(p, 'utf8');
      const e = JSON.parse(text) as Entry;
      if (!e.key.includes(A())) continue;
      expect(text).not.toContain(encodeProjectPath(B()));
      expect(text).not.toContain(B());
      expect(fs.statSync(p).mode & 0o777).toBe(0o600);
    }
    expect(fs.statSync(path.join(tmp, 'data', 'memtrust', 'session-text')).mode & 0o777).toBe(0o700);
  });

  it('answers as the planner does after every kind of change, and from the kept text when nothing it read changed', () => {
    const dir = memDir(A());
    const memories = () =>
      fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.md') && n !== 'MEMORY.md')
        .sort();
    const settings = path.join(tmp, 'cfg', 'memtrust', 'settings.json');
    let nowIso = NOW;
    let n = 0;
    const changes: [string, () => void, 'hit' | 'miss'][] = [
      ['nothing', () => {}, 'hit'],
      [
        'a memory of another project edited',
        () =>
          fs.appendFileSync(
            path.join(memDir(B()), fs.readdirSync(memDir(B())).find((x) => x !== 'MEMORY.md')!),
            '\nmore\n',
          ),
        'hit',
      ],
      ['a memory edited', () => fs.appendFileSync(path.join(dir, memories()[0]!), `\nedit ${n++}\n`), 'miss'],
      [
        'a memory rewritten to the same size, its mtime put back',
        () => {
          const f = path.join(dir, memories()[1]!);
          const st = fs.statSync(f);
          const b = fs.readFileSync(f);
          b[b.length - 2] = b[b.length - 2] === 0x41 ? 0x42 : 0x41;
          fs.writeFileSync(f, b);
          fs.utimesSync(f, st.atime, st.mtime);
        },
        'miss',
      ],
      [
        'a memory holding a credential added, with its index line',
        () => {
          fs.writeFileSync(
            path.join(dir, 'reference_db.md'),
            '---\nname: db\ndescription: database login\ntype: reference\n---\nThe staging database password is `Xq7#pL2v!mZ9`.\n',
          );
          fs.appendFileSync(path.join(dir, 'MEMORY.md'), '- [DB](reference_db.md) — staging database login\n');
        },
        'miss',
      ],
      ['a memory removed', () => fs.rmSync(path.join(dir, memories()[2]!)), 'miss'],
      [
        'a file MEMORY.md does not name added (only the listing changes)',
        () =>
          fs.writeFileSync(
            path.join(dir, 'project_unnamed.md'),
            '---\nname: unnamed\ndescription: x\ntype: project\n---\nA note.\n',
          ),
        'miss',
      ],
      ['MEMORY.md edited', () => fs.appendFileSync(path.join(dir, 'MEMORY.md'), '- a line of its own\n'), 'miss'],
      [
        'the budget setting changed',
        () => {
          fs.mkdirSync(path.dirname(settings), { recursive: true });
          fs.writeFileSync(settings, JSON.stringify({ contextBudget: 1500 }));
        },
        'miss',
      ],
      [
        'a new agent memory folder',
        () => fs.mkdirSync(path.join(A(), '.claude', 'agent-memory', 'fresh'), { recursive: true }),
        'miss',
      ],
      ['the clock moved a day', () => (nowIso = '2026-11-02T10:00:00.000Z'), 'miss'],
      [
        'a transcript a memory names appeared',
        () => {
          const named = memories()
            .map((m) => /originSessionId: *(\S+)/.exec(fs.readFileSync(path.join(dir, m), 'utf8'))?.[1])
            .find(Boolean);
          expect(named, 'a generated memory names its session').toBeTruthy();
          fs.writeFileSync(
            path.join(path.dirname(dir), `${named}.jsonl`),
            `${JSON.stringify({ type: 'assistant', sessionId: named, message: { content: [{ type: 'tool_use', name: 'WebFetch', input: { url: 'https://example.com' } }] } })}\n`,
          );
        },
        'miss',
      ],
      ['nothing again', () => {}, 'hit'],
    ];
    hook(A(), { ...fast, MEMTRUST_NOW: nowIso }); // kept before the first change
    for (const [what, change, expected] of changes) {
      change();
      for (const entry of ['cli', 'plugin'] as const) {
        const extra = { ...fast, MEMTRUST_NOW: nowIso };
        const got = hook(A(), extra, entry);
        expect(got.out, `${what} (${entry})`).toBe(planned(A(), extra, entry));
        if (entry === 'cli') expect(got.how === 'hit' ? 'hit' : 'miss', `${what}: ${got.how}`).toBe(expected);
        // And the run after it answers from what that one kept.
        const again = hook(A(), extra, entry);
        expect(again.how, `${what}, again (${entry})`).toBe('hit');
        expect(again.out).toBe(got.out);
      }
    }
  }, 120_000); // some 60 real processes: minutes on a loaded machine

  it('holds for a project whose memory folder names no memory file (no lifecycle bounds its clock)', () => {
    // A home of its own: the shared one has user-level agent memory, whose lifecycles end the span.
    const cc = path.join(tmp, 'cc-empty');
    const empty = path.join(tmp, 'x', 'empty');
    const mem = path.join(cc, 'projects', encodeProjectPath(empty), 'memory');
    fs.mkdirSync(path.join(empty, '.git'), { recursive: true });
    fs.mkdirSync(mem, { recursive: true });
    fs.writeFileSync(path.join(mem, 'MEMORY.md'), '# Memory index\n');
    const own = { ...fast, CLAUDE_CONFIG_DIR: cc };
    expect(hook(empty, own).how).toBe('kept');
    const hit = hook(empty, own);
    expect(hit.how).toBe('hit');
    expect(hit.out).toBe(planned(empty, own));
  });

  it('is never used with MEMTRUST_SESSION_CACHE=off, and a corrupt entry is planned over', () => {
    hook(A(), fast);
    expect(hook(A(), fast).how).toBe('hit');
    const d = path.join(tmp, 'data', 'memtrust', 'session-text');
    for (const f of fs.readdirSync(d)) fs.writeFileSync(path.join(d, f), '{not json');
    const again = hook(A(), fast);
    expect(again.how).toBe('kept');
    expect(again.out).toBe(planned(A()));
  });

  it('clears the temp files a killed session start left, and depends on none of its own folders', () => {
    const data = path.join(tmp, 'data', 'memtrust');
    const checks = path.join(data, 'session-checks');
    const texts = path.join(data, 'session-text');
    const later = { ...fast, MEMTRUST_NOW: '2026-11-01T11:00:00.000Z' }; // a clock A's kept text does not hold for
    hook(A(), fast); // the bundles built and both folders made, when this test runs alone
    // A pid that ran and ended: a temp file of its can never be renamed.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    // A's kept checks made again, so that its run writes them whole and sweeps their folder.
    fs.rmSync(checks, { recursive: true, force: true });
    fs.mkdirSync(checks, { recursive: true, mode: 0o700 });
    const staleChecks = path.join(checks, `memory-000000.json.${gone}.tmp`);
    fs.writeFileSync(staleChecks, '{"cut sho');
    fs.mkdirSync(texts, { recursive: true, mode: 0o700 });
    const staleText = path.join(texts, `${'0'.repeat(16)}.json.${gone}.tmp`);
    fs.writeFileSync(staleText, '{"cut sho');
    expect(hook(A(), later).how).toBe('kept');
    expect(fs.existsSync(staleChecks)).toBe(false);
    expect(fs.existsSync(staleText)).toBe(false);
    // B's start adds names to both folders: A's kept text holds still.
    const bChecks = fs.readdirSync(checks).length;
    expect(hook(B(), later).how).toBe('kept');
    expect(fs.readdirSync(checks).length).toBeGreaterThan(bChecks);
    const hit = hook(A(), later);
    expect(hit.how).toBe('hit');
    expect(hit.out).toBe(planned(A(), later));
  });
});

describe('keptAnswer (the check at a session start)', () => {
  // A kept answer is one JSON text (what a hook writes); an entry holding anything else is not one.
  const OUT = '{"text":"OUT"}';
  const entry = (over: Partial<Entry> = {}): Entry => ({
    v: 1,
    key: 'k',
    now: Date.parse('2026-11-01T10:00:00Z'),
    until: Date.parse('2026-11-02T00:00:00Z'),
    facts: [],
    deps: [],
    sp: [],
    sn: [],
    out: OUT,
    ...over,
  });

  it('holds on the wall clock from the run’s instant up to, not including, its end', () => {
    const at = (iso: string) => vi.spyOn(Date, 'now').mockReturnValue(Date.parse(iso));
    try {
      at('2026-11-01T10:00:00Z');
      expect(keptAnswer(entry(), 'k')).toBe(OUT);
      at('2026-11-01T23:59:59.999Z');
      expect(keptAnswer(entry(), 'k')).toBe(OUT);
      at('2026-11-02T00:00:00Z');
      expect(keptAnswer(entry(), 'k')).toBeNull();
      at('2026-11-01T09:59:59.999Z'); // a clock set back
      expect(keptAnswer(entry(), 'k')).toBeNull();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('wants the same key, format, facts and dependencies', () => {
    const now = Date.now();
    const base = { now, until: now + 60_000 };
    expect(keptAnswer(entry(base), 'other')).toBeNull();
    expect(keptAnswer(entry({ ...base, v: 0 }), 'k')).toBeNull();
    const home = os.homedir();
    expect(keptAnswer(entry({ ...base, facts: [['os.homedir', home]] }), 'k')).toBe(OUT);
    expect(keptAnswer(entry({ ...base, facts: [['os.homedir', `${home}x`]] }), 'k')).toBeNull();
    expect(keptAnswer(entry({ ...base, facts: [['env:MEMTRUST_TEST_UNSET_VAR', null]] }), 'k')).toBe(OUT);
    expect(keptAnswer(entry({ ...base, facts: [['some.new.fact', 'x']] }), 'k')).toBeNull();
    const f = path.join(os.tmpdir(), `memtrust-kept-dep-${process.pid}`);
    fs.writeFileSync(f, 'x');
    try {
      expect(keptAnswer(entry({ ...base, deps: [[f, 'e', '1']] }), 'k')).toBe(OUT);
      expect(keptAnswer(entry({ ...base, deps: [[f, 'e', '0']] }), 'k')).toBeNull();
      expect(keptAnswer(entry({ ...base, deps: [[f, 's', []]] }), 'k')).toBeNull();
      expect(keptAnswer(entry({ ...base, deps: [[`${f}.none`, 's', []]] }), 'k')).toBe(OUT);
      expect(keptAnswer(entry({ ...base, deps: [[f, 's', statSig(f)]] }), 'k')).toBe(OUT);
      expect(keptAnswer(entry({ ...base, sp: [f], sn: statSig(f) }), 'k')).toBe(OUT);
      const older = statSig(f);
      fs.writeFileSync(f, 'y');
      expect(keptAnswer(entry({ ...base, sp: [f], sn: older }), 'k')).toBeNull();
      expect(keptAnswer(entry({ ...base, sp: [f], sn: [...statSig(f), 0] }), 'k'), 'a malformed list').toBeNull();
      expect(keptAnswer(entry({ ...base, out: 'OUT' }), 'k'), 'an answer not JSON').toBeNull();
    } finally {
      fs.rmSync(f, { force: true });
    }
  });
});

describe('statSig', () => {
  it('reads back the ctime to the millisecond (nanoseconds kept as nine digits)', () => {
    const f = path.join(os.tmpdir(), `memtrust-sig-${process.pid}`);
    try {
      for (let i = 0; i < 20; i++) {
        fs.writeFileSync(f, String(i));
        const st = fs.statSync(f, { bigint: true });
        // Within a microsecond: seconds × 1000 + ns / 1e6 in doubles rounds near the last bit.
        expect(Math.abs(ctimeMsOf(statSig(f)) - Number(st.ctimeNs / 1000n) / 1000)).toBeLessThan(0.002);
      }
      expect(statSig(`${f}.none`)).toEqual([]);
    } finally {
      fs.rmSync(f, { force: true });
    }
  });
});

describe('no copy of a credential', () => {
  it('drops every kept text when the known credential values change', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-kept-kv-'));
    try {
      fs.mkdirSync(path.join(dir, 'session-text'));
      fs.writeFileSync(path.join(dir, 'session-text', 'a.json'), '{}');
      saveKnownValues(dir, new Map());
      expect(fs.existsSync(path.join(dir, 'session-text'))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'known-values.json'))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
