/**
 * The one index table (migration 0016; docs/records.md, "The index"): memory files and
 * records are rows of `entries`, a mixed home lists from one SELECT over it, and an index
 * built with the two-table schema opens, is migrated with its file rows kept, and rescans.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDb, openDb } from './client';
import { listMemories, listMemoriesAndRecords } from './queries/memories';
import { projectPath } from '../lib/core/project';
import { feedbackMemory, openCtx, put, removeSandbox, sandbox, type Sandbox } from '../lib/service/test-support';
import { syncRecordIndex } from '../lib/service/records/read';
import type { ServiceContext } from '../lib/service/context';

const tables = (sqlite: Database.Database) =>
  (
    sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%_fts%' ORDER BY name")
      .pluck()
      .all() as string[]
  ).filter((t) => !t.startsWith('__') && t !== 'sqlite_sequence');

const memory = (name: string, tier: string, body: string) =>
  feedbackMemory(name, tier, { extra: [['last-verified', '2026-11-01']], body });

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox('memtrust-entries-');
});
afterEach(() => removeSandbox(sb));

describe('one index table', () => {
  let ctx: ServiceContext;
  beforeEach(() => {
    put(sb.root, 'memories/feedback_merge.md', memory('Merge rule', 'verified', '\nRun the tests before a merge.\n'));
    put(sb.root, 'memories/feedback_ports.md', memory('Ports', 'inferred', '\nThe dev server listens on 3000.\n'));
    const canon = path.join(sb.tmp, 'proj/.claude/memory');
    put(
      canon,
      'decisions.md',
      '---\ncategory: decisions\n---\n## D-001 — use sqlite\n- claim: the index is a quokkaflux cache\n',
    );
    sb.env.MEMTRUST_ROOT = [sb.root, canon].join(path.delimiter);
    ctx = openCtx(sb);
    expect(ctx.recordSources.map((s) => s.adapter.layout)).toEqual(['canonical']);
  });

  it('holds files and records; the parallel tables are gone', () => {
    const live = syncRecordIndex(ctx);
    const sqlite = ctx.handle.sqlite;
    expect(tables(sqlite)).not.toContain('memories');
    expect(tables(sqlite)).not.toContain('layout_records');
    expect(tables(sqlite)).not.toContain('layout_sources');
    const kinds = sqlite.prepare('SELECT is_record, count(*) AS n FROM entries GROUP BY 1 ORDER BY 1').all();
    expect(kinds).toEqual([
      { is_record: 0, n: 2 },
      { is_record: 1, n: 1 },
    ]);
    // The record root's read token is on its `sources` row, beside the file root's.
    const roots = sqlite.prepare('SELECT kind, token IS NOT NULL AS read FROM sources ORDER BY kind').all();
    expect(roots).toEqual([
      { kind: 'canonical', read: 1 },
      { kind: 'trust-root', read: 0 },
    ]);
    expect(live).toHaveLength(1);
  });

  it('a mixed listing comes from one SELECT over entries, both kinds in one sort', () => {
    const live = syncRecordIndex(ctx);
    const sqlite = ctx.handle.sqlite;
    const seen: string[] = [];
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((sql: string) => {
      seen.push(sql);
      return prepare(sql);
    }) as typeof sqlite.prepare;
    try {
      const page = listMemoriesAndRecords(sqlite, { sort: 'name', limit: 10, q: undefined }, live, ctx.now());
      expect(page.total).toBe(3);
      expect(page.items.map((i) => [i.kind ?? 'file', i.name])).toEqual([
        ['file', 'Merge rule'],
        ['file', 'Ports'],
        ['record', 'the index is a quokkaflux cache'],
      ]);
      const pages = seen.filter((s) => /\bLIMIT\b/.test(s) && !/\bcount\(/.test(s));
      expect(pages).toHaveLength(1);
      expect(pages[0]).toMatch(/FROM entries m /);
      expect(seen.join('\n')).not.toMatch(/\bUNION\b|layout_records|FROM memories/);
    } finally {
      sqlite.prepare = prepare;
    }
  });

  it('full-text search covers records and files alike', () => {
    const live = syncRecordIndex(ctx);
    const sqlite = ctx.handle.sqlite;
    const hit = listMemoriesAndRecords(sqlite, { q: 'quokkaflux', limit: 10 }, live, ctx.now());
    expect(hit.items.map((i) => [i.kind, i.filename])).toEqual([['record', 'decisions/D-001']]);
    const file = listMemoriesAndRecords(sqlite, { q: 'merge', limit: 10 }, live, ctx.now());
    expect(file.items.map((i) => i.filename)).toEqual(['feedback_merge.md']);
    // The file-only list never holds a record, whatever the filter.
    expect(listMemories(sqlite, { q: 'quokkaflux', limit: 10 }, ctx.now()).total).toBe(0);
    expect(listMemories(sqlite, { limit: 10 }, ctx.now()).total).toBe(2);
  });
});

describe('an index built with the two-table schema', () => {
  it('opens migrated: file rows kept and searchable, record rows dropped, then rescans', () => {
    const upTo = readMigrationFiles({ migrationsFolder: projectPath('db', 'migrations') });
    const entries = upTo.findIndex((m) => m.sql.some((s) => s.includes('CREATE TABLE `entries`')));
    expect(entries).toBeGreaterThan(0);
    // The schema as the previous release left it: every migration before 0016, applied.
    const old = new Database(sb.db);
    old.exec('CREATE TABLE __drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)');
    for (const m of upTo.slice(0, entries)) {
      for (const stmt of m.sql) if (stmt.trim()) old.exec(stmt);
      old.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run(m.hash, m.folderMillis);
    }
    const rel = 'memories/feedback_merge.md';
    put(sb.root, rel, memory('Merge rule', 'verified', '\nRun the tests before a merge.\n'));
    old
      .prepare(
        `INSERT INTO memories (key, id, source, rel_path, filename, location, tier, name, created_ms, created_from_mtime,
           size, mtime_ms, sha256, validate_exit, secret_exit, injection_exit, finding_count, finding_checks, needs_backfill, body)
         VALUES ('old:${rel}', 'old:feedback_merge.md', 'old', ?, 'feedback_merge.md', 'memories', 'verified', 'Old name', 0, 1,
           1, 1, 'x', 0, 0, 0, 0, '', 0, 'an old quokkaflux body')`,
      )
      .run(rel);
    old
      .prepare(
        `INSERT INTO layout_records (id, source, layout, key, native, tier, flags, title, origin, file, line, end_line,
           credential_count, personal_count, injection_count, text, data) VALUES
           ('r:k', 'r', 'canonical', 'k', 'x', 'verified', '[]', 't', 'o', 'f', 1, 1, 0, 0, 0, 'x', '{}')`,
      )
      .run();
    old.prepare("INSERT INTO sources (id, root, kind, label) VALUES ('old', '/gone', 'trust-root', 'old')").run();
    old.close();

    const { sqlite } = openDb(sb.db);
    expect(tables(sqlite)).toContain('entries');
    expect(tables(sqlite)).not.toContain('memories');
    expect(tables(sqlite)).not.toContain('layout_records');
    expect(tables(sqlite)).not.toContain('layout_sources');
    expect(sqlite.prepare('SELECT key, is_record, name FROM entries').all()).toEqual([
      { key: `old:${rel}`, is_record: 0, name: 'Old name' },
    ]);
    // The full-text index was rebuilt over the copied rows.
    expect(listMemories(sqlite, { q: 'quokkaflux' }, new Date()).items.map((i) => i.key)).toEqual([`old:${rel}`]);
    closeDb(sb.db);

    // The next scan drops the root no longer configured and indexes the one that is.
    const ctx = openCtx(sb);
    const list = listMemories(ctx.handle.sqlite, {}, ctx.now());
    expect(list.items.map((i) => [i.source === ctx.sources[0]!.id, i.name])).toEqual([[true, 'Merge rule']]);
    expect(listMemories(ctx.handle.sqlite, { q: 'merge' }, ctx.now()).total).toBe(1);
    expect(fs.existsSync(sb.db)).toBe(true);
  });
});
