/**
 * Every memtrust command against a root holding codeclone's governed store in WAL mode
 * (docs/governed-layout.md, "What is proven"): the store, its -wal and -shm keep their
 * bytes, size, mtime and inode after each, and every verb on a governed record is
 * refused with codeclone's own command line and exit 2. Then the stores memtrust
 * cannot read, through `roots`, `list` and `show`: one line naming the file, no stack
 * trace, nothing written. The store is built from the published schema
 * (lib/sources/governed/test-fixtures.ts); codeclone itself is never needed.
 */
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildGovernedFixture, fixtureId, type Fixture } from '../sources/governed/test-fixtures';
import { STORE_REL } from '../sources/governed/types';
import { envFor, removeSandbox, runCli, sandbox, type CliRun, type Sandbox } from '../service/test-support';

/** sha256, size, mtime (ns) and inode of every file in the store's folder, and the folder's own listing. */
function storeState(store: string): Record<string, string> {
  const dir = path.dirname(store);
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    const st = fs.statSync(p, { bigint: true });
    const sha = st.isFile() ? crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex') : 'dir';
    out[name] = `${sha} size=${st.size} mtime=${st.mtimeNs} ino=${st.ino}`;
  }
  const st = fs.statSync(dir, { bigint: true });
  out['.'] = `mtime=${st.mtimeNs} ino=${st.ino}`;
  return out;
}

function noTrace(r: CliRun): void {
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toMatch(/Error:|TypeError|SqliteError/);
}

const cmd = (c: string, project: string, key: string) =>
  `codeclone memory ${c} --root ${project} --i-know-what-im-doing ${key}`;

