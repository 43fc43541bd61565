/**
 * The canonical-file layout end to end (docs/canonical-layout.md, "End to end"): the REAL
 * registered adapter, the record service and the real CLI (`node lib/cli/memtrust.cjs`)
 * over two stores of our own writing in a temporary git repository — a sharded
 * `.claude/memory/<category>/<slug>.md` store (root = the project) and a flat
 * `<category>.md` store (root = the store folder). Every action of the layout runs on
 * one entry of each shape; each is checked byte for byte (only the entry's lines or file
 * change, one shape never becomes the other), then `memtrust undo BATCH` puts every byte
 * back. Values are made up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCtx, envFor, openCtx, removeSandbox, runCli, sandbox, TODAY, type Sandbox } from '../test-support';
import { listRecords } from './read';
import { commitAll, git as gitRaw, initRepo, write } from '../../sources/canonical/test-fixtures';

const git = (cwd: string, ...args: string[]) => gitRaw(cwd, ...args).trim();

const put = (root: string, rel: string, text: string) => write(root, rel, text);
const commit = commitAll;

/** src/auth/session.ts with `rotateOnRefresh` on line 12. */
const SESSION = `${Array.from({ length: 30 }, (_, i) =>
  i === 11 ? 'export function rotateOnRefresh(token: string) { return token; }' : `// line ${i + 1}`,
).join('\n')}\n`;

let sb: Sandbox;
let proj: string;
let flat: string;
let first: string;

const fm = (lines: string[], body: string, eol = '\n') => ['---', ...lines, '---', '', ...body.split('\n')].join(eol);

/** The sharded store: entries keyed by anything but their filename; two are not strict YAML. */
function sharded(sha: string): Record<string, string> {
  return {
    'README.md': '# Project memory\n\nNot an entry.\n',
    'landmarks/rotation.md': fm(
      [
        'key: src/auth/session.ts:12',
        'category: landmarks',
        'claim: rotation: runs on every refresh',
        'source: inferred-from-code',
        `verified-at: ${sha}`,
        'last-touched: 2026-09-01',
        'owner-note: an unknown field, kept',
      ],
      '- Role: token rotation (made-up).\n',
    ),
    'landmarks/gone.md': fm(
      ['key: src/removed.ts:3', 'category: landmarks', 'source: incident', `verified-at: ${sha}`],
      '- Role: points at a file that never existed.\n',
    ),
    'libraries/scope-pkg.md': fm(
      [
        'key: @scope/pkg@1.2',
        'category: libraries',
        'claim: call init() first: it loads the config',
        'source: library-pinned',
        `verified-at: ${sha}`,
      ],
      '- Pin: 1.2 (made-up).\n',
    ),
    'backlog/tidy-notes-a1b2.md': fm(
      [
        'key: tidy-notes-a1b2',
        'category: backlog',
        'status: open',
        'source: assistant-deferral',
        'raised-on: 2026-10-02',
      ],
      '- Intent: tidy the notes folder.\n',
    ),
    'backlog/drop-me-c3d4.md': fm(
      ['key: drop-me-c3d4', 'category: backlog', 'status: open', 'raised-on: 2026-10-03'],
      '- Intent: maybe later.\n',
    ),
    'landmines/crlf-trap.md': fm(
      ['key: crlf-trap', 'category: landmines', 'source: incident', `verified-at: ${sha}`],
      '- Trap: Windows line endings (made-up).\r\n',
      '\r\n',
    ),
  };
}

/** The flat store: `## key` blocks with `- name: value` bullets, a frontmatter of its own, CRLF in one file. */
function flatFiles(sha: string): Record<string, string> {
  return {
    'landmarks.md': [
      '---',
      'owners: [scout]',
      'size-cap: 500',
      '---',
      '',
      '# Landmarks',
      '',
      '## src/auth/session.ts:12 — rotation',
      '',
      '- Role: rotation: runs on every refresh',
      '- source: inferred-from-code',
      `- Verified-at: ${sha}`,
      '- Last-touched: 2026-06-01',
      '',
      '---',
      '',
      '## src/cache.ts:2 — the cache',
      '',
      '- Role: cache map (made-up)',
      '- source: inferred-from-code',
      `- Verified-at: ${sha}`,
      '',
      '---',
      '',
      '## src/util.ts:1 — helpers',
      '',
      '- Role: helpers',
      '- source: user-instruction',
      `- Verified-at: ${sha}`,
      '',
    ].join('\n'),
    'libraries.md': [
      '# Libraries',
      '',
      '## @scope/flat@2.0',
      '',
      '- Role: made-up package',
      '- Caveat: one: two',
      `- Verified-at: ${sha}`,
      '',
      '## left-pad@1.3.0',
      '',
      '- Role: pads',
      `- Verified-at: ${sha}`,
      '',
    ].join('\n'),
    'backlog.md': [
      '# Backlog',
      '',
      '## tidy-flat-e5f6 — tidy the flat store',
      '- status: open',
      '- raised-on: 2026-10-04',
      '',
      '## drop-flat-0a0b — maybe',
      '- status: open',
      '- raised-on: 2026-10-05',
      '',
    ].join('\r\n'),
  };
}

