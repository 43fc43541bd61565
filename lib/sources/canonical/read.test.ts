import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detect, read, CanonicalReadError } from './read';
import { GitIndex, walkGit } from './git';
import { buildProject, commitAll, initRepo, tmpDir, write, type Project } from './test-fixtures';
import type { MemoryRecord } from './types';

const NOW = new Date('2026-11-23T12:00:00Z');
/** A store with one entry whose verified-at is quoted and carries a note. */
function q2(): string {
  const d = tmpDir();
  write(d, 'landmarks/a.md', '---\nkey: a\nverified-at: "abc1234"  # checked by hand\n---\n');
  return d;
}
let p: Project;

beforeAll(() => {
  p = buildProject();
});
afterAll(() => fs.rmSync(p.dir, { recursive: true, force: true }));

function byKey(records: MemoryRecord[], key: string): MemoryRecord {
  const r = records.find((x) => x.key === key);
  if (!r) throw new Error(`no record ${key}: ${records.map((x) => x.key).join(', ')}`);
  return r;
}

describe('detect', () => {
  it('tells the two shapes apart and refuses other folders', () => {
    expect(detect(p.mem)?.shape).toBe('sharded');
    expect(detect(p.flat)).toEqual({
      shape: 'flat',
      categories: { landmarks: 'flat', libraries: 'flat', 'pending-questions': 'flat', backlog: 'flat' },
    });
    const cc = tmpDir();
    write(cc, 'MEMORY.md', '- [a](a.md) — hook\n');
    write(cc, 'a.md', '---\nname: a\n---\nbody\n');
    expect(detect(cc)).toBeNull();
    expect(() => read(cc, { now: NOW })).toThrow(CanonicalReadError);
  });
});

