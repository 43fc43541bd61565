import { test, expect, shot } from './fixtures';

test('overview shows real counts from the configured root and links to filtered tables', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  const verified = page.getByRole('link', { name: /^Verified\s+\d+/ });
  await expect(verified).toBeVisible();
  const count = Number((await verified.innerText()).replace(/\D+/g, ''));
  expect(count).toBeGreaterThan(0);
  await page.screenshot({ path: shot('overview'), fullPage: true });
  await verified.click();
  await expect(page.getByRole('heading', { name: 'Verified memories' })).toBeVisible();
  await expect(page.getByText(`${count} memories`)).toBeVisible();
  await page.screenshot({ path: shot('tier-verified'), fullPage: true });
});

test('every page renders without errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  for (const [path, name] of [
    ['/tiers/inferred', 'tier-inferred'],
    ['/tiers/quarantined', 'tier-quarantined'],
    ['/tiers/archived', 'tier-archived'],
    ['/review', 'review'],
    ['/settings', 'settings'],
  ] as const) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    await page.screenshot({ path: shot(name), fullPage: true });
  }
  await page.goto('/tiers/quarantined');
  await page.locator('tbody a').first().click();
  await expect(page.getByRole('heading', { name: 'Lifecycle' })).toBeVisible();
  await page.screenshot({ path: shot('memory-detail'), fullPage: true });
  expect(errors).toEqual([]);
});

test('at 390 px no page scrolls sideways, and the header marks the page you are on', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, link] of [
    ['/', 'Overview'],
    ['/tiers/inferred', 'Inferred'],
    ['/review', 'Review'],
    ['/records', 'Records'],
    ['/audit', 'Audit'],
    ['/batches', 'Batches'],
    ['/context', 'Context'],
    ['/settings', 'Settings'],
  ] as const) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    const main = page.getByRole('navigation', { name: 'Main' });
    await expect(main.getByRole('link', { name: link, exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(main.locator('[aria-current="page"]')).toHaveCount(1);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide, `${path} is ${wide} px wide at 390`).toBeLessThanOrEqual(390);
  }
  // A memory's page: its header holds the whole file path, which must wrap.
  await page.goto('/tiers/quarantined');
  await page.locator('tbody a').first().click();
  await expect(page.getByRole('heading', { name: 'Lifecycle' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.goto('/review');
  await page.screenshot({ path: shot('review-390'), fullPage: true });
});

test('at 390 px the marked link of a page far right in the header row is scrolled into view', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/settings');
  const here = page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]');
  await expect(here).toHaveText('Settings');
  await expect
    .poll(async () => {
      const box = await here.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= 390;
    })
    .toBe(true);
  expect(await page.evaluate(() => window.scrollX)).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: shot('settings-390') });
});

test.describe('a root that does not exist', () => {
  test.use({ rootFiles: {} });
  test('is reported calmly where it is listed, and every page still renders', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('status').filter({ hasText: 'root not found' })).toBeVisible();
    await page.goto('/tiers/verified');
    await expect(page.getByText('No verified memories')).toBeVisible();
    await page.goto('/review');
    await expect(page.getByText('Nothing to review')).toBeVisible();
  });
});
