/**
 * A first start with no configuration on a machine with a Claude Code home (CONTRACT §8; docs/roots.md
 * "The Claude Code home"): the dashboard shows every project's folders, which project each
 * belongs to, and filters every page by project.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { writeClaudeHome } from '../lib/demo/claude-home';
import { startServer, tempDir, type RunningServer } from './server';

const NOW = '2026-11-22T12:00:00Z';
const encode = (p: string) => p.replace(/[^A-Za-z0-9]/g, '-');

let dir: string;
let server: RunningServer;
let x: string;

test.beforeEach(async () => {
  dir = fs.realpathSync(tempDir('memtrust-e2e-home-'));
  x = path.join(dir, 'x');
  writeClaudeHome({
    configDir: path.join(dir, 'home', '.claude'),
    seed: 5,
    now: new Date(NOW),
    projects: [
      { path: path.join(x, 'my.app'), memories: 5, agents: ['tester'] },
      { path: path.join(x, 'notes app'), memories: 4, transcript: false },
      { path: path.join(x, 'plain'), memories: 3 },
      { path: path.join(x, 'gone-away'), memories: 2, exists: false },
    ],
    userAgents: [{ name: 'reviewer', memories: 2 }],
  });
  // No --root, no MEMTRUST_ROOT, no settings: only the home.
  server = await startServer({
    root: '',
    dir,
    now: NOW,
    env: { HOME: path.join(dir, 'home'), MEMTRUST_ROOT: '', CLAUDE_CONFIG_DIR: '' },
  });
});

test.afterEach(async ({ page: _page }, testInfo) => {
  await server.stop();
  if (testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach('server-log', { body: server.log(), contentType: 'text/plain' });
  fs.rmSync(dir, { recursive: true, force: true });
});

test('with no configuration the dashboard shows the projects of the Claude Code home and filters by project', async ({
  page,
}) => {
  await page.goto(`${server.baseURL}/`);
  await expect(page.getByText('Demo data')).toHaveCount(0);
  const projects = page.getByTestId('root-project');
  await expect(projects.filter({ hasText: path.join(x, 'my.app') })).toHaveCount(2);
  await expect(projects.filter({ hasText: path.join(x, 'notes app') })).toHaveCount(1);
  await expect(projects.filter({ hasText: path.join(x, 'gone-away') })).toContainText('no longer exists');
  await expect(page.getByText(/19 memories in 6 roots/)).toBeVisible();

  // The picker: "All projects" by default, each project by its path.
  const picker = page.getByRole('combobox', { name: 'Project', exact: true });
  await expect(picker).toHaveValue('');
  await picker.selectOption(path.join(x, 'plain'));
  await expect(page).toHaveURL(/[?&]project=/);
  await expect(page.getByText(/3 memories in 1 root/)).toBeVisible();
  await expect(projects).toHaveCount(1);
  await expect(projects).toContainText(path.join(x, 'plain'));

  // Another page reached from the nav keeps the project.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inferred' }).click();
  await expect(page).toHaveURL(/\/tiers\/inferred$/);
  await expect(page.getByText(/^3 memories$/)).toBeVisible();
  await expect(picker).toHaveValue(path.join(x, 'plain'));

  // Back to every project.
  await picker.selectOption('');
  await expect(page.getByText(/^19 memories$/)).toBeVisible();

  // The Context X-ray of one project: what a session there gets, nothing of another project.
  await page.goto(`${server.baseURL}/context?project=${encodeURIComponent(path.join(x, 'my.app'))}`);
  await expect(page.getByTestId('context-project')).toContainText(path.join(x, 'my.app'));
  const hook = page.getByTestId('hook-text');
  await expect(hook).toContainText(encode(path.join(x, 'my.app')));
  await expect(hook).toContainText('agent-memory/reviewer');
  await expect(hook).not.toContainText(encode(path.join(x, 'plain')));
  await expect(hook).not.toContainText('notes-app');
});

test('at 390 px the pages that list the home’s roots stay inside the page, and plans name roots by project', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // The audit's Root filter lists every folder's path; the plans list the roots they touch.
  for (const url of ['/', '/audit', '/run/backfill', '/run/audit']) {
    await page.goto(`${server.baseURL}${url}`);
    await expect(page.locator('h1').first()).toBeVisible();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide, `${url} is ${wide} px wide at 390`).toBeLessThanOrEqual(390);
  }
  await expect(page.locator('select[name="source"] option')).toHaveCount(0); // /run/audit has no filter
  await page.goto(`${server.baseURL}/audit`);
  expect(await page.locator('select[name="source"] option').count()).toBeGreaterThan(3);
  await page.goto(`${server.baseURL}/run/backfill`);
  // my.app's memory folder and its agent memory: both of its project.
  await expect(page.locator('li', { hasText: `project ${path.join(x, 'my.app')}:` })).toHaveCount(2);
  await expect(page.locator('li', { hasText: encode(path.join(x, 'my.app')) })).toHaveCount(0);
  // All projects in one table: each row says whose it is; one project's table needs no such line.
  await page.goto(`${server.baseURL}/tiers/inferred`);
  await expect(page.getByTestId('row-project').first()).toContainText('project ');
  await expect(
    page
      .getByTestId('row-project')
      .filter({ hasText: path.join(x, 'notes app') })
      .first(),
  ).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The X-ray names each root's project under its heading.
  await page.goto(`${server.baseURL}/context`);
  await expect(
    page
      .getByTestId('root-project')
      .filter({ hasText: `project ${path.join(x, 'my.app')}` })
      .first(),
  ).toBeVisible();
  // A memory's page says which project its folder belongs to.
  await page.goto(`${server.baseURL}/tiers/inferred?project=${encodeURIComponent(path.join(x, 'plain'))}`);
  await expect(page.getByTestId('row-project')).toHaveCount(0);
  await page.locator('tbody a').first().click();
  await expect(page.getByTestId('root-project')).toContainText(`project ${path.join(x, 'plain')}`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
