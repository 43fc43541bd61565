/**
 * Records pages (docs/records-pages.md) over a consolidation store written here in
 * the shape of docs/layouts.md: the table with flags, read problems and filters in the
 * URL, masking, live refresh, and a contradiction pair resolved from the dashboard
 * as one batch and undone byte for byte; a record's history on its page and on the Audit page.
 */
import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, shot } from './fixtures';
import { fakeToken } from './memory-files';

const FILE = 'team.memory.jsonl';
const A = 'mem_3f9a1c2b';
const B = 'mem_8d21e07a';

function rec(o: Record<string, unknown>): string {
  return JSON.stringify(o);
}

/** Seven lines: a verified record, the contradiction pair (lines 2 and 4), a password in prose, a truncated line, a record without evidence, CRLF-free. */
function store(): string {
  return `${[
    rec({
      id: 'mem_11aa22bb',
      type: 'semantic',
      statement: 'The staging cluster runs three replicas of the API.',
      evidence: ['deploy/staging/api.yaml: replicas: 3'],
      confidence: 'high',
      sensitivity: 'internal',
      sourceStep: 'consolidate-2026-11-01',
      createdAt: '2026-11-01T09:00:00Z',
      expiresAt: null,
      status: 'active',
      conflictsWith: [],
      conflictNote: null,
    }),
    rec({
      id: A,
      type: 'semantic',
      statement: 'Deploys to production go out on Tuesdays only.',
      evidence: ['runbook/deploy.md: "release window: Tuesday"', 'chat 2026-10-02: release manager confirms Tuesdays'],
      confidence: 'medium',
      sensitivity: 'internal',
      sourceStep: 'consolidate-2026-11-10',
      createdAt: '2026-10-02T08:00:00Z',
      expiresAt: null,
      status: 'needs-review',
      conflictsWith: [B],
      conflictNote: 'Runbook says Tuesday, the new CI schedule deploys daily.',
    }),
    rec({
      id: 'mem_77cc88dd',
      type: 'procedural',
      statement: `Log in to the test registry with token ${fakeToken()} before pushing.`,
      evidence: ['notes/ci.md line 4'],
      confidence: 'low',
      sensitivity: 'secret',
      sourceStep: 'consolidate-2026-11-10',
      createdAt: '2026-11-10T10:00:00Z',
      expiresAt: null,
      status: 'active',
      conflictsWith: [],
      conflictNote: null,
    }),
    rec({
      id: B,
      type: 'semantic',
      statement: 'Production deploys run every weekday from the CI schedule.',
      evidence: ['.ci/schedule.yml: cron 0 6 * * 1-5'],
      confidence: 'high',
      sensitivity: 'internal',
      sourceStep: 'consolidate-2026-11-12',
      createdAt: '2026-11-12T07:30:00Z',
      expiresAt: null,
      status: 'needs-review',
      conflictsWith: [A],
      conflictNote: 'Runbook says Tuesday, the new CI schedule deploys daily.',
    }),
    '{"id":"mem_broken","type":"semantic","statement":"cut off mid-wr',
    rec({
      id: 'mem_99eeff00',
      type: 'episodic',
      statement: 'The Grafana dashboard was renamed to Platform Overview.',
      evidence: [],
      confidence: 'medium',
      sensitivity: 'public',
      sourceStep: 'consolidate-2026-11-15',
      createdAt: '2026-11-15T12:00:00Z',
      expiresAt: null,
      status: 'active',
      conflictsWith: [],
      conflictNote: null,
    }),
  ].join('\n')}\n`;
}

test.use({ rootFiles: { [FILE]: store() } });

