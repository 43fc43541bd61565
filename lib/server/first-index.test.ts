/**
 * The dashboard's first index in a child process (docs/first-index.md): what counts as a
 * first index, the threshold, and a real `memtrust scan --progress` child followed to its
 * end — the index it leaves is the index an in-process scan leaves; a child that fails says why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config';
import { createContext } from '../service/context';
import { scan } from '../service/index/scan-service';
import { closeDb } from '../../db/client';
import { childEnv, memoryFile, put, removeSandbox, sandbox, type Sandbox } from '../service/test-support';
import { BACKGROUND_MIN, backgroundMin, type FirstIndex, startFirstIndex, unindexedFiles } from './first-index';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox('memtrust-first-');
});
afterEach(() => removeSandbox(sb));

const FILE = memoryFile(
  [
    ['name', 'Note'],
    ['description', 'a note'],
    ['type', 'project'],
    ['trust-level', 'inferred'],
    ['created-at', '2026-10-01T00:00:00Z'],
  ],
  '\nThe release train leaves on Thursdays.\n',
);

function fill(n: number): void {
  for (let i = 0; i < n; i++) put(sb.root, `memories/project_note_${i}.md`, FILE);
}

const ctxOf = () => createContext(loadConfig({ env: sb.env }), sb.env);

/** The child's whole run. */
function runChild(files: number, env: NodeJS.ProcessEnv): Promise<{ job: FirstIndex }> {
  return new Promise((resolve) => {
    startFirstIndex(files, (job) => resolve({ job }), env);
  });
}

describe('the first index in the background', () => {
  it('the threshold: MEMTRUST_BACKGROUND_INDEX_MIN when it is a positive integer', () => {
    expect(backgroundMin({})).toBe(BACKGROUND_MIN);
    expect(backgroundMin({ MEMTRUST_BACKGROUND_INDEX_MIN: '40' })).toBe(40);
    for (const bad of ['0', '-3', '2.5', 'many', ''])
      expect(backgroundMin({ MEMTRUST_BACKGROUND_INDEX_MIN: bad })).toBe(BACKGROUND_MIN);
  });

  it('counts the files beyond the rows: a first index, or one cut short', () => {
    fill(30);
    put(sb.root, 'memories/notes.txt', 'not a memory');
    const ctx = ctxOf();
    expect(unindexedFiles(ctx)).toBe(30);
    scan(ctx);
    expect(unindexedFiles(ctx)).toBe(0);
    for (let i = 0; i < 12; i++) put(sb.root, `memories/project_later_${i}.md`, FILE);
    fs.rmSync(path.join(sb.root, 'memories', 'project_note_0.md'));
    expect(unindexedFiles(ctx)).toBe(11); // 41 files, 30 rows
    closeDb(sb.db);
  });

  it('runs memtrust scan --progress to the end: the same index an in-process scan writes', async () => {
    fill(2500);
    const ctx = ctxOf(); // the server opens (and migrates) the index first
    const files = unindexedFiles(ctx);
    expect(files).toBe(2500);
    const { job } = await runChild(files, childEnv(sb.env));
    expect(job.error).toBeNull();
    expect(job.running).toBe(false);
    expect([job.done, job.total]).toEqual([2500, 2500]);
    const rows = () =>
      ctx.handle.sqlite
        .prepare('SELECT key, tier, sha256, validate_exit, secret_exit, injection_exit FROM entries ORDER BY key')
        .all();
    const child = rows();
    expect(child).toHaveLength(2500);
    // The dashboard's own scan afterwards finds nothing to read.
    expect(scan(ctx).read).toBe(0);
    closeDb(sb.db);
    const again = sandbox('memtrust-first-inproc-');
    try {
      fs.cpSync(path.join(sb.root, 'memories'), path.join(again.root, 'memories'), { recursive: true });
      const inProcess = createContext(loadConfig({ env: again.env }), again.env);
      scan(inProcess);
      const fresh = inProcess.handle.sqlite
        .prepare('SELECT key, tier, sha256, validate_exit, secret_exit, injection_exit FROM entries ORDER BY key')
        .all() as { key: string }[];
      const strip = (r: { key: string }) => ({ ...r, key: r.key.slice(r.key.indexOf(':')) });
      expect((child as { key: string }[]).map(strip)).toEqual(fresh.map(strip));
    } finally {
      removeSandbox(again);
    }
  }, 60_000);

  it('a child that fails says why, and is not running', async () => {
    fill(3);
    const { job } = await runChild(3, childEnv({ ...sb.env, MEMTRUST_NOW: 'not a date' }));
    expect(job.running).toBe(false);
    expect(job.error).toMatch(/MEMTRUST_NOW/);
  }, 30_000);
});
