/**
 * One inbox for memories and records (docs/review-inbox.md "Records in the inbox"): a
 * trust root and a consolidation store (its contract fixture) configured together. The
 * inbox lists both kinds, the Layout filter keeps the records, a record promoted from its
 * preview pane is undone from the result line byte for byte, and the verified tab lists
 * records beside memories; /review and /tiers/verified fit 390 px without sideways scroll.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { startServer, tempDir, type RunningServer } from './server';
import { shot } from './fixtures';
import { CONSOLIDATION_FIXTURE, FIXTURE_IDS, writeContractFixture } from '../lib/sources/consolidation/test-fixtures';

let server: RunningServer;
let dir: string;
let cons: string;

const memory = (name: string, extra: string) =>
  `---\nname: ${name}\ndescription: ${name} notes\ntype: feedback\nsource-machine: box\n${extra}---\n\nWait for green before merging.\n`;

test.beforeAll(async () => {
  dir = tempDir();
  const trust = path.join(dir, 'trust');
  cons = path.join(dir, 'consolidation');
  fs.mkdirSync(path.join(trust, 'memories'), { recursive: true });
  fs.writeFileSync(
    path.join(trust, 'memories', 'feedback_ci_merge.md'),
    memory('CI merge policy', 'trust-level: inferred\ncreated-at: 2026-10-01T09:00:00Z\n'),
  );
  fs.writeFileSync(
    path.join(trust, 'memories', 'feedback_release.md'),
    memory('Release checklist', 'trust-level: verified\ncreated-at: 2026-01-01T09:00:00Z\nlast-verified: 2026-11-01\n'),
  );
  writeContractFixture(cons);
  server = await startServer({ root: [trust, cons].join(path.delimiter), dir });
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function noSidewaysScroll(page: Page) {
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scroll, 'page width at 390 px').toBeLessThanOrEqual(client);
}

test('the inbox lists memories and records, filters by a record layout, and a record promoted from the pane is undone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${server.baseURL}/review?queue=any`);
  const table = page.getByRole('table', { name: 'Review inbox' });
  await expect(table.getByRole('link', { name: 'CI merge policy' })).toBeVisible();
  await expect(table.getByRole('link', { name: /^Run make check before pushing/ })).toBeVisible();
  await expect(page.getByText(`${2 + Object.keys(CONSOLIDATION_FIXTURE.records).length} memories match`)).toBeVisible();
  await page.screenshot({ path: shot('inbox-records-1400') });

  // The Layout filter offers the record layout and keeps its rows only.
  await page.getByLabel('Layout').selectOption('consolidation');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/layout=consolidation/);
  await expect(table.getByRole('link', { name: 'CI merge policy' })).toHaveCount(0);
  await table.getByRole('link', { name: /^Run make check before pushing/ }).click();
  await expect(page).toHaveURL(/sel=/);
  const pane = page.getByRole('complementary', { name: 'Preview' });
  const heading = pane.getByRole('heading', { level: 2 });
  await expect(heading).toContainText('Run make check before pushing');
  // Its detail is its record page.
  await expect(heading.getByRole('link')).toHaveAttribute('href', new RegExp(`^/records/.*${FIXTURE_IDS.promotable}$`));

  await page.screenshot({ path: shot('inbox-record-pane-1400') });
  const file = path.join(cons, 'agent.memory.jsonl');
  const before = fs.readFileSync(file);
  await pane.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Promote' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('"confidence":"high"');
  expect(fs.readFileSync(file).equals(before)).toBe(true);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  const result = page
    .getByRole('status')
    .filter({ hasText: /Promote/ })
    .first();
  await expect(result).toBeVisible();
  await expect.poll(() => fs.readFileSync(file).equals(before)).toBe(false);
  await result.getByRole('button', { name: 'Undo' }).click();
  await page.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(page).toHaveURL(/\/batches\//);
  await expect.poll(() => fs.readFileSync(file).equals(before)).toBe(true);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.baseURL}/review?queue=any`);
  await expect(table).toBeVisible();
  await noSidewaysScroll(page);
  await page.screenshot({ path: shot('inbox-records-390'), fullPage: true });
});

test('the verified tab lists records beside memories, each linking to its own page', async ({ page }) => {
  const verified = Object.values(CONSOLIDATION_FIXTURE.records).filter((r) => r.tier === 'verified').length;
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${server.baseURL}/tiers/verified`);
  await expect(page.getByText(`${1 + verified} memories`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Release checklist' })).toHaveAttribute('href', /^\/memories\//);
  await expect(page.locator(`a[href$="${encodeURIComponent(`:${FIXTURE_IDS.verified}`)}"]`)).toHaveAttribute(
    'href',
    /^\/records\//,
  );
  await page.screenshot({ path: shot('tiers-verified-records-1400'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await noSidewaysScroll(page);
  await page.screenshot({ path: shot('tiers-verified-records-390'), fullPage: true });
});

test('a selection of a memory and a record demotes in one Apply; each batch has its Undo on the result', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const memFile = path.join(dir, 'trust', 'memories', 'feedback_ci_merge.md');
  const recFile = path.join(cons, 'agent.memory.jsonl');
  const [memBefore, recBefore] = [fs.readFileSync(memFile), fs.readFileSync(recFile)];
  await page.goto(`${server.baseURL}/review?queue=any`);
  const table = page.getByRole('table', { name: 'Review inbox' });
  await table.getByRole('checkbox', { name: 'Select CI merge policy' }).check();
  await table.getByRole('checkbox', { name: /^Select Run make check before pushing/ }).check();
  const bar = page.getByRole('region', { name: 'Selection' });
  await expect(bar).toContainText('2 selected');
  await bar.getByRole('button', { name: 'Demote…' }).click();
  await bar.getByLabel('Demote reason').fill('outdated after the migration');
  await bar.getByRole('button', { name: 'Show the plan' }).click();
  await expect(bar.getByTestId('plan-records')).toContainText(`${FIXTURE_IDS.promotable}: inferred → quarantined`);
  // One of the root's two memories is more than a quarter of it: the typed count (lib/trust/batch-rules.ts).
  const typed = bar.getByLabel(/^Type \d+ to confirm$/);
  await typed.fill(/\d+/.exec((await typed.getAttribute('aria-label')) ?? '')![0]);
  await bar.getByRole('button', { name: 'Demote 1 file and 1 record' }).click();

  await expect(page).toHaveURL(/\/batches\/[^?]+\?also=/);
  await expect.poll(() => fs.readFileSync(recFile).equals(recBefore)).toBe(false);
  // The trust root moves a demoted memory to quarantine/.
  expect(fs.existsSync(memFile)).toBe(false);
  await page.screenshot({ path: shot('bulk-memory-and-record-result-1400'), fullPage: true });
  const result = page.url();
  // The record batch's own Undo, on the same result.
  const also = page.getByTestId('batch-also');
  await also.getByRole('button', { name: /^Undo / }).click();
  await also.getByRole('button', { name: 'Confirm undo' }).click();
  await expect.poll(() => fs.readFileSync(recFile).equals(recBefore)).toBe(true);
  await expect(page).not.toHaveURL(result);
  // Back on the result: the record batch is undone (no second Undo), the memory batch's Undo remains.
  await page.goto(result);
  await expect(page.getByTestId('batch-also')).toContainText('undone');
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.getByRole('button', { name: 'Confirm undo' }).click();
  await expect.poll(() => fs.existsSync(memFile) && fs.readFileSync(memFile).equals(memBefore)).toBe(true);
  // /batches lists the memory batch and the record batch side by side, each undone by its own
  // undo batch (other tests of this file add batches of their own: the rows are found by id).
  const url = new URL(result);
  const memBatch = decodeURIComponent(url.pathname.split('/').at(-1)!);
  const recBatch = url.searchParams.get('also')!.split(',')[0]!;
  await page.goto(`${server.baseURL}/batches`);
  const rows = page.getByRole('table', { name: 'Batches, newest first' }).locator('tbody tr');
  const row = (id: string) => rows.filter({ has: page.getByRole('link', { name: id, exact: true }) });
  await expect(row(recBatch)).toContainText('Record change');
  await expect(row(recBatch)).toContainText('undone by');
  await expect(row(memBatch)).not.toContainText('Record change');
  await expect(row(memBatch)).toContainText('undone by');
  await expect(rows.filter({ hasText: `of ${recBatch}` })).toHaveCount(1);
  await expect(rows.filter({ hasText: `of ${memBatch}` })).toHaveCount(1);
});
