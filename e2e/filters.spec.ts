import AxeBuilder from '@axe-core/playwright';
import { test, expect, shot } from './fixtures';

test('search and filters live in the URL and survive a reload', async ({ page }) => {
  await page.goto('/tiers/all');
  await page.getByLabel('Search').fill('pipeline');
  await page.getByLabel('Type', { exact: true }).selectOption('feedback');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/q=pipeline/);
  await expect(page).toHaveURL(/type=feedback/);
  const rows = page.locator('tbody tr');
  const n = await rows.count();
  expect(n).toBeGreaterThan(0);
  for (const t of await page.locator('tbody tr td:nth-child(2)').allInnerTexts()) expect(t).toBe('feedback');
  await page.reload();
  await expect(page.getByLabel('Search')).toHaveValue('pipeline');
  await expect(page.getByLabel('Type', { exact: true })).toHaveValue('feedback');
  await expect(rows).toHaveCount(n);
  await page.getByRole('link', { name: /Created/ }).click();
  await expect(page).toHaveURL(/sort=created/);
  await expect(page).toHaveURL(/q=pipeline/);
  await page.screenshot({ path: shot('filters'), fullPage: true });
});

test('main pages have no serious accessibility violations', async ({ page }) => {
  for (const url of ['/', '/tiers/verified', '/review', '/settings']) {
    await page.goto(url);
    await page.locator('h1').waitFor();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${url}: ${v.id} ${v.nodes.length}`)).toEqual([]);
  }
});
