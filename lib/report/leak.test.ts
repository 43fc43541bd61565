/**
 * LEAK test (docs/credentials.md): secrets planted in memory bodies, a name, a
 * quarantine-reason and a demote reason must not reach any report, the CLI's
 * output, the audit JSONL files or the SQLite files. When one does, the failure
 * names the exact place (file and JSON field, or table and column).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { fixtureEnv, makeSecrets, writeLeakRoot } from './test-fixture';
import { runCli, type CliRun } from './cli-run';
import type { Env } from '../core/env';

const S = makeSecrets();

let tmp: string;
let root: string;
let env: Env;
const runs: CliRun[] = [];
const reports: Record<string, string> = {};

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-leak-'));
  root = path.join(tmp, 'root');
  writeLeakRoot(root, S);
  env = fixtureEnv(root, tmp);
  runs.push(runCli(['demote', 'user_clean_note.md', '--reason', `rotate ${S.aws} and tell ${S.email}`], env));
  runs.push(runCli(['audit', '--apply', '--yes'], env)); // --yes: demoting most of a root needs confirmation (docs/trust-model.md)
  for (const f of ['html', 'json', 'md']) {
    const out = path.join(tmp, `report.${f}`);
    runs.push(runCli(['report', '--format', f, '--out', out], env));
    reports[f] = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
  }
}, 120_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const found = (text: string) =>
  Object.entries(S)
    .filter(([, v]) => text.includes(v))
    .map(([k]) => k);

describe('planted secrets', () => {
  it('a reason holding a secret is refused; the other runs succeed (audit --apply, three reports)', () => {
    expect(
      runs.map((r) => r.code),
      runs.map((r) => r.stderr).join('\n'),
    ).toEqual([2, 0, 0, 0, 0]);
    expect(runs[0]!.stderr).toContain('the reason looks like it contains a secret');
    expect(reports.json!.length).toBeGreaterThan(1000);
  });

  it('are in no report, in any format', () => {
    for (const [f, text] of Object.entries(reports)) expect(found(text), `report.${f}`).toEqual([]);
    // …while the report still tells the owner where to look.
    expect(reports.json).toContain('(withheld: contains a secret-like value)');
    expect(reports.md).toContain('GitHub');
  });

  it('the index keeps the body of a memory with prose credentials, values masked in place', () => {
    const sqlite = new Database(env.MEMTRUST_DB!, { readonly: true });
    try {
      const row = sqlite.prepare("SELECT body FROM entries WHERE filename = 'reference_nas_note.md'").get() as {
        body: string;
      };
      expect(row.body).toContain('(rotate it in spring)');
      expect(row.body).toMatch(/password: ⟦credential #1 · \d+ chars⟧/);
      expect(row.body).toContain('| pi.lan | pi |');
      const classes = sqlite
        .prepare('SELECT DISTINCT class FROM findings WHERE "check" = \'secret\' ORDER BY class')
        .all() as { class: string }[];
      expect(classes.map((c) => c.class)).toEqual(['credential', 'personal']);
    } finally {
      sqlite.close();
    }
  });

  it('show --json and secret-check --json print masks and classes, never the values', () => {
    const show = runCli(['show', 'reference_nas_note.md', '--json'], env);
    // audit --apply may have quarantined it: read it where it is now.
    const where = ['memories', 'quarantine']
      .map((d) => path.join(root, d, 'reference_nas_note.md'))
      .find((f) => fs.existsSync(f))!;
    const check = runCli(['secret-check', where, '--json'], env);
    for (const r of [show, check]) expect(found(r.stdout + r.stderr)).toEqual([]);
    expect(check.stdout).toMatch(/"class": ?"credential"/);
  });

  it('are in no CLI output', () => {
    for (const r of runs) expect(found(r.stdout + r.stderr)).toEqual([]);
  });

  it('are in no audit JSONL file', () => {
    const dir = path.join(root, '.memtrust', 'audit');
    const leaks: string[] = [];
    for (const name of fs.readdirSync(dir)) {
      fs.readFileSync(path.join(dir, name), 'utf8')
        .split('\n')
        .filter(Boolean)
        .forEach((line, i) => {
          const e = JSON.parse(line) as Record<string, unknown>;
          for (const [field, value] of Object.entries(e)) {
            for (const k of found(JSON.stringify(value)))
              leaks.push(`${name} line ${i + 1} (${e.action} ${e.memory}) field "${field}": ${k}`);
          }
        });
    }
    expect(leaks).toEqual([]);
  });

  it('are in no byte of the SQLite files', () => {
    const db = env.MEMTRUST_DB!;
    const files = [db, `${db}-wal`, `${db}-shm`].filter((f) => fs.existsSync(f));
    const raw = files.flatMap((f) =>
      found(fs.readFileSync(f).toString('latin1')).map((k) => `${path.basename(f)}: ${k}`),
    );
    expect(raw.length ? [...raw, ...locate(db)] : []).toEqual([]);
  });
});

/** Which table and column hold each secret (FTS index blocks included). */
function locate(file: string): string[] {
  const sqlite = new Database(file, { readonly: true });
  const out: string[] = [];
  try {
    const tables = (
      sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((t) => t.name);
    for (const t of tables) {
      const cols = (sqlite.prepare(`SELECT name FROM pragma_table_info(?)`).all(t) as { name: string }[]).map(
        (c) => c.name,
      );
      for (const c of cols) {
        for (const [k, v] of Object.entries(S)) {
          const q = `SELECT count(*) AS n FROM "${t}" WHERE instr(CAST("${c}" AS BLOB), CAST(? AS BLOB)) > 0 OR instr(lower(CAST("${c}" AS TEXT)), lower(?)) > 0`;
          try {
            const n = (sqlite.prepare(q).get(v, v.slice(4)) as { n: number }).n;
            if (n > 0) out.push(`table ${t}.${c}: ${k} (${n} rows)`);
          } catch {
            // virtual tables without that column shape
          }
        }
      }
    }
  } finally {
    sqlite.close();
  }
  return out;
}