async function axe(page: Page, url: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${url}: ${v.id} ${v.nodes.length}`)).toEqual([]);
}

test('the records table lists every record with its flags, read problems and filters in the URL, never a secret', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Records' }).click();
  await expect(page).toHaveURL(/\/records$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Records' })).toBeVisible();
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(5);
  // The truncated line is reported with its place, above the table.
  await expect(page.getByRole('region', { name: 'Read problems' })).toContainText(`${FILE}:5`);
  // Flags carry their reason as a tooltip.
  const pairRow = page.locator(`tr[data-record$=":${A}"]`);
  await expect(pairRow.locator('[data-flag="conflict"]')).toHaveAttribute('title', /.+/);
  await expect(pairRow).toContainText('needs-review');
  await expect(pairRow).toContainText('quarantined');
  await expect(page.locator(`tr[data-record$=":mem_99eeff00"] [data-flag="write-rule"]`)).toBeVisible();
  // The password in prose is masked, in the page source too.
  expect(await page.content()).not.toContain(fakeToken());
  await expect(page.locator(`tr[data-record$=":mem_77cc88dd"] [data-mask="credential"]`)).toBeVisible();

  // The inbox's filter words (docs/dashboard.md "Words"): the conflict flag is the Contradictions queue.
  await page.getByLabel('Queue').selectOption('contradictions');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/queue=contradictions/);
  await expect(rows).toHaveCount(2);
  await page.reload();
  await expect(page.getByLabel('Queue')).toHaveValue('contradictions');
  await expect(rows).toHaveCount(2);
  await page.getByLabel('Search').fill('weekday');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/q=weekday/);
  await expect(rows).toHaveCount(1);
  await page.goto('/records');
  await page.screenshot({ path: shot('records-table'), fullPage: true });
  await axe(page, '/records');

  // The record page: location, fields as stored, masked text.
  await page.goto(
    `/records/${encodeURIComponent(`${(await page.locator('tbody tr').first().getAttribute('data-record'))!.split(':')[0]}:mem_77cc88dd`)}`,
  );
  await expect(page.locator('[data-location]')).toContainText(`${FILE}:3`);
  await expect(page.getByRole('region', { name: 'Fields as stored' })).toContainText('sourceStep');
  expect(await page.content()).not.toContain(fakeToken());
  await page.screenshot({ path: shot('record-detail'), fullPage: true });
  await axe(page, '/records/[id]');
  await page.goto('/records/staleness');
  await page.locator('h1').waitFor();
  await axe(page, '/records/staleness');
});

test('a record page follows the store when it changes on disk, without a reload', async ({ page, server }) => {
  await page.goto('/records');
  await expect(page.locator('tbody tr')).toHaveCount(5);
  const file = path.join(server.root, FILE);
  fs.appendFileSync(
    file,
    `${rec({
      id: 'mem_aa00bb11',
      type: 'semantic',
      statement: 'The on-call rota moved to the platform team.',
      evidence: ['rota.md'],
      confidence: 'medium',
      sensitivity: 'internal',
      sourceStep: 'consolidate-2026-11-20',
      createdAt: '2026-11-20T09:00:00Z',
      expiresAt: null,
      status: 'active',
      conflictsWith: [],
      conflictNote: null,
    })}\n`,
  );
  await expect(page.locator('tbody tr')).toHaveCount(6, { timeout: 15_000 });
  await expect(page.getByText('The on-call rota moved to the platform team.')).toBeVisible();
});

test('a contradiction pair: side by side, keep one as one batch changing only those two lines, then Undo puts the file back byte for byte', async ({
  page,
  server,
}) => {
  const file = path.join(server.root, FILE);
  const before = fs.readFileSync(file);
  await page.goto('/records/conflicts');
  const pair = page.locator('[data-pair]');
  await expect(pair).toHaveCount(1);
  const sideA = pair.locator(`[data-side$=":${A}"]`);
  const sideB = pair.locator(`[data-side$=":${B}"]`);
  await expect(sideA.locator('[data-statement]')).toContainText('Tuesdays only');
  await expect(sideB.locator('[data-statement]')).toContainText('every weekday');
  await expect(sideA.getByRole('list', { name: /Evidence/ }).getByRole('listitem')).toHaveCount(2);
  await expect(sideB.getByRole('list', { name: /Evidence/ }).getByRole('listitem')).toHaveCount(1);
  await expect(sideA).toContainText('medium');
  await expect(sideB).toContainText('2026-11-12T07:30:00Z');
  await expect(pair.locator('[data-conflict-note]').first()).toContainText('CI schedule deploys daily');
  await axe(page, '/records/conflicts');
  await page.screenshot({ path: shot('records-conflicts'), fullPage: true });

  // Keep B: the preview names the two lines, and nothing is written before Confirm.
  await sideB.getByRole('button', { name: 'Keep this one' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator(`[data-preview-file="${FILE}"]`)).toBeVisible();
  await expect(dialog.locator('tr[data-line]')).toHaveCount(2);
  await expect(dialog.locator('tr[data-line="2"]')).toBeVisible();
  await expect(dialog.locator('tr[data-line="4"]')).toBeVisible();
  expect(fs.readFileSync(file).equals(before)).toBe(true);
  await page.screenshot({ path: shot('records-keep-preview'), fullPage: true });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Kept ${B}` })).toBeVisible();

  // Only lines 2 and 4 changed; every other byte is kept, key order too.
  const after = fs.readFileSync(file, 'utf8').split('\n');
  const orig = before.toString('utf8').split('\n');
  expect(after.length).toBe(orig.length);
  const changed = orig.map((l, i) => (l === after[i] ? null : i + 1)).filter((x) => x !== null);
  expect(changed).toEqual([2, 4]);
  expect(JSON.parse(after[3]!).status).toBe('active');
  expect(JSON.parse(after[1]!).status).toBe('expired');
  expect(Object.keys(JSON.parse(after[3]!)).slice(0, 12)).toEqual(Object.keys(JSON.parse(orig[3]!)));

  // Undo the batch from the result: the file is back, byte for byte.
  await page.getByRole('button', { name: 'Undo' }).click();
  await page.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(page).toHaveURL(/\/batches\//);
  await expect.poll(() => fs.readFileSync(file).equals(before)).toBe(true);
});

