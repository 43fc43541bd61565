/**
 * The dashboard's first scan off the first page (docs/freshness.md, "The dashboard's first
 * scan"): when the index may be shown before it, and that the scan waits for the requests in
 * flight, then leaves the index the disk says (a file gone meanwhile has no row).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config';
import { createContext } from '../service/context';
import { scan } from '../service/index/scan-service';
import { keepFresh } from '../service/index/keep-fresh';
import { memoryFile, put, removeSandbox, sandbox, type Sandbox } from '../service/test-support';
import { unindexedFiles } from './first-index';
import { indexComplete as complete, scanOffRequests } from './first-scan';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox('memtrust-first-scan-');
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

/** The rule at any size: these roots are tiny. */
const indexComplete = (ctx: Parameters<typeof complete>[0], unindexed: number) => complete(ctx, unindexed, 1);

/** Waits (2 s at most) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let t = Date.now(); !done() && Date.now() - t < 2000; ) await new Promise((r) => setTimeout(r, 5));
}

const ctxOf = () => createContext(loadConfig({ env: sb.env }), sb.env);
const keys = (ctx: ReturnType<typeof ctxOf>) =>
  (ctx.handle.sqlite.prepare('SELECT rel_path FROM entries ORDER BY rel_path').pluck().all() as string[]).map((p) =>
    path.basename(p),
  );

describe('the first scan off the first page', () => {
  it('the index may be shown first only when a finished scan left a row for every file', () => {
    for (let i = 0; i < 3; i++) put(sb.root, `memories/project_note_${i}.md`, FILE);
    const ctx = ctxOf();
    expect(indexComplete(ctx, unindexedFiles(ctx))).toBe(false); // never scanned
    scan(ctx);
    expect(indexComplete(ctx, unindexedFiles(ctx))).toBe(true);
    put(sb.root, 'memories/project_later.md', FILE); // a file the index never saw
    expect(indexComplete(ctx, unindexedFiles(ctx))).toBe(false);
    expect(complete(ctx, 0, 3)).toBe(true);
    expect(complete(ctx, 0, 4)).toBe(false); // a small index: its scan costs less than not waiting
    ctx.handle.sqlite.prepare("DELETE FROM meta WHERE key = 'last_scan'").run();
    expect(indexComplete(ctx, 0)).toBe(false);
  });

  it('waits for the requests in flight, then the index is the disk: a file gone has no row', async () => {
    for (let i = 0; i < 3; i++) put(sb.root, `memories/project_note_${i}.md`, FILE);
    scan(ctxOf());
    // A new server over that index; a file deleted while it was down.
    const ctx = ctxOf();
    fs.rmSync(path.join(sb.root, 'memories', 'project_note_1.md'));
    const keeper = keepFresh(ctx);
    try {
      expect(keeper.scanned).toBe(false);
      expect(indexComplete(ctx, unindexedFiles(ctx))).toBe(true);
      expect(keys(ctx)).toContain('project_note_1.md'); // what the page renders meanwhile
      let busy = true;
      let steps = 0;
      const job = scanOffRequests(
        () => {
          steps++;
          return keeper.step();
        },
        () => busy,
        5,
      );
      await new Promise((r) => setTimeout(r, 40));
      expect([steps, job.pending, keeper.scanned]).toEqual([0, true, false]);
      busy = false;
      await until(() => !job.pending);
      expect([job.pending, keeper.scanned]).toEqual([false, true]);
      expect(steps).toBeGreaterThan(1);
      expect(keys(ctx)).toEqual(['project_note_0.md', 'project_note_2.md']);
    } finally {
      keeper.close();
    }
  });

  it('goes a root at a time: a request meanwhile pauses it, and a page that cannot wait finishes it', async () => {
    const roots = ['a', 'b', 'c'].map((r) => path.join(sb.tmp, r));
    for (const r of roots) for (let i = 0; i < 2; i++) put(r, `memories/project_note_${i}.md`, FILE);
    const env = { ...sb.env, MEMTRUST_ROOT: roots.join(path.delimiter) };
    const ctxOfAll = () => createContext(loadConfig({ env }), env);
    scan(ctxOfAll());
    const ctx = ctxOfAll();
    fs.rmSync(path.join(roots[2]!, 'memories', 'project_note_1.md')); // in the last root
    const keeper = keepFresh(ctx);
    try {
      // One step per root at least, beside the recovery and the watches.
      let n = 0;
      while (keeper.step()) n++;
      expect(n).toBeGreaterThanOrEqual(roots.length);
      expect(keeper.scanned).toBe(true);
      expect(keys(ctx)).toHaveLength(5);
    } finally {
      keeper.close();
    }
    fs.rmSync(path.join(roots[0]!, 'memories', 'project_note_0.md'));
    const later = keepFresh(ctxOfAll());
    try {
      let busy = false;
      const job = scanOffRequests(
        () => {
          const more = later.step();
          busy = true; // a request came in after the first step
          return more;
        },
        () => busy,
        5,
      );
      await new Promise((r) => setTimeout(r, 30));
      expect([job.pending, later.scanned]).toEqual([true, false]);
      // The request's page needs the index as the disk has it: it finishes the scan itself.
      later.fresh();
      expect(later.scanned).toBe(true);
      expect(keys(ctx)).toHaveLength(4);
      busy = false;
      await until(() => !job.pending);
      expect(later.scanned).toBe(true); // the next step found nothing left
    } finally {
      keeper.close();
    }
  });

  it('at start-up, not before its delay, even with no request in flight', async () => {
    let scans = 0;
    const job = scanOffRequests(
      () => {
        scans++;
        return false;
      },
      () => false,
      5,
      60,
    );
    await new Promise((r) => setTimeout(r, 20));
    expect([scans, job.pending]).toEqual([0, true]);
    await new Promise((r) => setTimeout(r, 80));
    expect([scans, job.pending]).toEqual([1, false]);
  });

  it('cancelled (settings reset the context), it never runs', async () => {
    let scans = 0;
    const job = scanOffRequests(
      () => {
        scans++;
        return false;
      },
      () => false,
    );
    job.cancel();
    await new Promise((r) => setTimeout(r, 20));
    expect([scans, job.pending]).toEqual([0, false]);
  });
});