beforeAll(() => {
  sb = sandbox('memtrust-canon-cli-');
  proj = path.join(sb.tmp, 'proj');
  fs.mkdirSync(proj);
  initRepo(proj);
  put(proj, 'src/auth/session.ts', SESSION);
  put(proj, 'src/cache.ts', '// cache\nexport const cache = new Map();\n');
  put(proj, 'src/util.ts', 'export const x = 1;\n');
  first = commit(proj, 'first');
  // 31 more commits, 3 of them touching the session file: every entry verified at `first` is stale.
  for (let i = 1; i <= 31; i++) {
    if (i % 10 === 0) put(proj, 'src/auth/session.ts', `${SESSION}// edit ${i}\n`);
    else put(proj, `notes/n${i}.txt`, `note ${i}\n`);
    commit(proj, `change ${i}`);
  }
  for (const [rel, text] of Object.entries(sharded(first))) put(path.join(proj, '.claude/memory'), rel, text);
  flat = path.join(proj, 'flatmem');
  for (const [rel, text] of Object.entries(flatFiles(first))) put(flat, rel, text);
  sb.env = envFor([proj, flat].join(path.delimiter), sb.db, sb.tmp);
});
afterAll(() => removeSandbox(sb));

const cli = (...args: string[]) => runCli(args, sb.env);
const ok = (...args: string[]) => {
  const r = cli(...args);
  expect(r.status, `${args.join(' ')}\n${r.stderr}`).toBe(0);
  return r;
};
const batchOf = (stdout: string) => /memtrust undo (\S+)/.exec(stdout)![1]!;
const head = () => git(proj, 'rev-parse', '--short=7', 'HEAD');

interface ListItem {
  id: string;
  key: string;
  tier: string;
  flags: string[];
  flagReasons: Record<string, string>;
  actions: string[];
  refused: Record<string, string>;
  root: string;
}
function records(): ListItem[] {
  const r = ok('list', '--json');
  const out = JSON.parse(r.stdout) as { records?: ListItem[]; items?: ListItem[] } | ListItem[];
  return Array.isArray(out) ? out : (out.records ?? out.items ?? []);
}
/** The record's full id in the given root (ids are `<source>:<key>`; the source names the root). */
function idIn(key: string, shape: 'sharded' | 'flat'): string {
  const r = records().find((x) => x.key === key && x.root === (shape === 'flat' ? flat : proj));
  expect(r, `${key} (${shape})`).toBeTruthy();
  return r!.id;
}

/** Every file of a folder, `<prefix><path>` → its bytes as latin1 (one char per byte), memtrust's own folder left out. */
function files(dir: string, prefix: string, out: Record<string, string> = {}): Record<string, string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === '.memtrust') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) files(p, `${prefix}${e.name}/`, out);
    else out[`${prefix}${e.name}`] = fs.readFileSync(p).toString('latin1');
  }
  return out;
}
/** Both stores' files: `p/.claude/memory/…` (sharded) and `f/…` (flat). */
const tree = () => ({ ...files(path.join(proj, '.claude/memory'), 'p/.claude/memory/'), ...files(flat, 'f/') });
/** What changed between two trees: file → [before, after] (undefined: absent). */
function diff(a: Record<string, string>, b: Record<string, string>): Record<string, [string?, string?]> {
  const out: Record<string, [string?, string?]> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (a[k] !== b[k]) out[k] = [a[k], b[k]];
  return out;
}

