/**
 * Value propagation (docs/credentials.md, "Value propagation"): a password found by its label
 * in one memory is a credential finding wherever else it stands — another memory, a MEMORY.md
 * line, a write the pre-write hook judges — masked everywhere, and memtrust keeps only salted
 * hashes of it. Real temp roots, a real SQLite file, the real CLI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDb } from '../../../db/client';
import { loadConfig } from '../../core/config';
import { createContext } from '../context';
import { scan } from './scan-service';
import { SALT_FILE, SET_FILE } from '../known-values-store';
import { memoryDetail } from './memory-detail';
import { indexFileView } from '../claude/index-file';
import {
  CLI,
  PROJECT,
  childEnv,
  memoryFile,
  put,
  removeSandbox,
  runCli,
  sandbox,
  sandboxPerTest,
  type Sandbox,
} from '../test-support';

// Made up for this test: a value only the label in the first file makes a credential.
const VALUE = 'Qv7-mirth-2048z';
const OTHER = 'Lk4-amber-7731q';

const fm = (name: string): [string, string][] => [
  ['name', name],
  ['description', `notes on ${name}`],
  ['type', 'reference'],
];

const sb = sandboxPerTest({ beforeEach, afterEach });

function folder(root: string, withLabel = true): void {
  put(
    root,
    'reference_nas.md',
    memoryFile(
      fm('nas'),
      `\nThe NAS admin account.\n\n${withLabel ? `password: ${VALUE}` : 'password: in the vault'}\n`,
    ),
    new Date(withLabel ? '2026-11-20T10:00:00Z' : '2026-11-21T10:00:00Z'),
  );
  put(
    root,
    'project_backup.md',
    memoryFile(fm('backup'), `\nThe nightly job connects as admin with ${VALUE} over SSH.\n`),
    new Date('2026-11-20T10:00:00Z'),
  );
  put(root, 'project_clean.md', memoryFile(fm('clean'), '\nNothing secret here, version 2048 of the tool.\n'));
  put(
    root,
    'MEMORY.md',
    [
      '# Memory index',
      '',
      '- [NAS](reference_nas.md) — the admin box',
      `- [Backup](project_backup.md) — nightly job, logs in with ${VALUE}`,
      '- [Clean](project_clean.md) — nothing',
      '',
    ].join('\n'),
  );
}

function open(s: Sandbox) {
  const ctx = createContext(loadConfig({ env: s.env }), s.env);
  return ctx;
}

type Row = { key: string; code: string; class: string | null; line: number | null; message: string };
function secretFindings(db: Database.Database, filename: string): Row[] {
  return db
    .prepare(
      `SELECT f.key, f.code, f.class, f.line, f.message FROM findings f JOIN entries m ON m.key = f.key
        WHERE m.filename = ? AND f."check" = 'secret' ORDER BY f.line, f.code`,
    )
    .all(filename) as Row[];
}

/** Every file of `dir` (the data directory, the SQLite files) that holds `value` in its bytes. */
function filesHolding(dir: string, value: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath, e.name);
    if (fs.readFileSync(p).includes(Buffer.from(value))) out.push(p);
  }
  return out;
}

