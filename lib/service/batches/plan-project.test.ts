/**
 * In a Claude Code home the plans and the first hour name each root's project, so the pages can
 * say "project /x/my.app" instead of an encoded folder path (docs/transition-ui.md "First hour").
 * A real home in a temp folder, a real scan into SQLite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeClaudeHome } from '../../demo/claude-home';
import { loadConfig } from '../../core/config';
import { closeDb } from '../../../db/client';
import { createContext } from '../context';
import { scan } from '../index/scan-service';
import { firstHour } from '../index/first-hour';
import { planAudit, planBackfillBatch } from './batch-plan';
import { scopedContext } from '../project-filter';

const NOW = new Date('2026-11-01T00:00:00Z');
let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-plan-project-')));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('plans in a Claude Code home', () => {
  it('carry each root’s project: the back-fill’s roots and the first hour’s audit shares; the first hour by project', () => {
    const x = path.join(tmp, 'x');
    writeClaudeHome({
      configDir: path.join(tmp, 'home', '.claude'),
      seed: 7,
      now: NOW,
      projects: [
        { path: path.join(x, 'my.app'), memories: 4 },
        { path: path.join(x, 'plain'), memories: 3 },
      ],
    });
    const env = {
      HOME: path.join(tmp, 'home'),
      XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
      XDG_DATA_HOME: path.join(tmp, 'data'),
      MEMTRUST_DB: path.join(tmp, 'index.sqlite'),
      MEMTRUST_NOW: NOW.toISOString(),
      MEMTRUST_ROOT: '',
      CLAUDE_CONFIG_DIR: '',
    };
    const config = loadConfig({ env });
    const ctx = createContext(config, env);
    try {
      scan(ctx);
      const projectOf = (root: string) => (root.includes('my-app') ? path.join(x, 'my.app') : path.join(x, 'plain'));
      const backfill = planBackfillBatch(ctx);
      expect(backfill.roots.length).toBe(2);
      for (const r of backfill.roots) expect(r.project, r.root).toBe(projectOf(r.root));
      const shares = firstHour(ctx).audit;
      expect(shares.length).toBe(2);
      for (const a of shares) expect(a.project, a.root).toBe(projectOf(a.root));
      for (const r of planAudit(ctx).roots) expect(r.project, r.root).toBe(projectOf(r.root));
      // Filtered by project, the first hour counts that project's roots only: the two projects
      // partition this home, so their counts add up to the whole home's.
      const all = firstHour(ctx);
      const a = firstHour(scopedContext(ctx, path.join(x, 'my.app')).ctx);
      const b = firstHour(scopedContext(ctx, path.join(x, 'plain')).ctx);
      for (const k of ['backfill', 'privateAddresses', 'credentials', 'review'] as const)
        expect(a[k] + b[k], k).toBe(all[k]);
      expect(a.backfill).toBeGreaterThan(0);
      expect(b.backfill).toBeGreaterThan(0);
      expect(a.audit.map((s) => s.project)).toEqual([path.join(x, 'my.app')]);
    } finally {
      closeDb(config.dbPath);
    }
  });
});
