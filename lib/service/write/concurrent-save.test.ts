/**
 * Issue 19, defect 1: an editor saving a memory (or MEMORY.md) while a transition
 * runs — after the transition's last look at the file, while it commits — must
 * never be lost. The save is injected by wrapping the real `fs` call at which the
 * transition commits (link into place, rename over the file, rename out of the
 * way), so the save lands exactly in the window the old code had. Expected: the
 * transition is refused as a conflict naming the file, the save is on disk once,
 * nothing is left over; or (for MEMORY.md, whose edits are re-applied) the
 * transition goes through and the save is kept beside it. See docs/crash-safety.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { transition } from './transition';
import { editMemory } from './create-edit';
import type { ServiceContext } from '../context';
import { journalFiles, memoryFile, openCtx, put, readAudit, sha, tmpFiles, sandboxPerTest } from '../test-support';

const BODY = '\nDeploys go through the staging cluster first.\n\n**Why:** a bad migration in 2025.\n';
const FIELDS: [string, string][] = [
  ['name', 'Deploy order'],
  ['description', 'staging first'],
  ['type', 'feedback'],
  ['created-at', '2026-10-01T00:00:00Z'],
];
const INFERRED = memoryFile([...FIELDS, ['trust-level', 'inferred']], BODY);
const QUARANTINED = memoryFile(
  [...FIELDS, ['trust-level', 'quarantined'], ['quarantine-reason', 'looked wrong'], ['quarantined-at', '2026-11-01']],
  BODY,
);
const saved = (b: Buffer) =>
  Buffer.from(b.toString('utf8').replace('staging cluster', 'staging cluster (saved by the editor)'));
const NAME = 'feedback_deploy_order.md';

// The sandbox goes after the mocks are restored (after-hooks run last-registered first).
const sb = sandboxPerTest({ beforeEach, afterEach }, 'memtrust-save-');
let ctx: ServiceContext;
afterEach(() => vi.restoreAllMocks());

/** Runs `save` once, just before the first call of fs[fn] that touches `target` (as source or destination). */
function saveBefore(fn: 'linkSync' | 'renameSync', target: string, save: () => void): { fired: () => boolean } {
  const real = fs[fn].bind(fs) as (a: fs.PathLike, b: fs.PathLike) => void;
  let fired = false;
  vi.spyOn(fs, fn).mockImplementation(((a: fs.PathLike, b: fs.PathLike) => {
    if (!fired && (String(a) === target || String(b) === target)) {
      fired = true;
      save();
    }
    return real(a, b);
  }) as never);
  return { fired: () => fired };
}

function nothingLeft() {
  expect(journalFiles(sb.root)).toEqual([]);
  expect(tmpFiles(sb.root)).toEqual([]);
  expect(fs.readdirSync(path.join(sb.root, '.memtrust')).filter((n) => n.startsWith('lock'))).toEqual([]);
}

describe('a save that lands while a transition commits is never lost', () => {
  it('demote (a move): the save is kept in memories/, the demote refused as a conflict naming the file', () => {
    const src = put(sb.root, `memories/${NAME}`, INFERRED);
    ctx = openCtx(sb);
    const dst = path.join(sb.root, 'quarantine', NAME);
    const edit = saved(INFERRED);
    const spy = saveBefore('linkSync', dst, () => fs.writeFileSync(src, edit));
    const r = transition(ctx, { ref: NAME, action: 'demote', reason: 'wrong', actor: 'user:cli' });
    expect(spy.fired()).toBe(true);
    expect(r).toMatchObject({ ok: false, code: 'conflict' });
    expect(r.ok ? '' : r.message).toContain(NAME);
    expect(fs.readFileSync(src).equals(edit)).toBe(true);
    expect(fs.existsSync(dst)).toBe(false);
    expect(readAudit(sb.root)).toEqual([]);
    nothingLeft();
  });

  it('restore (a move out of quarantine): the save is kept in quarantine/, the restore refused', () => {
    const src = put(sb.root, `quarantine/${NAME}`, QUARANTINED);
    ctx = openCtx(sb);
    const dst = path.join(sb.root, 'memories', NAME);
    const edit = saved(QUARANTINED);
    const spy = saveBefore('linkSync', dst, () => fs.writeFileSync(src, edit));
    const r = transition(ctx, { ref: NAME, action: 'restore', reason: 'checked', actor: 'user:cli' });
    expect(spy.fired()).toBe(true);
    expect(r).toMatchObject({ ok: false, code: 'conflict' });
    expect(fs.readFileSync(src).equals(edit)).toBe(true);
    expect(fs.existsSync(dst)).toBe(false);
    expect(readAudit(sb.root)).toEqual([]);
    nothingLeft();
  });

  it('promote (an in-place rewrite): the save is kept, the promote refused', () => {
    const src = put(sb.root, `memories/${NAME}`, INFERRED);
    ctx = openCtx(sb);
    const edit = saved(INFERRED);
    const spy = saveBefore('renameSync', src, () => fs.writeFileSync(src, edit));
    const r = transition(ctx, { ref: NAME, action: 'promote', actor: 'user:cli' });
    expect(spy.fired()).toBe(true);
    expect(r).toMatchObject({ ok: false, code: 'conflict' });
    expect(fs.readFileSync(src).equals(edit)).toBe(true);
    expect(readAudit(sb.root)).toEqual([]);
    nothingLeft();
  });

  it('edit from the dashboard (new body, in place): the save made meanwhile is kept, the edit refused', () => {
    const src = put(sb.root, `memories/${NAME}`, INFERRED);
    ctx = openCtx(sb);
    const edit = saved(INFERRED);
    const spy = saveBefore('renameSync', src, () => fs.writeFileSync(src, edit));
    const r = editMemory(
      ctx,
      { source: ctx.sources[0]!.id, filename: NAME },
      {
        name: 'Deploy order',
        description: 'staging first',
        body: 'Deploys go through the staging cluster, always, before production.\n',
      },
      sha(INFERRED),
    );
    expect(spy.fired()).toBe(true);
    expect(r).toMatchObject({ ok: false, code: 'conflict' });
    expect(fs.readFileSync(src).equals(edit)).toBe(true);
    expect(readAudit(sb.root)).toEqual([]);
    nothingLeft();
  });

  it('Claude Code folder: a MEMORY.md line added by an editor during a demote is kept, and the demoted line is gone', () => {
    put(sb.root, NAME, INFERRED);
    put(
      sb.root,
      'user_role.md',
      memoryFile(
        [
          ['name', 'Role'],
          ['description', 'what I do'],
          ['type', 'user'],
        ],
        '\nPlatform engineer.\n',
      ),
    );
    const index = path.join(sb.root, 'MEMORY.md');
    put(sb.root, 'MEMORY.md', `- [Deploy order](${NAME}) — staging first\n- [Role](user_role.md) — what I do\n`);
    ctx = openCtx(sb);
    const added = '- [Editor note](project_editor_note.md) — added by hand while the demote ran\n';
    const spy = saveBefore('renameSync', index, () => fs.appendFileSync(index, added));
    const r = transition(ctx, { ref: NAME, action: 'demote', reason: 'wrong', actor: 'user:cli' });
    expect(spy.fired()).toBe(true);
    expect(r).toMatchObject({ ok: true, noop: false });
    expect(fs.readFileSync(index, 'utf8')).toBe(`- [Role](user_role.md) — what I do\n${added}`);
    expect(fs.existsSync(path.join(sb.root, 'quarantine', NAME))).toBe(true);
    nothingLeft();
  });
});
