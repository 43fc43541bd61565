/**
 * Test support: canonical stores of our own writing in both shapes, inside a temporary
 * git repository whose commits touch the entries' targets. Values are made up.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyEdits } from '../edits';
import type { FileEdit } from './types';

export function tmpDir(prefix = 'canon-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function write(root: string, rel: string, text: string | Buffer): void {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.invalid',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: os.tmpdir(),
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function initRepo(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'commit.gpgsign', 'false');
}

/** Commits everything staged-or-not with a message; returns the short SHA. */
export function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return git(dir, 'rev-parse', '--short=7', 'HEAD').trim();
}

/** Applies a plan's edits to disk (what the write pipeline will do, minus journal and fsync). */
export function applyToDisk(root: string, edits: FileEdit[]): void {
  const read = (rel: string) => {
    try {
      return fs.readFileSync(path.join(root, rel));
    } catch {
      return null;
    }
  };
  const result = applyEdits(read, edits);
  for (const [rel, bytes] of result) {
    const p = path.join(root, rel);
    if (bytes === null) fs.rmSync(p, { force: true });
    else {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, bytes);
    }
  }
}

export function readerFor(root: string): (rel: string) => Buffer | null {
  return (rel) => {
    try {
      return fs.readFileSync(path.join(root, rel));
    } catch {
      return null;
    }
  };
}

/** Every file under a folder, path → bytes (for byte-identity checks). */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), fs.readFileSync(p).toString('latin1'));
    }
  };
  walk(dir);
  return out;
}

export interface Project {
  dir: string;
  /** The sharded store (.claude/memory) and a flat one (.claude/memory-flat). */
  mem: string;
  flat: string;
  /** Short SHAs: the first commit, the 30th after it, and HEAD. */
  first: string;
  recent: string;
  head: string;
}

function sessionTs(symbolLine: number): string {
  const lines: string[] = [];
  for (let i = 1; i <= 60; i++)
    lines.push(i === symbolLine ? 'export function rotateOnRefresh(token: string) { return token; }' : `// line ${i}`);
  return `${lines.join('\n')}\n`;
}

/**
 * A project with 36 commits: the first holds the sources the entries point at, then 35
 * more, 3 of which touch src/auth/session.ts. Stores are written after the history so
 * their `verified-at` values can name real SHAs.
 */
export function buildProject(): Project {
  const dir = tmpDir('canon-proj-');
  initRepo(dir);
  write(dir, '.gitignore', 'build/\ndist/\n.claude/memory/_pending.md\n');
  write(dir, 'src/auth/session.ts', sessionTs(42));
  write(dir, 'src/util.ts', 'export const x = 1;\n');
  write(dir, 'scripts/run.mjs', 'console.log(1);\n');
  const first = commitAll(dir, 'first');
  let recent = first;
  for (let i = 1; i <= 35; i++) {
    if (i % 10 === 0) write(dir, 'src/auth/session.ts', `${sessionTs(42)}// edit ${i}\n`);
    else write(dir, `notes/n${i}.txt`, `note ${i}\n`);
    const sha = commitAll(dir, `change ${i}`);
    if (i === 30) recent = sha;
  }
  const head = git(dir, 'rev-parse', '--short=7', 'HEAD').trim();
  fs.mkdirSync(path.join(dir, 'build'), { recursive: true });
  const mem = path.join(dir, '.claude/memory');
  const flat = path.join(dir, '.claude/memory-flat');
  writeSharded(mem, first, recent);
  writeFlat(flat, first);
  return { dir, mem, flat, first, recent, head };
}