test('a store changed between the preview and Confirm shows the new preview instead of applying', async ({
  page,
  server,
}) => {
  const file = path.join(server.root, FILE);
  await page.goto('/records/conflicts');
  await page.locator(`[data-side$=":${B}"]`).getByRole('button', { name: 'Keep this one' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('tr[data-line="4"]')).toBeVisible();
  // Someone edits the kept record's line meanwhile.
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines[3] = lines[3]!.replace('every weekday', 'every weekday at 06:00');
  fs.writeFileSync(file, lines.join('\n'));
  const edited = fs.readFileSync(file);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The store changed since this preview');
  await expect(dialog.locator('tr[data-line="4"]')).toContainText('every weekday at 06:00');
  expect(fs.readFileSync(file).equals(edited)).toBe(true);
});

test('demote asks for a reason, previews the line with it, applies as a batch, and Undo restores the bytes', async ({
  page,
  server,
}) => {
  const file = path.join(server.root, FILE);
  const before = fs.readFileSync(file);
  await page.goto('/records');
  const id = (await page.locator('tr[data-record$=":mem_11aa22bb"]').getAttribute('data-record'))!;
  await page.goto(`/records/${encodeURIComponent(id)}`);
  const actions = page.getByRole('group', { name: 'Actions' });
  // Every refused action is disabled and names its reason.
  for (const b of await actions.getByRole('button').all()) {
    if (await b.isEnabled()) continue;
    const why = await b.getAttribute('aria-describedby');
    expect(why).toBeTruthy();
    await expect(page.locator(`[id="${why}"]`)).not.toBeEmpty();
  }
  await actions.getByRole('button', { name: 'Demote' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/Why/).fill('replicas were scaled to five');
  await dialog.getByRole('button', { name: 'Preview the change' }).click();
  await expect(dialog.locator('tr[data-line="1"]')).toContainText('needs-review');
  expect(fs.readFileSync(file).equals(before)).toBe(true);
  await page.screenshot({ path: shot('record-demote-preview'), fullPage: true });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Demote mem_11aa22bb' })).toBeVisible();
  const after = fs.readFileSync(file, 'utf8').split('\n');
  const orig = before.toString('utf8').split('\n');
  expect(orig.map((l, i) => (l === after[i] ? null : i + 1)).filter((x) => x !== null)).toEqual([1]);
  expect(JSON.parse(after[0]!)).toMatchObject({ status: 'needs-review', reviewNote: 'replicas were scaled to five' });
  await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
  await page.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(page).toHaveURL(/\/batches\//);
  await expect.poll(() => fs.readFileSync(file).equals(before)).toBe(true);
});

test('a record’s history: its page shows the timeline newest first, and the Audit page lists its events with the layout, linking back, filters kept', async ({
  page,
}) => {
  await page.goto('/records');
  const id = (await page.locator('tr[data-record$=":mem_11aa22bb"]').getAttribute('data-record'))!;
  await page.goto(`/records/${encodeURIComponent(id)}`);
  const history = page.getByRole('region', { name: 'History' });
  await expect(history).toContainText('No recorded history yet.');
  await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Demote' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/Why/).fill('replicas were scaled to five');
  await dialog.getByRole('button', { name: 'Preview the change' }).click();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Demote mem_11aa22bb' })).toBeVisible();
  await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
  await page.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(page).toHaveURL(/\/batches\//);

  // Newest first: the undo, then the demote with its reason.
  await page.goto(`/records/${encodeURIComponent(id)}`);
  const items = history.getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('undo');
  await expect(items.nth(1)).toContainText('demote');
  await expect(items.nth(1)).toContainText('“replicas were scaled to five”');
  await history.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('record-history'), fullPage: true });

  await page.goto('/audit');
  const rows = page.locator('tr:has([data-record-event="consolidation"])');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('demote');
  await expect(rows.nth(1)).toContainText('replicas were scaled to five');
  await page.screenshot({ path: shot('audit-record-events'), fullPage: true });
  await axe(page, '/audit');
  // Filters keep working on record events: by action, by key.
  await page.goto('/audit?action=demote');
  await expect(rows).toHaveCount(1);
  await page.goto('/audit?action=promote');
  await expect(rows).toHaveCount(0);
  await page.goto('/audit?memory=mem_11aa');
  await expect(rows).toHaveCount(2);
  await rows.nth(1).getByRole('link', { name: 'mem_11aa22bb' }).click();
  await expect(page).toHaveURL(`/records/${encodeURIComponent(id)}`);
  await expect(page.getByRole('region', { name: 'History' }).getByRole('listitem')).toHaveCount(2);
  // The record page's own link to the Audit page: this record's root and key.
  await page.getByRole('link', { name: 'Audit events of this record' }).click();
  await expect(page).toHaveURL(/\/audit\?memory=mem_11aa22bb&source=/);
  await expect(rows).toHaveCount(2);
});

test.describe('a large store', () => {
  const many = `${Array.from({ length: 120 }, (_, i) =>
    rec({
      id: `mem_${String(i).padStart(8, '0')}`,
      type: 'semantic',
      statement: `Service ${i} listens on its documented port.`,
      evidence: [`svc/${i}.yaml`],
      confidence: i % 2 ? 'high' : 'medium',
      sensitivity: 'internal',
      sourceStep: 'consolidate-2026-11-01',
      createdAt: '2026-11-01T09:00:00Z',
      expiresAt: null,
      status: 'active',
      conflictsWith: [],
      conflictNote: null,
    }),
  ).join('\n')}\n`;
  test.use({ rootFiles: { 'services.memory.jsonl': many } });

  test('pages through the records, 50 at a time, with the page in the URL', async ({ page }) => {
    await page.goto('/records');
    await expect(page.locator('tbody tr')).toHaveCount(50);
    const pages = page.getByRole('navigation', { name: 'Pages' });
    await expect(pages).toContainText('Page 1 of 3');
    await pages.getByRole('link', { name: /Next/ }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(pages).toContainText('Page 2 of 3');
    await pages.getByRole('link', { name: /Next/ }).click();
    await expect(page.locator('tbody tr')).toHaveCount(20);
    await page.getByLabel('Tier').selectOption('verified');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/tier=verified/);
    await expect(page).not.toHaveURL(/page=/);
    await expect(page.locator('tbody tr')).toHaveCount(50);
    await expect(pages).toContainText('Page 1 of 2');
  });
});
