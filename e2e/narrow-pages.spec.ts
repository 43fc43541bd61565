/**
 * The 390 px pass over the pages the header does not link to (e2e/pages.spec.ts covers the
 * header's): tier tabs, charts, the run pages, a memory's page and its edit, versions and
 * transcript pages, a batch's page, the deleted and indexing pages. Nothing may scroll
 * sideways (docs/dashboard.md, "Layout at 390 px").
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test, expect, shot } from './fixtures';
import { PROJECT } from './server';

async function narrow(page: import('@playwright/test').Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('h1').first()).toBeVisible();
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide, `${url} is ${wide} px wide at 390`).toBeLessThanOrEqual(390);
}

test('at 390 px no page beyond the header links scrolls sideways', async ({ page, server }) => {
  // A batch to open: a demote made with the CLI.
  await page.goto('/tiers/inferred');
  const first = page.locator('tbody a').first();
  const href = (await first.getAttribute('href')) ?? '';
  const id = decodeURIComponent(href.replace(/^\/memories\//, ''));
  const filename = id.slice(id.indexOf(':') + 1);
  const r = spawnSync(
    process.execPath,
    [path.join(PROJECT, 'lib/cli/memtrust.cjs'), 'demote', filename, '--reason', 'checked at 390 px'],
    { env: server.env, encoding: 'utf8' },
  );
  expect(r.status, r.stderr).toBe(0);

  await page.setViewportSize({ width: 390, height: 844 });
  for (const url of [
    '/tiers/verified',
    '/tiers/quarantined',
    '/tiers/archived',
    '/audit/charts',
    '/run/audit',
    '/run/backfill',
    '/memories/new',
    '/deleted',
    '/indexing',
    href,
    `${href}/versions`,
  ])
    await narrow(page, url);
  // An editable memory's editor (the one demoted above is quarantined now).
  await page.goto('/tiers/verified');
  const verified = (await page.locator('tbody a').first().getAttribute('href')) ?? '';
  await narrow(page, `${verified}/edit`);
  await page.screenshot({ path: shot('edit-390'), fullPage: true });
  await page.goto('/batches');
  await page.locator('tbody a').first().click();
  await expect(page.locator('h1').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: shot('batch-390'), fullPage: true });
});
