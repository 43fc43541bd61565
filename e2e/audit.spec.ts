/**
 * Audit history, charts and the report against the real server and the prepared
 * root of lib/report/test-fixture.ts (numbers worked out by hand there and in
 * db/queries/charts.test.ts).
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, tempDir, PROJECT, type RunningServer } from './server';
import { fixtureEnv, makeSecrets, writeLeakRoot, writePreparedRoot } from '../lib/report/test-fixture';
import { runCli } from '../lib/report/cli-run';

/** The machine name the fixture's own events use (next to a second machine, laptop-b). */
const MACHINE: NodeJS.ProcessEnv = { ...process.env, MEMTRUST_MACHINE: 'test' };
const SHOTS = path.join(PROJECT, 'e2e', 'screenshots');
test.describe('prepared root', () => {
  let server: RunningServer;
  let dir: string;

  test.beforeAll(async () => {
    dir = tempDir('memtrust-e2e-audit-');
    writePreparedRoot(path.join(dir, 'root'));
    server = await startServer({ root: path.join(dir, 'root'), dir, env: MACHINE });
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  test.afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const rows = (page: Page) => page.locator('table tbody tr');

  /** The value cell(s) of a chart's table-view row, by its first cell. */
  async function chartRow(page: Page, chart: string, label: string): Promise<string[]> {
    const fig = page.locator(`figure[data-chart="${chart}"]`);
    const details = fig.locator('details');
    if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await fig.getByText('Table view').click();
    const row = fig.locator('tbody tr').filter({ has: page.locator('th', { hasText: new RegExp(`^${label}$`) }) });
    return row.locator('td').allTextContents();
  }

  test('audit filters live in the URL and survive a reload', async ({ page }) => {
    await page.goto(`${server.baseURL}/audit`);
    await expect(page.getByRole('heading', { name: 'Audit history' })).toBeVisible();
    await expect(page.getByText('10 events from every machine')).toBeVisible();
    // Newest first across both machines' audit files.
    await expect(rows(page).first()).toContainText('2026-11-20 13:00');
    await expect(rows(page).last()).toContainText('2026-07-01 09:00');
    await page.screenshot({ path: path.join(SHOTS, 'audit.png') });

    await page.getByLabel('Action').selectOption('demote');
    await page.getByLabel('Machine').selectOption('laptop-b');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\/audit\?action=demote&machine=laptop-b$/);
    await expect(rows(page)).toHaveCount(2);
    await page.reload();
    await expect(page.getByLabel('Action')).toHaveValue('demote');
    await expect(page.getByLabel('Machine')).toHaveValue('laptop-b');
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).first()).toContainText('user_q_india.md');
    await expect(rows(page).first()).toContainText(
      'secret.private-ip (line 8): private network address 10.… on line 8',
    );
    const link = rows(page).first().getByRole('link', { name: 'user_q_india.md' });
    const source = (await link.getAttribute('href'))!.split('/').pop()!;
    expect(decodeURIComponent(source)).toMatch(/^root-[0-9a-f]{6}:user_q_india\.md$/);
  });

  test('date range, memory and type filters', async ({ page }) => {
    await page.goto(`${server.baseURL}/audit?from=2026-11-01`);
    await expect(rows(page)).toHaveCount(4);
    await page.goto(`${server.baseURL}/audit?to=2026-09-30`);
    await expect(rows(page)).toHaveCount(3);
    await expect(rows(page).getByText('recovered')).toHaveCount(1);
    await page.goto(`${server.baseURL}/audit?memory=ALPHA`);
    await expect(rows(page)).toHaveCount(2);
    await page.goto(`${server.baseURL}/audit?type=user`);
    await expect(page.getByText('6 events match type user')).toBeVisible();
    await page.getByRole('link', { name: 'Clear' }).click();
    await expect(page).toHaveURL(/\/audit$/);
    await expect(rows(page)).toHaveCount(10);
  });

  test('chart tables show the hand-computed numbers and follow the filters', async ({ page }) => {
    await page.goto(`${server.baseURL}/audit`);
    await page.getByRole('link', { name: 'Charts' }).click();
    await expect(page.getByRole('heading', { name: 'Audit charts' })).toBeVisible();
    await expect(page.locator('figure .recharts-wrapper')).toHaveCount(6);
    expect(await chartRow(page, 'verified', '76–90')).toEqual(['1', 'fresh']);
    expect(await chartRow(page, 'verified', '91–120')).toEqual(['1', 'stale']);
    expect(await chartRow(page, 'verified', 'never')).toEqual(['1', 'stale']);
    expect(await chartRow(page, 'inferred', '7–13')).toEqual(['1', 'awaiting review']);
    expect(await chartRow(page, 'quarantine', '121–180')).toEqual(['1', 'archive candidate (91+)']);
    expect(await chartRow(page, 'tiers', '2026-08-31')).toEqual(['4', '1', '2', '1']);
    expect(await chartRow(page, 'tiers', '2026-11-16')).toEqual(['5', '3', '3', '1']);
    expect(await chartRow(page, 'transitions', '2026-09-28')).toEqual(['2', '0', '1', '0', '0', '3']);
    // Hover shows the exact value.
    await page.locator('figure[data-chart="verified"] .recharts-bar-rectangle').first().hover();
    await expect(page.locator('figure[data-chart="verified"] .recharts-tooltip-wrapper')).toContainText('0–15');
    await expect(page.locator('figure[data-chart="verified"] .recharts-tooltip-wrapper')).toContainText('Memories : 1');
    await page.screenshot({ path: path.join(SHOTS, 'charts.png'), fullPage: true });

    await page.getByLabel('Type').selectOption('user');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\/audit\/charts\?type=user$/);
    expect(await chartRow(page, 'verified', '91–120')).toEqual(['0', 'stale']);
    expect(await chartRow(page, 'verified', '0–15')).toEqual(['1', 'fresh']);
    expect(await chartRow(page, 'tiers', '2026-11-16')).toEqual(['2', '1', '1', '1']);
  });

  test('audit pages pass an accessibility scan', async ({ page }) => {
    for (const url of ['/audit', '/audit/charts']) {
      await page.goto(server.baseURL + url);
      if (url.endsWith('charts')) for (const s of await page.getByText('Table view').all()) await s.click();
      const r = await new AxeBuilder({ page }).include('main').analyze();
      expect(r.violations.map((v) => `${url}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`)).toEqual([]);
    }
  });

  test('the HTML report opens offline and renders its SVG charts', async ({ page, context, request }) => {
    const res = await request.get(`${server.baseURL}/report/html`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-disposition']).toBe('attachment; filename="memtrust-report-test-2026-11-22.html"');
    const file = path.join(dir, 'report.html');
    fs.writeFileSync(file, await res.body());

    const requests: string[] = [];
    context.on('request', (r) => void (r.url().startsWith('file:') || requests.push(r.url())));
    await context.route(/^(?!file:)/, (route) => route.abort());
    await context.setOffline(true);
    await page.setViewportSize({ width: 1280, height: 2300 });
    await page.goto(`file://${file}`);
    await expect(page.getByRole('heading', { name: 'memtrust report' })).toBeVisible();
    const svgs = page.locator('svg[role="img"]');
    await expect(svgs).toHaveCount(6);
    for (const svg of await svgs.all()) {
      const box = await svg.boundingBox();
      expect(box!.width).toBeGreaterThan(300);
      expect(box!.height).toBeGreaterThan(50);
      expect(await svg.locator('rect, polyline').count()).toBeGreaterThan(0);
    }
    expect(requests).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'report.png') });
  });
});

