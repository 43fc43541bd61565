/**
 * canonicalLayout (adapter.ts): detection that agrees with lib/sources/detect.ts, paths
 * relative to the configured root (project folder or store folder), the detail of the
 * records API, problems and warnings, the change token, and plans whose edits apply
 * from the configured root (reaffirm stamps the HEAD of the moment, restore uses the
 * demote memo).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSource } from '../index';
import { detectLayout } from '../detect';
import { layoutAdapter } from '../registry';
import type { LayoutRead, LayoutRecord } from '../record';
import { canonicalLayout, headState } from './adapter';
import {
  applyToDisk,
  buildProject,
  commitAll,
  git,
  readerFor,
  snapshot,
  tmpDir,
  write,
  type Project,
} from './test-fixtures';

const NOW = new Date('2026-11-23T12:00:00Z');
let p: Project;
beforeAll(() => {
  p = buildProject();
}, 60_000);
afterAll(() => fs.rmSync(p.dir, { recursive: true, force: true }));

const read = (root: string): LayoutRead => canonicalLayout.read(root, { sourceId: 'proj', now: NOW });
const byKey = (r: LayoutRead, key: string): LayoutRecord => {
  const x = r.records.find((y) => y.key === key);
  if (!x) throw new Error(`no ${key} in ${r.records.map((y) => y.key).join(', ')}`);
  return x;
};

describe('detection', () => {
  it('a project folder and its .claude/memory are both canonical, as detect.ts says, and become record sources', () => {
    expect(layoutAdapter('canonical')).toBe(canonicalLayout);
    for (const root of [p.dir, p.mem, p.flat]) {
      const d = detectLayout(root);
      expect(d).toMatchObject({ ok: false, layout: 'canonical' });
      expect(canonicalLayout.detect(root)?.shape).toBe(root === p.flat ? 'flat' : 'sharded');
      const s = describeSource(root);
      expect(s.adapter).toBe(canonicalLayout);
      expect(s.error).toBeNull();
    }
  });

  it('folders detect.ts does not call canonical are not detected', () => {
    const d = tmpDir();
    try {
      // A Claude Code folder whose one memory happens to be called landmarks.md.
      write(d, 'cc/MEMORY.md', '- [landmarks](landmarks.md)\n');
      write(d, 'cc/landmarks.md', '---\nname: landmarks\n---\nbody\n');
      write(d, 'empty/.keep', '');
      write(d, 'trust/memories/a.md', '---\ntype: user\n---\nx\n');
      for (const n of ['cc', 'empty', 'trust', 'missing'])
        expect(canonicalLayout.detect(path.join(d, n)), n).toBeNull();
    } finally {
      fs.rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('read', () => {
  it('locations are relative to the root given; the same records from the project and from the store', () => {
    const fromProject = read(p.dir);
    const fromStore = read(p.mem);
    expect(fromProject.shape).toBe('sharded');
    expect(fromProject.records.map((r) => r.key)).toEqual(fromStore.records.map((r) => r.key));
    for (const r of fromProject.records) {
      expect(r.location.file.startsWith('.claude/memory/'), r.location.file).toBe(true);
      expect(fs.existsSync(path.join(p.dir, r.location.file))).toBe(true);
    }
    for (const r of fromStore.records)
      expect(fs.existsSync(path.join(p.mem, r.location.file)), r.location.file).toBe(true);
  });

  it('maps an entry onto the record model with the detail of the records API', () => {
    const r = read(p.dir);
    const lib = byKey(r, 'libraries/@scope/pkg@1.2');
    expect(lib).toMatchObject({
      id: 'proj:libraries/@scope/pkg@1.2',
      layout: 'canonical',
      title: 'call init() first: it loads the config',
      tier: 'verified',
      origin: 'library-pinned',
      location: { file: '.claude/memory/libraries/scope-pkg.md', line: 1 },
      detail: {
        category: 'libraries',
        shape: 'sharded',
        place: 'store',
        claim: 'call init() first: it loads the config',
        entryKey: '@scope/pkg@1.2',
        store: '.claude/memory/',
      },
    });
    expect(lib.text.startsWith('call init() first: it loads the config\n---\n')).toBe(true);
    expect(lib.text).toContain('key: @scope/pkg@1.2');
    const st = lib.detail.staleness as { basis: string; reason: string };
    expect(st.basis).toBe('missing-commit');
    expect(st.reason).toContain('deadbee');
    const session = byKey(r, 'landmarks/src/auth/session.ts:42');
    expect(session.detail).toMatchObject({
      target: 'src/auth/session.ts:42',
      targetCheck: { ok: true },
      staleness: { stale: true, basis: 'commits', commits: 35, touching: 3 },
    });
    expect(session.flagReasons.stale).toBe(`35 commits since ${p.first}, 3 touch its target`);
    expect(session.title).toBe('Role: token rotation runs on every refresh.');
    const gone = byKey(r, 'landmarks/src/removed.ts:3');
    expect(gone.flags).toContain('suspect');
    expect(gone.refused.reaffirm).toMatch(/target does not re-verify/);
    const util = byKey(r, 'landmarks/src/util.ts:1');
    expect(util.fields.find((f) => f.name === 'owner-note')?.value).toBe('keeps an unknown field');
    // _pending.md candidates: inbox, read-only.
    const cands = r.records.filter((x) => x.flags.includes('inbox'));
    expect(cands.map((x) => x.key).sort()).toEqual([
      '_pending/backlog \u2192 write-the-docs-9f9f',
      '_pending/src/util.ts \u2192 landmarks.md',
    ]);
    for (const c of cands) {
      expect(c.actions).toEqual([]);
      expect(c.detail.place).toBe('inbox');
      for (const a of canonicalLayout.actions) expect(c.refused[a]).toMatch(/_pending\.md candidate is read-only/);
    }
    expect(JSON.parse(JSON.stringify(r.records))).toEqual(r.records);
  });

  it('problems and warnings name files relative to the root; a missing store is a problem, never a throw', () => {
    const r = read(p.dir);
    expect(r.problems).toContainEqual({
      file: '.claude/memory/landmines/no-frontmatter.md',
      line: 1,
      problem: expect.stringContaining('no frontmatter'),
    });
    expect(r.warnings).toEqual([
      expect.stringMatching(/^not read \(not part of a canonical store\): .*\.claude\/memory\/notes\//),
    ]);
    const none = tmpDir();
    try {
      expect(read(none)).toMatchObject({ records: [], problems: [{ file: '.', line: 0 }] });
      expect(canonicalLayout.changeToken(none)).toBe('none');
    } finally {
      fs.rmSync(none, { recursive: true, force: true });
    }
  });

  it('outside git: dates only, said in a warning, and reaffirm of a target entry is refused at read time', () => {
    const d = tmpDir();
    try {
      fs.cpSync(p.mem, path.join(d, 'memory'), { recursive: true });
      const r = read(path.join(d, 'memory'));
      expect(r.warnings).toContain(
        'no git checkout around the store: staleness goes by dates only and targets are not re-verified',
      );
      const util = byKey(r, 'landmarks/src/util.ts:1');
      expect(util.actions).not.toContain('reaffirm');
      expect(util.refused.reaffirm).toMatch(/not re-verified/);
    } finally {
      fs.rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('changeToken', () => {
  it('moves with an entry file and with HEAD, not otherwise', () => {
    const d = tmpDir('canon-token-');
    try {
      fs.cpSync(p.dir, d, { recursive: true });
      const t0 = canonicalLayout.changeToken(d);
      expect(canonicalLayout.changeToken(d)).toBe(t0);
      expect(canonicalLayout.changeToken(path.join(d, '.claude/memory'))).toBe(t0);
      write(d, 'src/other.ts', 'export {};\n');
      expect(canonicalLayout.changeToken(d), 'a source file outside the store').toBe(t0);
      const before = headState(d);
      commitAll(d, 'one more');
      expect(headState(d)).not.toBe(before);
      expect(headState(d)).toMatch(/^refs\/heads\/main=[0-9a-f]{40}$/);
      const t1 = canonicalLayout.changeToken(d);
      expect(t1, 'a new commit').not.toBe(t0);
      git(d, 'pack-refs', '--all');
      expect(canonicalLayout.changeToken(d), 'packed refs: same HEAD').toBe(t1);
      fs.appendFileSync(path.join(d, '.claude/memory/landmarks/src-util-ts-1.md'), 'more\n');
      expect(canonicalLayout.changeToken(d), 'an entry changed').not.toBe(t1);
    } finally {
      fs.rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('plan', () => {
  it('reaffirm from the project root stamps the HEAD of the moment; the edit applies there', () => {
    const d = tmpDir('canon-plan-');
    try {
      fs.cpSync(p.dir, d, { recursive: true });
      const rec = byKey(read(d), 'landmarks/src/util.ts:1');
      const head = commitAll(d, 'after the read');
      const res = canonicalLayout.plan(rec, 'reaffirm', { now: NOW, read: readerFor(d) });
      expect(res.ok, res.ok ? '' : res.reason).toBe(true);
      if (!res.ok) return;
      expect(res.plan.files).toEqual(['.claude/memory/landmarks/src-util-ts-1.md']);
      expect(
        res.plan.edits.every(
          (e) => e.kind === 'replace-lines' && e.file === '.claude/memory/landmarks/src-util-ts-1.md',
        ),
      ).toBe(true);
      applyToDisk(d, res.plan.edits);
      const text = fs.readFileSync(path.join(d, '.claude/memory/landmarks/src-util-ts-1.md'), 'utf8');
      expect(text).toContain(`verified-at: ${head}\n`);
      expect(text).toContain('last-touched: 2026-11-23\n');
      expect(text).toContain('owner-note: keeps an unknown field\n');
      expect(canonicalLayout.plan(rec, 'frobnicate', { now: NOW, read: readerFor(d) })).toMatchObject({
        ok: false,
        reason: expect.stringContaining('no frobnicate'),
      });
    } finally {
      fs.rmSync(d, { recursive: true, force: true });
    }
  });

  it('a flat entry demoted then restored with the demote memo: every byte back as it was', () => {
    const d = tmpDir('canon-flat-');
    try {
      fs.cpSync(p.flat, d, { recursive: true });
      const before = snapshot(d);
      const rec = byKey(read(d), 'landmarks/src/auth/session.ts:42');
      const dem = canonicalLayout.plan(rec, 'demote', { now: NOW, read: readerFor(d), reason: 'contested' });
      expect(dem.ok, dem.ok ? '' : dem.reason).toBe(true);
      if (!dem.ok) return;
      expect(dem.plan.memo).toMatchObject({
        from: 'landmarks.md',
        to: 'quarantine/landmarks.md',
        line: 3,
        beforeKey: 'src/util.ts:1',
      });
      applyToDisk(d, dem.plan.edits);
      const q = byKey(read(d), 'landmarks/src/auth/session.ts:42');
      expect(q.location.file).toBe('quarantine/landmarks.md');
      expect(q.tier).toBe('quarantined');
      const res = canonicalLayout.plan(q, 'restore', {
        now: NOW,
        read: readerFor(d),
        options: { restoreAt: JSON.stringify(dem.plan.memo) },
      });
      expect(res.ok, res.ok ? '' : res.reason).toBe(true);
      if (!res.ok) return;
      applyToDisk(d, res.plan.edits);
      expect(snapshot(d)).toEqual(before);
    } finally {
      fs.rmSync(d, { recursive: true, force: true });
    }
  });

  it('backlog close takes its status from options; without one it is refused', () => {
    const r = read(p.flat);
    const rec = byKey(r, 'backlog/tidy-later-0a0a');
    expect(canonicalLayout.plan(rec, 'close', { now: NOW, read: readerFor(p.flat) })).toMatchObject({
      ok: false,
      reason: 'close needs a status: picked-up or dropped',
    });
    const ok = canonicalLayout.plan(rec, 'close', {
      now: NOW,
      read: readerFor(p.flat),
      options: { status: 'picked-up' },
    });
    expect(ok.ok && ok.plan.summary).toBe('closed tidy-later-0a0a as picked-up');
  });
});
