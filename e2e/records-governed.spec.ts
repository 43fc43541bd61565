/**
 * A governed store (codeclone's engineering memory) in the records pages: read-only,
 * codeclone's own command lines to copy, the store's bytes (and its -wal) never
 * touched by a page, and the view following the store when codeclone writes it.
 * The store is built from the published schema by lib/sources/governed/test-fixtures.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, shot } from './fixtures';
import { buildGovernedFixture } from '../lib/sources/governed/test-fixtures';
import { STORE_REL } from '../lib/sources/governed/types';

test.use({ rootFiles: {}, rootSetup: { setup: (root) => void buildGovernedFixture(root) } });

function storeBytes(root: string): string {
  const store = path.join(root, STORE_REL);
  return ['', '-wal', '-shm']
    .map((ext) =>
      fs.existsSync(store + ext)
        ? `${ext}:${crypto
            .createHash('sha256')
            .update(fs.readFileSync(store + ext))
            .digest('hex')}`
        : `${ext}:absent`,
    )
    .join(' ');
}

test('a governed draft is read-only: codeclone commands to copy, every action refused, the store never written', async ({
  page,
  server,
}) => {
  const before = storeBytes(server.root);
  await page.goto('/records?layout=governed');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await page.getByLabel('Search').fill('Fixture note draft:');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody tr [data-flag="pending-human"]')).toBeVisible();
  await page.locator('tbody tr a').first().click();
  await expect(page.getByRole('note').filter({ hasText: 'codeclone owns this store' })).toBeVisible();
  await expect(page.locator('[data-command]').first()).toContainText('codeclone');
  for (const b of await page.getByRole('group', { name: 'Actions' }).getByRole('button').all())
    await expect(b).toBeDisabled();
  await expect(page.getByRole('button', { name: /Copy the .* command/ }).first()).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
    [],
  );
  await page.screenshot({ path: shot('records-governed-detail'), fullPage: true });
  await page.goto('/records/conflicts');
  await expect(page.locator('h1')).toHaveText('Contradictions');
  expect(storeBytes(server.root)).toBe(before);
});

test('the governed view follows the store when codeclone writes it, without a reload', async ({ page, server }) => {
  await page.goto('/records?layout=governed&q=written+by+codeclone+just+now');
  await expect(page.getByText('No records match these filters')).toBeVisible();
  const db = new Database(path.join(server.root, STORE_REL));
  db.exec(`CREATE TEMP TABLE t AS SELECT * FROM memory_records WHERE status = 'draft' LIMIT 1;
    UPDATE t SET id = 'mem_e2e_live_0001', identity_key = 'fixture:e2e-live', statement = 'A note written by codeclone just now.';
    INSERT INTO memory_records SELECT * FROM t;`);
  db.close();
  await expect(page.locator('tbody tr')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByText('A note written by codeclone just now.')).toBeVisible();
});