/** Runs an action, checks exactly the expected files changed to the expected bytes, undoes it, checks every byte is back. */
function roundTrip(args: string[], expected: (before: Record<string, string>) => Record<string, string | undefined>) {
  const before = tree();
  const r = ok(...args);
  const after = tree();
  const want = expected(before);
  const changed = diff(before, after);
  expect(Object.keys(changed).sort(), `${args.join(' ')} changed`).toEqual(Object.keys(want).sort());
  for (const [file, bytes] of Object.entries(want)) expect(after[file], file).toBe(bytes);
  const u = ok('undo', batchOf(r.stdout));
  expect(u.stdout).toMatch(/undo|undone/i);
  expect(tree(), `undo of ${args.join(' ')}`).toEqual(before);
  return r;
}

describe('canonical records through the service and the real CLI', () => {
  it('reads both shapes with keys, categories, staleness by commits and re-verified targets', () => {
    const all = records();
    const rot = all.find((x) => x.key === 'landmarks/src/auth/session.ts:12' && x.root === proj)!;
    expect(rot.flags).toContain('stale');
    expect(rot.flagReasons.stale).toMatch(new RegExp(`^31 commits since ${first}, 3 touch its target`));
    const shown = JSON.parse(ok('show', rot.id, '--json').stdout);
    expect(shown.detail).toMatchObject({ category: 'landmarks', shape: 'sharded', targetCheck: { ok: true } });
    expect(shown.detail.staleness).toMatchObject({ stale: true, commits: 31, touching: 3 });
    expect(rot.actions).toContain('reaffirm');
    const flatRot = all.find((x) => x.key === 'landmarks/src/auth/session.ts:12' && x.root === flat)!;
    expect(flatRot.flagReasons.stale).toMatch(/^31 commits since/);
    // Not strict YAML (an unquoted `@`, a `: ` inside a value): read, with their keys.
    expect(all.map((x) => x.key)).toEqual(
      expect.arrayContaining(['libraries/@scope/pkg@1.2', 'libraries/@scope/flat@2.0', 'backlog/tidy-notes-a1b2']),
    );
    const gone = all.find((x) => x.key === 'landmarks/src/removed.ts:3')!;
    expect(gone.flags).toContain('suspect');
    expect(gone.refused.reaffirm).toMatch(/src\/removed\.ts/);
  });

  it('the record service filters by category and by shape (detail.category, detail.shape)', () => {
    const ctx = openCtx(sb);
    try {
      const backlog = listRecords(ctx, { category: 'backlog' }).items;
      expect(backlog.map((r) => r.key).sort()).toEqual([
        'backlog/drop-flat-0a0b',
        'backlog/drop-me-c3d4',
        'backlog/tidy-flat-e5f6',
        'backlog/tidy-notes-a1b2',
      ]);
      const flatBacklog = listRecords(ctx, { category: 'backlog', shape: 'flat' });
      expect(flatBacklog.total).toBe(2);
      expect(
        flatBacklog.items.every((r) => r.detail.shape === 'flat' && r.source === flatBacklog.items[0]!.source),
      ).toBe(true);
      expect(listRecords(ctx, { shape: 'sharded' }).total).toBe(6);
      expect(listRecords(ctx, { category: 'constraints' }).total).toBe(0);
    } finally {
      closeCtx(sb);
    }
  });

  it('reaffirm re-stamps verified-at with HEAD and last-touched with today, in each shape; undo puts every byte back', () => {
    const sha = head();
    const rel = 'p/.claude/memory/landmarks/rotation.md';
    roundTrip(['reaffirm', idIn('landmarks/src/auth/session.ts:12', 'sharded')], (b) => ({
      [rel]: b[rel]!.replace(`verified-at: ${first}`, `verified-at: ${sha}`).replace(
        'last-touched: 2026-09-01',
        `last-touched: ${TODAY}`,
      ),
    }));
    roundTrip(['reaffirm', idIn('landmarks/src/auth/session.ts:12', 'flat')], (b) => ({
      'f/landmarks.md': b['f/landmarks.md']!.replace(
        `- Verified-at: ${first}\n- Last-touched: 2026-06-01`,
        `- Verified-at: ${sha}\n- Last-touched: ${TODAY}`,
      ),
    }));
    // A flat block without last-touched gains the bullet after its last content line.
    roundTrip(['reaffirm', idIn('libraries/left-pad@1.3.0', 'flat')], (b) => ({
      'f/libraries.md': b['f/libraries.md']!.replace(
        `- Role: pads\n- Verified-at: ${first}\n`,
        `- Role: pads\n- Verified-at: ${sha}\n- last-touched: ${TODAY}\n`,
      ),
    }));
  });

  it('after a reaffirm the entry is fresh by commits, and the stamp is the real HEAD', () => {
    const r = ok('reaffirm', idIn('landmarks/src/auth/session.ts:12', 'sharded'));
    const fresh = records().find((x) => x.key === 'landmarks/src/auth/session.ts:12' && x.root === proj)!;
    expect(fresh.flags).not.toContain('stale');
    expect(fresh.flagReasons.stale ?? '').toBe('');
    expect(fs.readFileSync(path.join(proj, '.claude/memory/landmarks/rotation.md'), 'utf8')).toContain(
      `verified-at: ${head()}\n`,
    );
    ok('undo', batchOf(r.stdout));
  });

  it('archive writes the closure field in each shape (entries that are not strict YAML stay rewritable)', () => {
    const rel = 'p/.claude/memory/libraries/scope-pkg.md';
    roundTrip(['archive', idIn('libraries/@scope/pkg@1.2', 'sharded')], (b) => ({
      [rel]: b[rel]!.replace('\n---\n\n- Pin', `\nsuperseded-at: ${TODAY}\n---\n\n- Pin`),
    }));
    roundTrip(['archive', idIn('libraries/@scope/flat@2.0', 'flat')], (b) => ({
      'f/libraries.md': b['f/libraries.md']!.replace(
        `- Caveat: one: two\n- Verified-at: ${first}\n`,
        `- Caveat: one: two\n- Verified-at: ${first}\n- superseded-at: ${TODAY}\n`,
      ),
    }));
  });

  it('backlog close as picked-up and as dropped, in each shape (a CRLF file keeps CRLF)', () => {
    const a = 'p/.claude/memory/backlog/tidy-notes-a1b2.md';
    roundTrip(
      ['record-action', idIn('backlog/tidy-notes-a1b2', 'sharded'), 'close', '--option', 'status=picked-up'],
      (b) => ({
        [a]: b[a]!.replace('status: open\n', 'status: picked-up\n').replace(
          '\n---\n\n-',
          `\nsuperseded-at: ${TODAY}\n---\n\n-`,
        ),
      }),
    );
    const d = 'p/.claude/memory/backlog/drop-me-c3d4.md';
    roundTrip(
      ['record-action', idIn('backlog/drop-me-c3d4', 'sharded'), 'close', '--option', 'status=dropped'],
      (b) => ({
        [d]: b[d]!.replace('status: open\n', 'status: dropped\n').replace(
          '\n---\n\n-',
          `\nsuperseded-at: ${TODAY}\n---\n\n-`,
        ),
      }),
    );
    roundTrip(
      ['record-action', idIn('backlog/drop-flat-0a0b', 'flat'), 'close', '--option', 'status=dropped'],
      (b) => ({
        'f/backlog.md': b['f/backlog.md']!.replace(
          '- status: open\r\n- raised-on: 2026-10-05\r\n',
          `- status: dropped\r\n- raised-on: 2026-10-05\r\n- superseded-at: ${TODAY}\r\n`,
        ),
      }),
    );
    // A close without its status is refused with the reason, nothing written.
    const before = tree();
    const r = cli('record-action', idIn('backlog/tidy-flat-e5f6', 'flat'), 'close');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/picked-up or dropped/);
    expect(tree()).toEqual(before);
  });

  it('demote with a reason moves the entry to quarantine in its own shape; restore puts it back in its place', () => {
    const t0 = tree();
    // Sharded (a CRLF file): moved to quarantine/<category>/, the two fields added with CRLF.
    const src = 'p/.claude/memory/landmines/crlf-trap.md';
    const dst = 'p/.claude/memory/quarantine/landmines/crlf-trap.md';
    const d1 = ok('demote', idIn('landmines/crlf-trap', 'sharded'), '--reason', 'the trap is gone: fixed upstream');
    const t1 = tree();
    expect(diff(t0, t1)).toEqual({
      [src]: [t0[src], undefined],
      [dst]: [
        undefined,
        t0[src]!.replace(
          '\r\n---\r\n\r\n',
          `\r\nquarantined-at: ${TODAY}\r\nquarantine-reason: the trap is gone: fixed upstream\r\n---\r\n\r\n`,
        ),
      ],
    });
    // Flat: the middle block leaves landmarks.md and goes to the end of a flat quarantine/landmarks.md.
    const block = t0['f/landmarks.md']!.slice(
      t0['f/landmarks.md']!.indexOf('## src/cache.ts:2'),
      t0['f/landmarks.md']!.indexOf('## src/util.ts:1'),
    );
    const d2 = ok('demote', idIn('landmarks/src/cache.ts:2', 'flat'), '--reason', 'cache removed');
    const t2 = tree();
    expect(t2['f/landmarks.md']).toBe(t0['f/landmarks.md']!.replace(block, ''));
    expect(t2['f/quarantine/landmarks.md']).toBe(
      block.replace(
        `- Verified-at: ${first}\n`,
        `- Verified-at: ${first}\n- quarantined-at: ${TODAY}\n- quarantine-reason: cache removed\n`,
      ),
    );
    expect(Object.keys(diff(t1, t2)).sort()).toEqual(['f/landmarks.md', 'f/quarantine/landmarks.md']);
    const q = records()
      .filter((x) => x.tier === 'quarantined')
      .map((x) => x.key);
    expect(q).toEqual(expect.arrayContaining(['landmines/crlf-trap', 'landmarks/src/cache.ts:2']));

    // Restore: both back where they were, every byte as before the demote.
    const r1 = ok('restore', idIn('landmines/crlf-trap', 'sharded'));
    const r2 = ok('restore', idIn('landmarks/src/cache.ts:2', 'flat'));
    expect(tree()).toEqual(t0);
    // Undo in reverse order walks back through each state.
    ok('undo', batchOf(r2.stdout));
    const pick = (t: Record<string, string>, p: string) => Object.entries(t).filter(([k]) => k.startsWith(p));
    expect(tree()).toEqual(Object.fromEntries([...pick(t0, 'p/'), ...pick(t2, 'f/')]));
    ok('undo', batchOf(r1.stdout));
    expect(tree()).toEqual(t2);
    ok('undo', batchOf(d2.stdout));
    expect(tree()).toEqual(t1);
    ok('undo', batchOf(d1.stdout));
    expect(tree()).toEqual(t0);
  });

  it('demote without a reason is refused; nothing on disk changes', () => {
    const before = tree();
    const r = cli('demote', idIn('landmines/crlf-trap', 'sharded'));
    expect(r.status).not.toBe(0);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(tree()).toEqual(before);
  });

  it('a target gone after a commit → suspect; reaffirm refused with the reason, nothing written', () => {
    const before = tree();
    const id = idIn('landmarks/src/cache.ts:2', 'flat');
    fs.rmSync(path.join(proj, 'src/cache.ts'));
    commit(proj, 'remove the cache');
    try {
      const rec = records().find((x) => x.id === id)!;
      expect(rec.flags).toContain('suspect');
      expect(rec.flagReasons.suspect).toMatch(/src\/cache\.ts/);
      const r = cli('reaffirm', id);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/reaffirm refused .*src\/cache\.ts/);
      const g = cli('reaffirm', idIn('landmarks/src/removed.ts:3', 'sharded'));
      expect(g.status).toBe(2);
      expect(g.stderr).toMatch(/src\/removed\.ts/);
      expect(tree()).toEqual(before);
    } finally {
      put(proj, 'src/cache.ts', '// cache\nexport const cache = new Map();\n');
      commit(proj, 'restore the cache');
    }
  });
});