describe('every command on a root holding a live governed store (WAL)', () => {
  let sb: Sandbox;
  let f: Fixture;
  let state0: Record<string, string>;
  /** The draft's full record id, `<source>:<key>`. */
  let draftId: string;
  const cli = (args: string[]) => runCli(args, sb.env);

  beforeAll(() => {
    sb = sandbox('memtrust-governed-cli-');
    // codeclone running: its connection stays open, the commits sit in the -wal, the -shm exists.
    f = buildGovernedFixture(sb.root, { wal: 'live' });
    expect(fs.statSync(`${f.store}-wal`).size).toBeGreaterThan(0);
    expect(fs.existsSync(`${f.store}-shm`)).toBe(true);
    state0 = storeState(f.store);
    const items = JSON.parse(runCli(['list', '--json'], sb.env).stdout).items as { id: string; key: string }[];
    draftId = items.find((i) => i.key === f.ids.draft)!.id;
  });
  afterAll(() => {
    f.writer?.close();
    removeSandbox(sb);
  });

  const k = (name: string) => f.ids[name]!;
  const reportOut = (ext: string) => path.join(sb.tmp, `report.${ext}`);

  /** [args, what the command must answer]; each runs with the store's files compared before and after. */
  const cases: [string, () => string[], (r: CliRun) => void][] = [
    [
      'roots',
      () => ['roots'],
      (r) => {
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toContain(
          `  ${sb.root}  [codeclone's governed engineering memory (read-only): layout governed, sqlite]  — ${f.count} records\n`,
        );
        expect(r.stderr).toBe('');
      },
    ],
    [
      'roots --json',
      () => ['roots', '--json'],
      (r) => {
        expect(r.status, r.stderr).toBe(0);
        const c = JSON.parse(r.stdout).configured[0];
        expect(c).toMatchObject({ layout: 'governed', shape: 'sqlite', records: { count: f.count, problems: 0 } });
        expect(c).not.toHaveProperty('readProblems');
      },
    ],
    [
      'list',
      () => ['list'],
      (r) => {
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout.split('\n').filter((l) => l.includes('[governed · '))).toHaveLength(f.count);
      },
    ],
    [
      'list --json',
      () => ['list', '--json'],
      (r) => {
        expect(r.status, r.stderr).toBe(0);
        const j = JSON.parse(r.stdout);
        expect(j.total).toBe(f.count);
        expect(j.items.find((i: { key: string }) => i.key === k('draft'))).toMatchObject({
          layout: 'governed',
          native: 'draft/inferred/agent',
          flags: ['pending-human'],
          actions: [],
          ownerActions: ['approve', 'reject', 'promote', 'demote'],
        });
      },
    ],
    [
      'list --layout governed',
      () => ['list', '--layout', 'governed', '--json'],
      (r) => {
        expect(r.status, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout).total).toBe(f.count);
      },
    ],
    [
      'show <key>',
      () => ['show', k('draft')],
      (r) => {
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toContain('native: draft/inferred/agent');
        expect(r.stdout).toContain(`run: ${cmd('approve', sb.root, k('draft'))}`);
        expect(r.stdout).toContain(`run: ${cmd('reject', sb.root, k('draft'))}`);
        expect(r.stdout).not.toContain("the owner's command"); // the command is shown once
      },
    ],
    [
      'show <id> --json',
      () => ['show', k('approved'), '--json'],
      (r) => {
        expect(r.status, r.stderr).toBe(0);
        const j = JSON.parse(r.stdout);
        expect(JSON.stringify(j)).toContain(cmd('archive', sb.root, k('approved')));
      },
    ],
    ['history', () => ['history'], (r) => expect(r.status, r.stderr).toBe(0)],
    ['scan', () => ['scan'], (r) => expect(r.status, r.stderr).toBe(0)],
    ['scan --rebuild', () => ['scan', '--rebuild'], (r) => expect(r.status, r.stderr).toBe(0)],
    ['audit', () => ['audit'], (r) => expect(r.status, r.stderr).toBe(0)],
    ['audit --apply --yes', () => ['audit', '--apply', '--yes'], (r) => expect(r.status, r.stderr).toBe(0)],
    ['backfill', () => ['backfill'], (r) => expect(r.status, r.stderr).toBe(0)],
    ['backfill --apply --yes', () => ['backfill', '--apply', '--yes'], (r) => expect(r.status, r.stderr).toBe(0)],
    [
      'context --format hook',
      () => ['context', '--format', 'hook'],
      (r) => {
        expect(r.status, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout).hookSpecificOutput.hookEventName).toBe('SessionStart');
      },
    ],
    ['context --explain', () => ['context', '--explain'], (r) => expect(r.status, r.stderr).toBe(0)],
    ...(['html', 'json', 'md'] as const).map((fmt): [string, () => string[], (r: CliRun) => void] => [
      `report --format ${fmt}`,
      () => ['report', '--format', fmt, '--out', reportOut(fmt)],
      (r) => {
        expect(r.status, r.stderr).toBe(0);
        expect(fs.statSync(reportOut(fmt)).size).toBeGreaterThan(0);
      },
    ]),
    // The transition verbs: refused (exit 2), with codeclone's command when codeclone has one for the record.
    ...(
      [
        ['promote', 'draft', 'approve'],
        ['promote', 'stale-plain', 'approve'],
        ['demote', 'draft', 'reject'],
        ['demote', 'approved', 'archive'],
        ['archive', 'approved', 'archive'],
        ['archive', 'draft', null],
        ['reaffirm', 'approved', null],
        ['restore', 'rejected', null],
        ['promote', 'historical', null],
      ] as const
    ).map(([verb, name, codeclone]): [string, () => string[], (r: CliRun) => void] => [
      `${verb} on a ${name} record`,
      () => [verb, k(name), '--reason', 'checked by the test'],
      (r) => {
        expect(r.status, r.stdout + r.stderr).toBe(2);
        expect(r.stderr).toContain(`memtrust ${verb}: `);
        expect(r.stderr).toContain('is read-only for memtrust');
        if (codeclone) expect(r.stderr).toContain(`run instead: ${cmd(codeclone, sb.root, k(name))}`);
        else expect(r.stderr).not.toContain('codeclone memory');
      },
    ]),
    [
      'promote <full id>',
      () => ['promote', draftId],
      (r) => {
        expect(draftId).toMatch(/^[a-z0-9-]+:mem-[0-9a-f]{32}$/);
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr).toContain(`memtrust promote: ${draftId}: `);
        expect(r.stderr).toContain(`run instead: ${cmd('approve', sb.root, k('draft'))}`);
      },
    ],
    [
      'record-action <key> approve',
      () => ['record-action', k('claim-b'), 'approve'],
      (r) => {
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr).toContain(`run instead: ${cmd('approve', sb.root, k('claim-b'))}`);
      },
    ],
    [
      'record-action <key> reject',
      () => ['record-action', k('draft'), 'reject'],
      (r) => {
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr).toContain(`run instead: ${cmd('reject', sb.root, k('draft'))}`);
      },
    ],
    [
      'resolve a contradicting pair',
      () => ['resolve', k('claim-a'), '--expire', k('claim-b'), '--reason', 'checked by the test'],
      (r) => {
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr).toContain('is read-only for memtrust');
      },
    ],
  ];

  for (const [name, args, check] of cases) {
    it(`${name}: answers, and the store, -wal and -shm are untouched`, () => {
      const r = cli(args());
      noTrace(r);
      check(r);
      expect(storeState(f.store)).toEqual(state0);
    });
  }

  it('the live store still holds what codeclone committed (the writer was never disturbed)', () => {
    const n = f.writer!.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number };
    expect(n.n).toBe(f.count);
  });
});

