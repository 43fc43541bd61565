/**
 * The inspect pool (docs/performance.md, "Both cores"): a batch a worker cannot do is done on
 * the main thread, and how many workers a CLI scan starts. That a pooled scan writes the rows
 * a scan on one thread writes is held in same-index.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CORPUS_OWNER, writeScanCorpus } from '../fixtures/scan-corpus';
import { defaultWorkers, openInspectPool, type PoolFileResult } from './inspect-pool';
import { readPrepared } from './read-one';
import type { ListedFile } from '../../sources';

const dirs: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-pool-'));
  dirs.push(d);
  return d;
}

describe('a scan inspected on worker threads', () => {
  it('does itself a batch a worker could not do', async () => {
    const tmp = tempDir();
    const corpus = writeScanCorpus(path.join(tmp, 'roots'), 30, 10);
    const root = corpus.roots[0]!;
    const file = (rel: string): ListedFile => ({
      relPath: rel,
      filename: path.basename(rel),
      location: 'memories',
      size: fs.statSync(path.join(root, rel)).size,
      mtimeMs: Math.floor(fs.statSync(path.join(root, rel)).mtimeMs),
    });
    const names = fs.readdirSync(path.join(root, 'memories')).filter((n) => n.endsWith('.md'));
    const batches = [names.slice(0, 5), names.slice(5, 10), names.slice(10, 15)].map((b) =>
      b.map((n) => file(`memories/${n}`)),
    );
    // No path to read: path.join throws before readOne's own error handling.
    const broken = { ...batches[1]![2]!, relPath: undefined } as unknown as ListedFile;
    const owner = { emails: [CORPUS_OWNER] };
    const pool = openInspectPool(
      1,
      owner,
      root,
      'src',
      batches.map((files, k) => ({ files: k === 1 ? files.map((f, i) => (i === 2 ? broken : f)) : files, prior: [] })),
    );
    expect(pool).not.toBeNull();
    // Let the worker claim every batch before the first take, so none is claimed here.
    for (let waited = 0; pool!.claimed() < 3 && waited < 20_000; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
    expect(pool!.claimed()).toBeGreaterThanOrEqual(3);
    const doneHere: number[] = [];
    const here = (k: number): PoolFileResult[] => {
      doneHere.push(k);
      return batches[k]!.map((f) => ({
        size: f.size,
        mtimeMs: f.mtimeMs,
        result: readPrepared(root, 'src', f, owner, null),
      }));
    };
    const got = [0, 1, 2].map((k) => pool!.take(k, here));
    pool!.close();
    expect(doneHere).toEqual([1]);
    for (const k of [0, 1, 2]) {
      const expected = batches[k]!.map((f) => ({
        size: f.size,
        mtimeMs: f.mtimeMs,
        result: readPrepared(root, 'src', f, owner, null),
      }));
      expect(got[k]).toEqual(expected);
    }
  });
});

describe('a worker that dies', () => {
  it('leaves every batch to the main thread and nothing uncaught behind', async () => {
    const tmp = tempDir();
    const corpus = writeScanCorpus(path.join(tmp, 'roots'), 30, 10);
    const root = corpus.roots[0]!;
    const names = fs.readdirSync(path.join(root, 'memories')).filter((n) => n.endsWith('.md'));
    const files = names.slice(0, 6).map(
      (n): ListedFile => ({
        relPath: `memories/${n}`,
        filename: n,
        location: 'memories',
        size: fs.statSync(path.join(root, 'memories', n)).size,
        mtimeMs: Math.floor(fs.statSync(path.join(root, 'memories', n)).mtimeMs),
      }),
    );
    const batches = [files.slice(0, 3), files.slice(3)];
    const owner = { emails: [CORPUS_OWNER] };
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      const pool = openInspectPool(
        1,
        owner,
        root,
        'src',
        batches.map((b) => ({ files: b, prior: [] })),
        { code: 'throw new Error("the worker could not start")' },
      );
      expect(pool).not.toBeNull();
      const here = (k: number): PoolFileResult[] =>
        batches[k]!.map((f) => ({
          size: f.size,
          mtimeMs: f.mtimeMs,
          result: readPrepared(root, 'src', f, owner, null),
        }));
      const got = [0, 1].map((k) => pool!.take(k, here));
      // The worker's error arrives on the event loop, as it would after a long scan.
      await new Promise((r) => setTimeout(r, 1000));
      pool!.close();
      expect(got).toEqual([here(0), here(1)]);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});

describe('defaultWorkers', () => {
  it('leaves one core to the main thread, and MEMTRUST_WORKERS decides when set', () => {
    vi.stubEnv('MEMTRUST_WORKERS', '');
    const cores = os.availableParallelism();
    expect(defaultWorkers()).toBe(Math.max(0, Math.min(cores - 1, 4)));
    for (const [set, n] of [
      ['0', 0],
      ['3', 3],
      ['40', 16],
      ['-1', 0],
      ['two', 0],
    ] as const) {
      vi.stubEnv('MEMTRUST_WORKERS', set);
      expect(defaultWorkers(), set).toBe(n);
    }
  });
});