export function writeSharded(mem: string, first: string, recent: string): void {
  const fm = (lines: string[], body = '- Role: made-up entry for tests.\n') =>
    `---\n${lines.join('\n')}\n---\n\n${body}`;
  write(mem, 'README.md', '# Project memory\n\n## Files\n\nNot an entry.\n');
  write(mem, '_discard-ledger.md', '## not-an-entry\n- source: none\n');
  write(mem, '_resume.md', '## resume\n');
  write(mem, '_thread.md', '## thread\n');
  write(
    mem,
    'landmarks/src-auth-session-ts-42.md',
    fm(
      [
        'key: src/auth/session.ts:42',
        'category: landmarks',
        'scope: [scout]',
        'source: inferred-from-code',
        `verified-at: ${first}`,
        'last-touched: 2026-11-01',
      ],
      '- Role: token rotation runs on every refresh.\n',
    ),
  );
  write(
    mem,
    'landmarks/src-util-ts-1.md',
    fm([
      'key: src/util.ts:1',
      'category: landmarks',
      'source: user-instruction',
      `verified-at: ${recent}`,
      'last-touched: 2026-11-20',
      'owner-note: keeps an unknown field',
    ]),
  );
  write(
    mem,
    'landmarks/moved.md',
    fm([
      'key: session-rotation',
      'category: landmarks',
      'target: src/auth/session.ts:5 (rotateOnRefresh)',
      'source: inferred-from-code',
      `verified-at: ${recent}`,
    ]),
  );
  write(
    mem,
    'landmarks/gone.md',
    fm(['key: src/removed.ts:3', 'category: landmarks', 'source: incident', `verified-at: ${recent}`]),
  );
  write(
    mem,
    'libraries/scope-pkg.md',
    fm([
      'key: @scope/pkg@1.2',
      'category: libraries',
      'claim: call init() first: it loads the config',
      'source: library-pinned',
      'verified-at: deadbee',
      'last-touched: 2026-11-20',
    ]),
  );
  write(
    mem,
    'decisions/auth.md',
    fm(
      [
        'key: auth-jwt-vs-session',
        'category: decisions',
        'scope: [spec]',
        'governs: src/auth/**, build/out.js, dist/**, docs/missing.md, lib/**/*.zz',
        'rests_on: [no-network]',
        'source: user-feedback',
        `verified-at: ${first}`,
      ],
      '- Decision: sessions, not JWTs.\n',
    ),
  );
  write(
    mem,
    'constraints/no-network.md',
    fm(['key: no-network', 'category: constraints', 'state: false', 'governs: scripts/**', `verified-at: ${recent}`]),
  );
  write(
    mem,
    'backlog/tidy-the-notes-a1b2.md',
    fm([
      'key: tidy-the-notes-a1b2',
      'category: backlog',
      'status: open',
      'source: assistant-deferral',
      'raised-on: 2026-01-02',
      `verified-at: ${first}`,
    ]),
  );
  write(
    mem,
    'conventions/dated.md',
    fm(['key: old-convention', 'category: conventions', 'verified-at: HEAD', 'last-touched: 2026-01-01']),
  );
  write(
    mem,
    'pending-questions/q-001.md',
    fm(['key: Q-001', 'category: pending-questions', 'resolved-at: 2026-10-01', `verified-at: ${first}`]),
  );
  write(
    mem,
    'landmines/crlf.md',
    [
      '---',
      'key: crlf-entry',
      'category: landmines',
      'source: incident',
      `verified-at: ${recent}`,
      '---',
      '',
      '- Trap: windows line endings.',
      '',
    ].join('\r\n'),
  );
  write(mem, 'landmines/no-frontmatter.md', '# Just a note\n\nNo frontmatter here.\n');
  write(
    mem,
    'quarantine/landmines/old-trap.md',
    fm([
      'key: old-trap',
      'category: landmines',
      'quarantined-at: 2026-11-01',
      'quarantine-reason: made up',
      `verified-at: ${recent}`,
    ]),
  );
  write(mem, 'notes/random.md', '# not a category\n');
  write(
    mem,
    '_pending.md',
    '# Pending\n\nCandidates below.\n\n## CANDIDATE: src/util.ts \u2192 landmarks.md\n- Touched in this session: 2 times\n- source: inferred-from-code\n\n## CANDIDATE: backlog \u2192 write-the-docs-9f9f\n- Intent: write the docs\n- route: unassigned\n\n## Not a candidate\n- x: y\n',
  );
}

export const FLAT_PENDING = [
  '---',
  'owners: [any phase]',
  'category: cross-session open questions',
  'key: Q-NNN',
  '---',
  '',
  '# Pending questions',
  '',
  'Intro text.',
  '',
  '---',
  '',
  '## Q-002 \u2014 Is the cap ratified?',
  '',
  '- Question: is it?',
  '- Raised-on: 2026-07-10',
  '- last-touched: 2026-11-01',
  '',
  '---',
  '',
  '## Q-005 \u2014 CLOSED 2026-05-16',
  '',
  '- Resolution: decided in spec',
  '',
].join('\n');