/** Stores memtrust cannot read (or reads with a warning), through roots, list and show. */
describe('bad governed stores through the CLI', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    while (cleanup.length) cleanup.pop()!();
  });

  function project(build: (root: string) => void): { sb: Sandbox; store: string } {
    const sb = sandbox('memtrust-governed-bad-');
    cleanup.push(() => removeSandbox(sb));
    build(sb.root);
    return { sb, store: path.join(sb.root, STORE_REL) };
  }
  const rawStore = (root: string, bytes: Buffer | string) => {
    fs.mkdirSync(path.join(root, path.dirname(STORE_REL)), { recursive: true });
    fs.writeFileSync(path.join(root, STORE_REL), bytes);
  };

  /** roots, list and show: one stderr line naming the store and the problem, no trace, nothing written. */
  function expectCalm(sb: Sandbox, store: string, problem: RegExp, key = 'mem-00000000000000000000000000000000'): void {
    const before = storeState(store);
    const line = new RegExp(`^memtrust: ${store.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${problem.source}`);
    const roots = runCli(['roots'], sb.env);
    noTrace(roots);
    expect(roots.status, roots.stderr).toBe(0);
    expect(roots.stdout).toContain(`  ${sb.root}  [codeclone's governed engineering memory (read-only)`);
    expect(roots.stdout).toContain('— 0 records, 1 unreadable entry');
    expect(roots.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(line)]);
    const rootsJson = runCli(['roots', '--json'], sb.env);
    expect(rootsJson.status).toBe(0);
    expect(JSON.parse(rootsJson.stdout).configured[0].readProblems).toEqual([
      { file: STORE_REL, line: 0, problem: expect.stringMatching(problem) },
    ]);
    const list = runCli(['list'], sb.env);
    noTrace(list);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(line)]);
    const show = runCli(['show', key], sb.env);
    noTrace(show);
    expect(show.status).toBe(2);
    expect(show.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(show.stderr).toContain(
      `memtrust show: no record ${key} in the configured record roots; unreadable: ${store}: `,
    );
    expect(show.stderr).toMatch(problem);
    expect(storeState(store)).toEqual(before);
  }

  it('a store locked by a writer mid-transaction (rollback journal, exclusive lock): "locked", one line', () => {
    const { sb, store } = project((root) => void buildGovernedFixture(root));
    const w = new Database(store);
    cleanup.push(() => w.close());
    w.pragma('journal_mode = DELETE');
    w.pragma('cache_size = 2'); // the change spills into the file before commit
    w.exec('BEGIN EXCLUSIVE');
    w.prepare("UPDATE memory_records SET statement = 'half-written ' || hex(randomblob(200))").run();
    expectCalm(sb, store, /locked: another process is in a write transaction.*/);
    w.exec('ROLLBACK');
  });

  it('a live WAL store with a write transaction open: the committed records, no message, nothing written', () => {
    const { sb, store } = project(() => {});
    const f = buildGovernedFixture(sb.root, { wal: 'live' });
    cleanup.push(() => f.writer?.close());
    f.writer!.exec('BEGIN IMMEDIATE');
    f.writer!.prepare("UPDATE memory_records SET statement = 'uncommitted'").run();
    const before = storeState(store);
    const r = runCli(['list', '--json'], sb.env);
    noTrace(r);
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.total).toBe(f.count);
    expect(JSON.stringify(j)).not.toContain('uncommitted');
    expect(storeState(store)).toEqual(before);
    f.writer!.exec('ROLLBACK');
  });

  it('a corrupt file: "not a readable SQLite database", one line', () => {
    const { sb, store } = project((root) =>
      rawStore(root, Buffer.from('this is not a database, only text that happens to be here\n'.repeat(100))),
    );
    expectCalm(sb, store, /not a readable SQLite database \(file is not a database\)/);
  });

  it('an empty file: "no table memory_meta", one line', () => {
    const { sb, store } = project((root) => rawStore(root, ''));
    expectCalm(sb, store, /no table memory_meta: not a codeclone engineering-memory store/);
  });

  it('a missing table: names it, one line', () => {
    const { sb, store } = project((root) => {
      buildGovernedFixture(root);
      const w = new Database(path.join(root, STORE_REL));
      w.exec('DROP TABLE memory_links');
      w.close();
    });
    expectCalm(sb, store, /no table memory_links: not a codeclone engineering-memory store/);
  });

  it('a schema newer than the one tested: a warning naming the file, the records still read', () => {
    const { sb, store } = project((root) => void buildGovernedFixture(root, { schemaVersion: '1.9' }));
    const before = storeState(store);
    const warning = `memtrust: ${sb.root}: ${STORE_REL}: schema version 1.9 is newer than the 1.7 memtrust was tested with; read anyway`;
    const roots = runCli(['roots'], sb.env);
    noTrace(roots);
    expect(roots.status).toBe(0);
    expect(roots.stdout).toMatch(/— 78 records\n/);
    expect(roots.stderr.trimEnd().split('\n')).toEqual([warning]);
    expect(JSON.parse(runCli(['roots', '--json'], sb.env).stdout).configured[0].warnings).toEqual([
      expect.stringContaining('schema version 1.9 is newer'),
    ]);
    const list = runCli(['list', '--json'], sb.env);
    expect(list.status).toBe(0);
    expect(JSON.parse(list.stdout).total).toBe(78);
    expect(list.stderr.trimEnd().split('\n')).toEqual([warning]);
    const show = runCli(['show', fixtureId('draft')], sb.env);
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toContain('native: draft/inferred/agent');
    expect(storeState(store)).toEqual(before);
  });

  it('a store on a read-only filesystem (a read-only bind mount): read as usual, nothing written', (ctx) => {
    const { sb, store } = project(() => {});
    const f = buildGovernedFixture(sb.root, { wal: 'live' });
    f.writer!.close(); // checkpointed, -wal and -shm removed: a read-only SQLite open would have to create them
    const src = path.dirname(store);
    // The project seen through a read-only bind mount: needs CAP_SYS_ADMIN (root in this sandbox).
    const ro = path.join(sb.tmp, 'ro-project');
    fs.mkdirSync(ro);
    const m = spawnSync('mount', ['--bind', sb.root, ro]);
    if (m.status !== 0) {
      // Without mount rights the permission test in lib/sources/governed/bad-input.test.ts stands in.
      ctx.skip();
      return;
    }
    cleanup.push(() => void spawnSync('umount', [ro]));
    expect(spawnSync('mount', ['-o', 'remount,ro,bind', ro]).status).toBe(0);
    expect(() => fs.writeFileSync(path.join(ro, 'probe'), 'x')).toThrow(/EROFS/);
    // SQLite itself cannot open this store read-only: it would need to create the -shm.
    const direct = new Database(path.join(ro, STORE_REL), { readonly: true, fileMustExist: true });
    expect(() => direct.prepare('SELECT count(*) FROM memory_records').get()).toThrow(
      /unable to open|readonly|cantopen/i,
    );
    direct.close();
    const before = storeState(path.join(ro, STORE_REL));
    const env = envFor(ro, sb.db, sb.tmp);
    const roots = runCli(['roots'], env);
    noTrace(roots);
    expect(roots.stdout).toContain(`— ${f.count} records\n`);
    expect(roots.stderr).toBe('');
    const list = runCli(['list', '--json'], env);
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).total).toBe(f.count);
    const show = runCli(['show', f.ids.draft!], env);
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toContain(`run: ${cmd('approve', ro, f.ids.draft!)}`);
    expect(storeState(path.join(ro, STORE_REL))).toEqual(before);
    expect(fs.readdirSync(src).sort()).toEqual(['engineering_memory.sqlite3']);
  });
});