describe('read, sharded', () => {
  it('reads every entry by key, skips non-entries, reports failures and unknown folders', () => {
    const r = read(p.mem, { now: NOW, sourceId: 'proj' });
    const keys = r.records.map((x) => x.key).sort();
    expect(keys).toEqual(
      [
        '@scope/pkg@1.2',
        'Q-001',
        'auth-jwt-vs-session',
        'backlog \u2192 write-the-docs-9f9f',
        'crlf-entry',
        'no-network',
        'old-convention',
        'old-trap',
        'session-rotation',
        'src/auth/session.ts:42',
        'src/removed.ts:3',
        'src/util.ts \u2192 landmarks.md',
        'src/util.ts:1',
        'tidy-the-notes-a1b2',
      ].sort(),
    );
    expect(r.failures).toEqual([
      { file: 'landmines/no-frontmatter.md', line: 1, problem: expect.stringContaining('no frontmatter') },
    ]);
    expect(r.ignored).toEqual(['notes/']);
    expect(r.head).toBe(p.head);
    expect(byKey(r.records, 'src/util.ts:1').id).toBe('proj:landmarks/src/util.ts:1');
  });

  it('keeps non-strict YAML values verbatim and unknown fields', () => {
    const r = read(p.mem, { now: NOW });
    const lib = byKey(r.records, '@scope/pkg@1.2');
    expect(lib.canonical.claim).toBe('call init() first: it loads the config');
    expect(lib.tier).toBe('verified');
    const util = byKey(r.records, 'src/util.ts:1');
    expect(util.fields.find((f) => f.name === 'owner-note')).toEqual({
      name: 'owner-note',
      value: 'keeps an unknown field',
      line: 7,
    });
    const quoted = read(q2(), { now: NOW, checkout: null }).records[0]!;
    expect(quoted.canonical.verifiedSha).toBe('abc1234');
    const crlf = byKey(r.records, 'crlf-entry');
    expect(crlf.canonical.claim).toBe('Trap: windows line endings.');
    expect(crlf.fields.find((f) => f.name === 'verified-at')?.value).toBe(p.recent);
  });

  it('maps tiers by source, closure and place', () => {
    const r = read(p.mem, { now: NOW });
    expect(byKey(r.records, 'src/auth/session.ts:42').tier).toBe('inferred');
    expect(byKey(r.records, 'src/removed.ts:3').tier).toBe('verified'); // incident
    expect(byKey(r.records, 'old-convention').tier).toBe('inferred'); // no source
    expect(byKey(r.records, 'Q-001')).toMatchObject({
      tier: 'archived',
      native: 'closed (resolved-at 2026-10-01)',
      actions: [],
    });
    expect(byKey(r.records, 'old-trap')).toMatchObject({
      tier: 'quarantined',
      place: 'quarantine',
      actions: ['restore'],
    });
    expect(byKey(r.records, 'tidy-the-notes-a1b2')).toMatchObject({
      native: 'open',
      actions: ['reaffirm', 'close', 'demote'],
    });
  });

  it('explains staleness by commits, missing commits and dates; backlog and decisions are exempt', () => {
    const r = read(p.mem, { now: NOW });
    const old = byKey(r.records, 'src/auth/session.ts:42');
    expect(old.flags).toContain('stale');
    expect(old.flagReasons.stale).toBe(`35 commits since ${p.first}, 3 touch its target`);
    expect(old.staleness).toMatchObject({ commits: 35, touching: 3, basis: 'commits' });
    const fresh = byKey(r.records, 'src/util.ts:1');
    expect(fresh.flags).toEqual([]);
    expect(fresh.staleness?.reason).toBe(`5 commits since ${p.recent}, 0 touch its target`);
    expect(byKey(r.records, '@scope/pkg@1.2').flagReasons.stale).toBe(
      'verified at a commit this checkout does not have (deadbee)',
    );
    expect(byKey(r.records, 'old-convention').flagReasons.stale).toBe('326 days since 2026-01-01 (stale at 90)');
    const backlog = byKey(r.records, 'tidy-the-notes-a1b2');
    expect(backlog.flags).not.toContain('stale');
    expect(backlog.staleness?.reason).toBe(`backlog entries never go stale by age (35 commits since ${p.first})`);
    expect(byKey(r.records, 'auth-jwt-vs-session').flags).not.toContain('stale');
  });

  it('re-verifies targets: line, symbol, governs paths and globs, ignored paths, false constraints', () => {
    const r = read(p.mem, { now: NOW });
    expect(byKey(r.records, 'src/auth/session.ts:42').targetCheck).toMatchObject({
      ok: true,
      checked: ['src/auth/session.ts:42 exists'],
    });
    expect(byKey(r.records, 'session-rotation').flagReasons.suspect).toBe(
      'rotateOnRefresh moved to line 42 of src/auth/session.ts (target says 5)',
    );
    expect(byKey(r.records, 'src/removed.ts:3').flagReasons.suspect).toBe('src/removed.ts is missing');
    const d = byKey(r.records, 'auth-jwt-vs-session');
    expect(d.targetCheck?.ignored).toEqual(['build/out.js', 'dist/**']);
    expect(d.flagReasons.suspect).toBe(
      'docs/missing.md is missing; lib/**/*.zz matches nothing; rests on constraint no-network, whose state is false',
    );
    expect(d.refused.reaffirm).toMatch(/^the target does not re-verify/);
    expect(byKey(r.records, 'no-network').targetCheck?.ok).toBe(true);
  });

  it('lists _pending.md candidates as inbox, read-only', () => {
    const r = read(p.mem, { now: NOW });
    const inbox = r.records.filter((x) => x.flags.includes('inbox'));
    expect(inbox.map((x) => x.key)).toEqual(['src/util.ts \u2192 landmarks.md', 'backlog \u2192 write-the-docs-9f9f']);
    for (const c of inbox) {
      expect(c).toMatchObject({ tier: 'inferred', native: 'candidate', actions: [], place: 'inbox' });
      expect(c.refused.demote).toMatch(/read-only/);
    }
  });

  it('flags a key present in the store and in quarantine as a conflict and refuses writes', () => {
    const q = tmpDir();
    write(q, 'landmines/a.md', '---\nkey: same\n---\n- x\n');
    write(q, 'quarantine/landmines/a.md', '---\nkey: same\nquarantined-at: 2026-11-01\n---\n- x\n');
    const r = read(q, { now: NOW, checkout: null });
    expect(r.records.map((x) => x.flags)).toEqual([['conflict'], ['conflict']]);
    expect(r.records[1]!.id).toBe('canonical:landmines/same@quarantine/landmines/a.md:1');
    expect(r.records[0]!.actions).toEqual([]);
  });

  it('walks git once: at most three git processes for the whole store', () => {
    const shim = tmpDir('gitshim-');
    const log = path.join(shim, 'calls.log');
    const real = process.env
      .PATH!.split(':')
      .map((d) => path.join(d, 'git'))
      .find((g) => fs.existsSync(g))!;
    write(shim, 'git', `#!/bin/sh\necho "$@" >> ${log}\nexec ${real} "$@"\n`);
    fs.chmodSync(path.join(shim, 'git'), 0o755);
    // 40 more entries, each with a SHA and a target: a per-entry git call would show.
    for (let i = 0; i < 40; i++)
      write(
        p.mem,
        `landmarks/extra-${i}.md`,
        `---\nkey: src/util.ts:${(i % 1) + 1}#${i}\ntarget: src/util.ts:1\ngoverns: src/**\nverified-at: ${p.first}\n---\n- x\n`,
      );
    const oldPath = process.env.PATH;
    process.env.PATH = `${shim}:${oldPath}`;
    try {
      const r = read(p.mem, { now: NOW });
      expect(r.records.length).toBeGreaterThan(50);
    } finally {
      process.env.PATH = oldPath;
      for (let i = 0; i < 40; i++) fs.rmSync(path.join(p.mem, `landmarks/extra-${i}.md`));
    }
    const calls = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(calls.filter((c) => / log /.test(` ${c} `))).toHaveLength(1);
    expect(calls.length).toBeLessThanOrEqual(3);
  });
});