export function writeFlat(flat: string, first: string): void {
  write(flat, 'pending-questions.md', FLAT_PENDING);
  write(
    flat,
    'libraries.md',
    [
      '---',
      'owners: [research]',
      'size-cap: 500',
      '---',
      '',
      '# Libraries',
      '',
      '## @scope/pkg@1.2',
      '',
      '- Role: made-up package.',
      `- Verified-at: ${first}`,
      '- Last-touched: 2026-06-20',
      '- Caveat: one: two',
      '',
    ].join('\n'),
  );
  write(
    flat,
    'landmarks.md',
    [
      '# Landmarks',
      '',
      '## src/auth/session.ts:42',
      '',
      '- Role: rotation.',
      '- source: inferred-from-code',
      '',
      '```md',
      '## not a heading',
      '```',
      '',
      '## src/util.ts:1 \u2014 the util',
      '',
      '- Role: util.',
      '- last-touched: 2026-11-20',
    ].join('\n'),
  );
  write(
    flat,
    'backlog.md',
    ['# Backlog', '', '## tidy-later-0a0a', '', '- status: open', '- raised-on: 2026-02-02', ''].join('\n'),
  );
}

/**
 * The fixture of lib/sources/adapter-contract.test.ts: a git project whose
 * `.claude/memory/` mixes both shapes (sharded landmarks and landmines, flat backlog and
 * decisions with a CRLF block), with quarantined entries of each shape and a `_pending.md`
 * candidate, so every verb applies to some record. The configured root is `dir`.
 */
export function writeContractFixture(dir: string): void {
  initRepo(dir);
  write(dir, 'src/app.ts', ['// made-up source', 'export function start() {', '  return 1;', '}', ''].join('\n'));
  write(dir, 'docs/notes.md', '# notes\n');
  const sha = commitAll(dir, 'sources');
  const mem = '.claude/memory';
  const fm = (lines: string[], body: string) => `---\n${lines.join('\n')}\n---\n\n${body}`;
  write(dir, `${mem}/README.md`, '# Project memory\n\nNot an entry.\n');
  write(
    dir,
    `${mem}/landmarks/src-app-ts-2.md`,
    fm(
      [
        'key: src/app.ts:2',
        'category: landmarks',
        'source: user-instruction',
        `verified-at: ${sha}`,
        'last-touched: 2026-11-01',
        'owner-note: an unknown field kept',
      ],
      '- Role: the entry point (made up).\n',
    ),
  );
  write(
    dir,
    `${mem}/landmarks/docs-notes.md`,
    fm(
      [
        'key: docs-notes',
        'category: landmarks',
        'target: docs/notes.md',
        'claim: notes live in docs: one file',
        'source: inferred-from-code',
        `verified-at: ${sha}`,
      ],
      '- Role: notes.\n',
    ),
  );
  write(
    dir,
    `${mem}/landmines/crlf.md`,
    [
      '---',
      'key: crlf-trap',
      'category: landmines',
      'source: incident',
      `verified-at: ${sha}`,
      '---',
      '',
      '- Trap: windows line endings (made up).',
      '',
    ].join('\r\n'),
  );
  write(
    dir,
    `${mem}/backlog.md`,
    [
      '# Backlog',
      '',
      '## tidy-the-docs-0b0b',
      '',
      '- status: open',
      '- raised-on: 2026-02-02',
      `- verified-at: ${sha}`,
      '',
      '## write-tests-1c1c',
      '',
      '- status: open',
      '- raised-on: 2026-03-03',
      '',
    ].join('\n'),
  );
  write(
    dir,
    `${mem}/decisions.md`,
    [
      '---',
      'owners: [spec]',
      '---',
      '',
      '# Decisions',
      '',
      '## use-sqlite \u2014 a cache only',
      '',
      '- Decision: files are the truth.',
      '- source: user-feedback',
      `- verified-at: ${sha}`,
      '',
      '## crlf-decision',
      '',
      '- Decision: keep line endings.',
      '- last-touched: 2026-10-10',
      '',
    ].join('\r\n'),
  );
  write(
    dir,
    `${mem}/quarantine/landmines/old-trap.md`,
    fm(
      [
        'key: old-trap',
        'category: landmines',
        'quarantined-at: 2026-11-01',
        'quarantine-reason: made up',
        `verified-at: ${sha}`,
      ],
      '- Trap: an old one.\n',
    ),
  );
  write(
    dir,
    `${mem}/quarantine/conventions.md`,
    [
      '# Conventions',
      '',
      '## tabs-not-spaces',
      '',
      '- Rule: tabs (made up).',
      '- quarantined-at: 2026-11-02',
      '- quarantine-reason: contested',
      '',
    ].join('\n'),
  );
  write(
    dir,
    `${mem}/_pending.md`,
    '# Pending\n\n## CANDIDATE: src/app.ts \u2192 landmarks.md\n- Touched in this session: 2 times\n',
  );
  commitAll(dir, 'memory');
}

/** Per action, the plan options the contract test passes (a backlog close needs its status). */
export const contractPlanOptions: Record<string, Record<string, unknown>> = { close: { status: 'dropped' } };
