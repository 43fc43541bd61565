/**
 * Record roots on the overview and the settings page (docs/records.md): a root of a
 * layout read through an adapter is listed with its layout, shape and record count and
 * links to the records page, instead of a refusal. The test layout is switched on in
 * the server by MEMTRUST_TEST_LAYOUT=1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { startServer, tempDir, type RunningServer } from './server';
import { shot } from './fixtures';

let server: RunningServer;
let dir: string;
let trust: string;
let team: string;

test.beforeAll(async () => {
  dir = tempDir();
  trust = path.join(dir, 'trust');
  team = path.join(dir, 'team');
  fs.mkdirSync(path.join(trust, 'memories'), { recursive: true });
  fs.writeFileSync(
    path.join(trust, 'memories', 'feedback_ci_merge.md'),
    '---\nname: CI merge policy\ndescription: never merge on red\ntype: feedback\ncreated-at: 2026-10-01T09:00:00Z\n---\n\nWait for green.\n',
  );
  fs.mkdirSync(team);
  fs.writeFileSync(
    path.join(team, 'main.testrecords.jsonl'),
    `${[
      JSON.stringify({
        key: 'deploy-host',
        tier: 'verified',
        title: 'Deploy host',
        text: 'Deploys go through the bastion host.',
      }),
      JSON.stringify({ key: 'old-cache', title: 'Old cache rule', text: 'Clear the cache.', flags: ['stale'] }),
      '{broken',
    ].join('\n')}\n`,
  );
  server = await startServer({ root: [trust, team].join(path.delimiter), dir, env: { MEMTRUST_TEST_LAYOUT: '1' } });
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the overview lists a record root with its layout, shape and record count, linking to its records', async ({
  page,
}) => {
  await page.goto(`${server.baseURL}/`);
  // The Roots section by its heading: the first-hour steps above it mention roots too.
  const roots = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Roots', exact: true }) })
    .locator('li');
  await expect(roots).toHaveCount(2);
  const rec = roots.filter({ hasText: team });
  await expect(rec).toContainText('test records · layout test-layout, jsonl · 1 unreadable entry');
  const link = rec.getByRole('link', { name: '2 records' });
  await expect(link).toHaveAttribute('href', /^\/records\?source=team-[0-9a-f]{6}$/);
  await expect(page.getByText('1 memories in 1 root · ')).toBeVisible();
  await expect(page.getByText(/· 2 records in 1 record root/)).toBeVisible();
  await expect(rec).not.toContainText('not read');
  await page
    .locator('section', { hasText: 'Roots' })
    .last()
    .screenshot({ path: shot('record-roots-overview') });
});

test('settings lists the record root beside the memory root', async ({ page }) => {
  await page.goto(`${server.baseURL}/settings`);
  await expect(page.getByText('test records · layout test-layout, jsonl · 2 records')).toBeVisible();
  await expect(page.getByText(trust, { exact: true })).toBeVisible();
  await page.screenshot({ path: shot('record-roots-settings'), fullPage: true });
});
