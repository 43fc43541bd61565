/**
 * The first start on a large root (docs/first-index.md): the server answers at once with a
 * progress page while `memtrust scan` indexes in a child process, then moves on to the
 * overview by itself, with every memory counted. The threshold is lowered for the test
 * (MEMTRUST_BACKGROUND_INDEX_MIN); the root is large enough that the child is still
 * working when the first requests arrive.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { notesRoot } from './memory-files';
import { PROJECT, startServer, tempDir, type RunningServer } from './server';

const CLI = path.join(PROJECT, 'lib', 'cli', 'memtrust.cjs');
const SHOTS = path.join(PROJECT, 'e2e', 'screenshots');
const FILES = 6000;

let server: RunningServer;
let dir: string;

test.beforeAll(async () => {
  dir = tempDir();
  server = await startServer({ root: notesRoot(dir, FILES), dir, env: { MEMTRUST_BACKGROUND_INDEX_MIN: '1000' } });
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a large root: a progress page at once, then the overview with every memory', async ({ page }) => {
  // Right after start the child is indexing: every page sends the browser to the progress page.
  const t = Date.now();
  const html = await (await fetch(`${server.baseURL}/`)).text();
  expect(Date.now() - t, server.log()).toBeLessThan(5_000);
  expect(html).toContain('/indexing');
  await page.goto(`${server.baseURL}/indexing`);
  await expect(page.getByRole('heading', { name: 'Indexing your memories' })).toBeVisible();
  const bar = page.getByRole('progressbar', { name: 'Files read and checked' });
  await expect(bar).toHaveAttribute('aria-valuemax', String(FILES));
  await expect(page.getByText(`The first look at ${FILES.toLocaleString('en-US')} memory files`)).toBeVisible();
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, 'first-index.png') });
  // It moves on by itself.
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible({ timeout: 60_000 });
  await expect(page).toHaveURL(`${server.baseURL}/`);
  await expect(page.getByText(`${FILES.toLocaleString('en-US')} memories in 1 root`)).toBeVisible();
  // The progress page is gone once the index is there.
  await page.goto(`${server.baseURL}/indexing`);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  // The CLI reads the same index.
  const r = spawnSync(process.execPath, [CLI, 'list', '--json', '--limit', '1'], { env: server.env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).total).toBe(FILES);
});