test.describe('planted secrets', () => {
  const S = makeSecrets();
  let leak: RunningServer;
  let ldir: string;

  test.beforeAll(async () => {
    ldir = tempDir('memtrust-e2e-leak-');
    const root = path.join(ldir, 'root');
    writeLeakRoot(root, S);
    // The CLI and the server share the root and the index, as on a real machine.
    const env = fixtureEnv(root, ldir, { MEMTRUST_MACHINE: 'test' });
    // A reason holding a secret is refused by the service (exit 2), so it never reaches the trail.
    expect(runCli(['demote', 'user_clean_note.md', '--reason', `rotate ${S.aws} and tell ${S.email}`], env).code).toBe(
      2,
    );
    expect(runCli(['audit', '--apply', '--yes'], env).code).toBe(0); // --yes: more than a quarter of the root (docs/trust-model.md)
    leak = await startServer({ root, dir: ldir, env: MACHINE });
  });
  test.afterAll(async () => {
    await leak?.stop();
    fs.rmSync(ldir, { recursive: true, force: true });
  });

  test('never reach the audit page, the charts or a downloaded report', async ({ page, request }) => {
    const found = (text: string) =>
      Object.entries(S)
        .filter(([, v]) => text.includes(v))
        .map(([k]) => k);
    await page.goto(`${leak.baseURL}/audit`);
    await expect(page.getByRole('heading', { name: 'Audit history' })).toBeVisible();
    expect(found(await page.content())).toEqual([]);
    for (const url of ['/audit?action=demote', '/audit/charts', '/report/html', '/report/json', '/report/md']) {
      const res = await request.get(leak.baseURL + url);
      expect(res.status(), url).toBe(200);
      expect(found(await res.text()), url).toEqual([]);
    }
  });
});