describe('value propagation', () => {
  it('a labelled password found bare in another memory and a MEMORY.md line is a finding there, masked, and only hashed', () => {
    folder(sb.root);
    const ctx = open(sb);
    scan(ctx);
    const db = ctx.handle.sqlite;
    const backup = secretFindings(db, 'project_backup.md');
    expect(backup).toEqual([
      {
        key: expect.stringMatching(/:project_backup\.md$/),
        code: 'secret.known-value',
        class: 'credential',
        line: expect.any(Number),
        message: expect.stringMatching(/^value found as a credential in [a-z0-9-]+:reference_nas\.md \(15 chars\)$/),
      },
    ]);
    expect(secretFindings(db, 'reference_nas.md').map((f) => f.code)).not.toContain('secret.known-value');
    expect(secretFindings(db, 'project_clean.md')).toEqual([]);
    const index = db.prepare(`SELECT code, class, line, message FROM index_findings WHERE "check" = 'secret'`).all();
    expect(index).toEqual([
      {
        code: 'secret.known-value',
        class: 'credential',
        line: 4,
        message: expect.stringContaining('reference_nas.md'),
      },
    ]);
    const body = (db.prepare(`SELECT body FROM entries WHERE filename = 'project_backup.md'`).get() as { body: string })
      .body;
    expect(body).toContain('connects as admin with ⟦credential #1 · 15 chars⟧ over SSH');

    // The CLI's views of the same memory and of the session's context.
    const show = runCli(['show', 'project_backup.md', '--json'], sb.env);
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toContain('secret.known-value');
    expect(show.stdout).not.toContain(VALUE);
    const context = runCli(['context'], sb.env);
    expect(context.status, context.stderr).toBe(0);
    expect(context.stdout).toMatch(/Hold a credential[^\n]*project_backup\.md/);
    expect(context.stdout).toMatch(/MEMORY\.md lines holding a credential[^\n]*line 4/);
    expect(context.stdout).not.toContain(VALUE);

    // The salt and the set: 0600, in the index's folder, no value; nor any byte of the index.
    const dir = path.dirname(sb.db);
    for (const f of [SALT_FILE, SET_FILE]) expect(fs.statSync(path.join(dir, f)).mode & 0o777, f).toBe(0o600);
    expect(fs.statSync(path.join(dir, SALT_FILE)).size).toBe(32);
    const set = JSON.parse(fs.readFileSync(path.join(dir, SET_FILE), 'utf8')) as {
      values: Record<string, unknown[]>;
    };
    expect(Object.values(set.values)).toEqual([[15, expect.any(Number), expect.stringMatching(/:reference_nas\.md$/)]]);
    closeDb(sb.db);
    expect(filesHolding(dir, VALUE).filter((p) => !p.startsWith(sb.root))).toEqual([]);
  });

  it('the pages of B and of MEMORY.md show the value masked however it is written there (quoted, in backticks, with punctuation)', () => {
    put(sb.root, 'reference_nas.md', memoryFile(fm('nas'), `\nThe NAS admin account.\n\npassword: "${VALUE}"\n`));
    put(
      sb.root,
      'project_backup.md',
      memoryFile(fm('backup'), `\nThe job logs in with \`${VALUE}\`, or «${VALUE}» on the old box; see ${VALUE}.\n`),
    );
    put(
      sb.root,
      'MEMORY.md',
      `# Memory index\n\n- [NAS](reference_nas.md) — the admin box\n- [Backup](project_backup.md) — logs in with **${VALUE}**!\n`,
    );
    const ctx = open(sb);
    scan(ctx);
    // What the memory page renders (app/memories/[id]/page.tsx): memoryDetail, then IndexFileView for MEMORY.md.
    const b = memoryDetail(ctx, 'project_backup.md');
    if (!b.ok) throw new Error(b.message);
    const page = JSON.stringify(b.detail);
    expect(page).not.toContain(VALUE);
    expect(page.match(/⟦credential #\d+ · \d+ chars⟧/g)).toHaveLength(3);
    const ix = indexFileView(ctx, ctx.sources[0]!.id, 'MEMORY.md');
    if (!ix.ok) throw new Error(ix.message);
    const index = JSON.stringify(ix.view);
    expect(index).not.toContain(VALUE);
    expect(index).toContain('secret.known-value');
  });

  it('a memory indexed before the value was known gets the finding when the value turns up; it goes when the value does', () => {
    folder(sb.root);
    fs.rmSync(path.join(sb.root, 'reference_nas.md'));
    const ctx = open(sb);
    scan(ctx);
    const db = ctx.handle.sqlite;
    expect(secretFindings(db, 'project_backup.md')).toEqual([]);
    // The value is now a credential elsewhere: the unchanged memory and MEMORY.md line are checked again.
    folder(sb.root);
    const stats = scan(ctx);
    expect(stats.propagated).toBeGreaterThanOrEqual(1);
    expect(secretFindings(db, 'project_backup.md').map((f) => f.code)).toEqual(['secret.known-value']);
    expect(db.prepare(`SELECT count(*) AS n FROM index_findings WHERE code = 'secret.known-value'`).get()).toEqual({
      n: 1,
    });
    // The label goes: no file holds the value as a credential, so no occurrence is one.
    folder(sb.root, false);
    scan(ctx);
    expect(secretFindings(db, 'project_backup.md')).toEqual([]);
    expect(db.prepare(`SELECT count(*) AS n FROM index_findings WHERE "check" = 'secret'`).get()).toEqual({ n: 0 });
    const set = JSON.parse(fs.readFileSync(path.join(path.dirname(sb.db), SET_FILE), 'utf8'));
    expect(set.values).toEqual({});
  });

  it('the set survives the index: deleted, the next scan makes the same findings', () => {
    folder(sb.root);
    let ctx = open(sb);
    scan(ctx);
    const before = secretFindings(ctx.handle.sqlite, 'project_backup.md');
    closeDb(sb.db);
    for (const f of fs.readdirSync(path.dirname(sb.db)))
      if (f.startsWith('index.sqlite')) fs.rmSync(path.join(path.dirname(sb.db), f));
    ctx = open(sb);
    scan(ctx);
    expect(secretFindings(ctx.handle.sqlite, 'project_backup.md')).toEqual(before);
  });

  it('the pre-write hook denies writing a known value into a new memory, without naming it', () => {
    folder(sb.root);
    scan(open(sb));
    closeDb(sb.db);
    const input = JSON.stringify({
      session_id: 's',
      cwd: '/',
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_use_id: 'toolu_k',
      tool_input: {
        file_path: path.join(sb.root, 'project_new.md'),
        content: memoryFile(fm('new'), `\nRemember: the share mounts with ${VALUE} now.\n`).toString(),
      },
    });
    const r = spawnSync(process.execPath, [CLI, 'hook', 'pre-write'], {
      input,
      env: childEnv(sb.env),
      encoding: 'utf8',
      cwd: PROJECT,
    });
    expect(r.status, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('secret.known-value');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('reference_nas.md');
    expect(r.stdout + r.stderr).not.toContain(VALUE);
    // A value no file holds as a credential is not refused for looking like one.
    const clean = input.replace(VALUE, OTHER);
    const ok = spawnSync(process.execPath, [CLI, 'hook', 'pre-write'], {
      input: clean,
      env: childEnv(sb.env),
      encoding: 'utf8',
      cwd: PROJECT,
    });
    expect(ok.stdout).not.toContain('"deny"');
  });

  it('the worker pool makes the same findings, bodies and set as the main thread alone', () => {
    const other = sandbox();
    try {
      const dumps = [sb, other].map((s, i) => {
        folder(s.root);
        // More files than one batch, so the workers take some of them.
        for (let n = 0; n < 30; n++)
          put(
            s.root,
            `project_more_${n}.md`,
            memoryFile(fm(`more ${n}`), `\nRun ${n} reached the box with ${VALUE}.\n`),
          );
        const ctx = open(s);
        const stats = scan(ctx, i === 0 ? {} : { workers: 1, poolMinFiles: 1, poolMainHelps: false });
        expect(stats.workers ?? 0).toBe(i === 0 ? 0 : 1);
        const db = ctx.handle.sqlite;
        const rows = db
          .prepare(
            `SELECT m.rel_path, m.body, f.code, f.line, f.message FROM entries m LEFT JOIN findings f ON f.key = m.key
              ORDER BY m.rel_path, f.line, f.code`,
          )
          .all() as Record<string, unknown>[];
        const set = JSON.parse(fs.readFileSync(path.join(path.dirname(s.db), SET_FILE), 'utf8')) as {
          values: Record<string, unknown[]>;
        };
        return {
          rows: rows.map((r) => JSON.stringify(r).replaceAll(/root-[0-9a-f]+:/g, 'root:')),
          ids: Object.values(set.values).map((v) => v[2]),
        };
      });
      expect(dumps[0]!.rows.filter((r) => r.includes('secret.known-value'))).toHaveLength(31);
      expect(dumps[1]!.rows).toEqual(dumps[0]!.rows);
      expect(dumps[1]!.ids.map((id) => String(id).replace(/^[^:]+:/, ''))).toEqual(['reference_nas.md']);
    } finally {
      removeSandbox(other);
    }
  });
});