describe('mixed and migrating stores', () => {
  it('reads each category in its own shape; a flat file beside its folder is listed as ignored', () => {
    const q = tmpDir();
    write(q, 'landmarks/a.md', '---\nkey: sharded-one\n---\n- x\n');
    write(q, 'landmarks.md', '## left-behind\n- x: y\n');
    write(q, 'decisions.md', '## flat-one\n- Decision: d\n');
    const r = read(q, { now: NOW, checkout: null });
    expect(r.detected).toEqual({ shape: 'sharded', categories: { landmarks: 'sharded', decisions: 'flat' } });
    expect(r.records.map((x) => `${x.shape}:${x.key}`)).toEqual(['sharded:sharded-one', 'flat:flat-one']);
    expect(r.ignored).toEqual(['landmarks.md']);
  });

  // Root reads every folder, so this one only runs as an ordinary user.
  it.skipIf(process.getuid?.() === 0)('an unreadable category folder is a failure line, the rest is read', () => {
    const q = tmpDir();
    write(q, 'landmarks/a.md', '---\nkey: a\n---\n');
    write(q, 'decisions/b.md', '---\nkey: b\n---\n');
    fs.chmodSync(path.join(q, 'landmarks'), 0o000);
    try {
      const r = read(q, { now: NOW, checkout: null });
      expect(r.records.map((x) => x.key)).toEqual(['b']);
      expect(r.failures).toEqual([{ file: 'landmarks/', line: 0, problem: 'folder unreadable (EACCES)' }]);
    } finally {
      fs.chmodSync(path.join(q, 'landmarks'), 0o755);
    }
  });
});

