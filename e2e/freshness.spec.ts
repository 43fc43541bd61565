/**
 * The dashboard as the watcher of docs/freshness.md: it starts watching when it starts (no
 * page view needed), and a CLI command that asks it right after an in-place edit still sees
 * the edit.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { inferred, notesRoot } from './memory-files';
import { PROJECT, startServer, tempDir, type RunningServer } from './server';

const CLI = path.join(PROJECT, 'lib', 'cli', 'memtrust.cjs');
// Above the size under which a command scans without asking (lib/service/index/ask-monitor.ts).
const FILES = 2100;

let server: RunningServer;
let dir: string;

test.beforeAll(async () => {
  dir = tempDir();
  server = await startServer({ root: notesRoot(dir, FILES), dir });
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const lease = () => path.join(dir, 'index.sqlite.watch', 'lease.json');

test('the dashboard watches from start-up, and a command asking it sees an edit made just before', async () => {
  await expect
    .poll(() => fs.existsSync(lease()) && JSON.parse(fs.readFileSync(lease(), 'utf8')).files, { timeout: 30_000 })
    .toBe(FILES);
  const file = path.join(dir, 'root', 'memories', 'project_note_7.md');
  for (let round = 0; round < 3; round++) {
    // In place, same folder entry: only the watcher's events (or a stat) can tell.
    fs.writeFileSync(file, inferred(`Renamed ${round}`, '2026-11-01T08:00:00Z'));
    const r = spawnSync(process.execPath, [CLI, 'show', 'project_note_7.md', '--json'], {
      env: server.env,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).fields.name).toBe(`Renamed ${round}`);
    // Let the dashboard settle and scan, so the next round asks a watcher that vouches again.
    await new Promise((res) => setTimeout(res, 1500));
  }
  await server.stop();
  expect(fs.existsSync(lease())).toBe(false);
});
