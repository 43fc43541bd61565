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

const ctxOf = () => createContext(loadConfig({ env: sb.env }), sb.env);
const keys = (ctx: ReturnType<typeof ctxOf>) =>
  (ctx.handle.sqlite.prepare('SELECT rel_path FROM memories ORDER BY rel_path').pluck().all() as string[]).map((p) =>
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
      let scans = 0;
      const job = scanOffRequests(
        () => {
          scans++;
          keeper.fresh();
        },
        () => busy,
        5,
      );
      await new Promise((r) => setTimeout(r, 40));
      expect([scans, job.pending, keeper.scanned]).toEqual([0, true, false]);
      busy = false;
      await new Promise((r) => setTimeout(r, 40));
      expect([scans, job.pending, keeper.scanned]).toEqual([1, false, true]);
      expect(keys(ctx)).toEqual(['project_note_0.md', 'project_note_2.md']);
    } finally {
      keeper.close();
    }
  });

  it('at start-up, not before its delay, even with no request in flight', async () => {
    let scans = 0;
    const job = scanOffRequests(
      () => scans++,
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
      () => scans++,
      () => false,
    );
    job.cancel();
    await new Promise((r) => setTimeout(r, 20));
    expect([scans, job.pending]).toEqual([0, false]);
  });
});
