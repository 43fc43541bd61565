/**
 * Same files + same MEMTRUST_NOW → byte-identical reports, through the real CLI:
 * twice on one index, and once more on a fresh index (mirror order differs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixtureEnv, writePreparedRoot } from './test-fixture';
import { runCli } from './cli-run';

let tmp: string;
let root: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-repro-'));
  root = path.join(tmp, 'root');
  writePreparedRoot(root);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function report(format: string, name: string, dbDir: string, extra: string[] = []): Buffer {
  const out = path.join(tmp, name);
  const r = runCli(['report', '--format', format, '--out', out, ...extra], fixtureEnv(root, path.join(tmp, dbDir)));
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(new RegExp(`^wrote ${format} report to `));
  return fs.readFileSync(out);
}

describe('reproducible reports', () => {
  it('two JSON reports of the same files are byte-identical, even from a fresh index', () => {
    const a = report('json', 'a.json', 'db1');
    const b = report('json', 'b.json', 'db1');
    const c = report('json', 'c.json', 'db2');
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(true);
    // No temp path but the configured root: the database location never appears.
    const text = a.toString('utf8');
    expect(text).not.toContain('index.sqlite');
    expect(text.split(tmp).length - 1).toBe(text.split(root).length - 1);
  }, 60_000);

  it('HTML and Markdown are reproducible too, and --since lands in the filters', () => {
    expect(report('html', 'a.html', 'db1').equals(report('html', 'b.html', 'db2'))).toBe(true);
    const md = report('md', 'a.md', 'db1', ['--since', '2026-11-01']).toString('utf8');
    expect(md).toContain('Filters: since 2026-11-01T00:00:00Z');
    expect(md).toContain('_4 events_');
  }, 60_000);

  it('refuses bad flags with exit 64', () => {
    const env = fixtureEnv(root, path.join(tmp, 'db1'));
    for (const args of [
      ['--format', 'pdf'],
      ['--since', 'last week'],
      ['--type', 'note'],
      ['--out', path.join(tmp, 'no', 'such', 'dir', 'r.json')],
    ]) {
      const r = runCli(['report', ...args], env);
      expect(r.code, args.join(' ')).toBe(64);
      expect(r.stderr).toContain('usage: memtrust report');
    }
  }, 60_000);
});