describe('refusals', () => {
  it('a symlinked entry file is reported, not read', () => {
    const q = tmpDir();
    write(q, 'elsewhere.md', '---\nkey: outside\n---\n');
    write(q, 'landmines/a.md', '---\nkey: inside\n---\n');
    fs.symlinkSync(path.join(q, 'elsewhere.md'), path.join(q, 'landmines/link.md'));
    const r = read(q, { now: NOW, checkout: null });
    expect(r.records.map((x) => x.key)).toEqual(['inside']);
    expect(r.failures).toEqual([{ file: 'landmines/link.md', line: 0, problem: 'symlinked entry files are refused' }]);
    expect(r.ignored).toEqual(['elsewhere.md']);
  });

  it('reaffirm needs a target that was re-verified', async () => {
    const { plan } = await import('./plan');
    const { readerFor } = await import('./test-fixtures');
    const noCheckout = read(p.mem, { now: NOW, checkout: null }).records.find(
      (x) => x.key === 'src/auth/session.ts:42',
    )!;
    expect(plan(noCheckout, 'reaffirm', NOW, { read: readerFor(p.mem), head: p.head })).toEqual({
      ok: false,
      reason: 'the target was not re-verified (no project checkout was read); reaffirm needs a fresh check',
    });
    const checked = read(p.mem, { now: NOW }).records.find((x) => x.key === 'src/auth/session.ts:42')!;
    const ok = plan(checked, 'reaffirm', NOW, { read: readerFor(p.mem), head: p.head });
    expect(ok.ok).toBe(true);
  });
});

describe('the git walk on unusual paths', () => {
  it('keeps spaces, non-ASCII and quotes in touched paths (NUL-separated, unquoted)', () => {
    const d = tmpDir('canon-walk-');
    initRepo(d);
    write(d, 'dir with space/\u00fc \u00f1 "q".ts', 'x\n');
    const a = commitAll(d, 'one');
    write(d, 'dir with space/\u00fc \u00f1 "q".ts', 'y\n');
    commitAll(d, 'two');
    const g = new GitIndex(walkGit(d)!);
    expect(g.commits.map((c) => c.files)).toEqual([
      ['dir with space/\u00fc \u00f1 "q".ts'],
      ['dir with space/\u00fc \u00f1 "q".ts'],
    ]);
    expect(g.touchingSince(g.resolve(a) as number, ['dir with space/**'])).toBe(1);
    fs.rmSync(d, { recursive: true, force: true });
  });
});

describe('read, flat', () => {
  it('reads ## blocks by heading key, skips the file frontmatter and fenced headings', () => {
    const r = read(p.flat, { now: NOW });
    expect(r.records.map((x) => `${x.category}/${x.key}@${x.location.line}-${x.location.endLine}`).sort()).toEqual(
      [
        'backlog/tidy-later-0a0a@3-6',
        'landmarks/src/auth/session.ts:42@3-11',
        'landmarks/src/util.ts:1@12-15',
        'libraries/@scope/pkg@1.2@8-13',
        'pending-questions/Q-002@13-20',
        'pending-questions/Q-005@21-23',
      ].sort(),
    );
    expect(r.failures).toEqual([]);
  });

  it('reads bullet fields case-insensitively and closed headings as archived', () => {
    const r = read(p.flat, { now: NOW });
    const lib = byKey(r.records, '@scope/pkg@1.2');
    expect(lib.tier).toBe('verified'); // flat, a verified marker, no source
    expect(lib.canonical).toMatchObject({
      verifiedSha: p.first,
      verifiedFrom: 'verified-at',
      claim: 'Role: made-up package.',
    });
    expect(lib.fields.map((f) => f.name)).toEqual(['Role', 'Verified-at', 'Last-touched', 'Caveat']);
    expect(lib.flagReasons.stale).toBe(`35 commits since ${p.first}`);
    const q2 = byKey(r.records, 'Q-002');
    expect(q2.canonical.added).toBe('2026-07-10');
    expect(byKey(r.records, 'Q-005')).toMatchObject({ tier: 'archived', native: 'closed (CLOSED 2026-05-16)' });
  });
});
