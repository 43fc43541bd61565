/**
 * The scan: a large first index defers full-text search and builds it once; later
 * changes go through the triggers again; a rescan with no change reads nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCorpus, writeCorpus } from '../../demo';
import { listMemories } from '../../../db/queries/memories';
import { loadConfig } from '../../core/config';
import { createContext } from '../context';
import { scan } from './scan-service';
import { closeDb } from '../../../db/client';
import { sandbox, removeSandbox } from '../test-support';

const sb = sandbox('memtrust-scan-');
afterAll(() => {
  closeDb(sb.env.MEMTRUST_DB!);
  removeSandbox(sb);
});

describe('scan', () => {
  writeCorpus(sb.root, generateCorpus({ n: 2100, seed: 3, now: new Date('2026-11-22T12:00:00Z') }));
  const ctx = createContext(loadConfig({ env: sb.env }), sb.env);
  const now = new Date('2026-11-22T12:00:00Z');

  it('indexes a large first scan with search built once at the end', () => {
    const stats = scan(ctx);
    expect(stats.read).toBe(2100);
    expect(ctx.handle.sqlite.prepare("SELECT 1 FROM meta WHERE key = 'fts_deferred'").get()).toBeUndefined();
    const ftsRows = (ctx.handle.sqlite.prepare('SELECT count(*) AS n FROM entries_fts').get() as { n: number }).n;
    expect(ftsRows).toBe(2100);
    expect(listMemories(ctx.handle.sqlite, { q: 'pipeline', limit: 5 }, now).total).toBeGreaterThan(0);
  });

  it('a rescan with no change reads nothing; a new file is searchable through the triggers', () => {
    expect(scan(ctx).read).toBe(0);
    fs.writeFileSync(
      path.join(sb.root, 'memories', 'user_zebra_unique.md'),
      '---\nname: Zebra crossing rule\ndescription: a unique word\ntype: user\n---\n\nThe word quokkaflux appears only in this memory body.\n',
    );
    expect(scan(ctx).read).toBe(1);
    const hit = listMemories(ctx.handle.sqlite, { q: 'quokkaflux', limit: 5 }, now);
    expect(hit.items.map((i) => i.filename)).toEqual(['user_zebra_unique.md']);
    fs.rmSync(path.join(sb.root, 'memories', 'user_zebra_unique.md'));
    expect(scan(ctx).removed).toBe(1);
    expect(listMemories(ctx.handle.sqlite, { q: 'quokkaflux', limit: 5 }, now).total).toBe(0);
  });

  it('finishes a deferred index left behind by a scan that died', () => {
    ctx.handle.sqlite.prepare("INSERT INTO meta (key, value) VALUES ('fts_deferred', '1')").run();
    ctx.handle.sqlite.prepare("INSERT INTO entries_fts(entries_fts) VALUES ('delete-all')").run();
    scan(ctx);
    expect(ctx.handle.sqlite.prepare("SELECT 1 FROM meta WHERE key = 'fts_deferred'").get()).toBeUndefined();
    expect(listMemories(ctx.handle.sqlite, { q: 'pipeline', limit: 5 }, now).total).toBeGreaterThan(0);
  });
});
