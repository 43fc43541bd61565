/**
 * Bulk actions from the review inbox (docs/review-inbox.md "Bulk actions") on a
 * Claude Code folder shaped like a real one: select 12 memories → bulk demote with
 * one reason → the plan → the typed count → done → Undo → every file byte-identical.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, shot, hashes } from './fixtures';
import { realFolder } from './real-folder';
import { fakeToken } from './memory-files';

const folder = realFolder();
test.use({ rootFiles: folder.files });

test('select 12 → bulk demote → plan → typed count → done → Undo → the folder is byte-identical', async ({
  page,
  server,
}) => {
  const before = hashes(server.root);
  await page.goto('/review?queue=any&type=feedback&sort=name');
  await page.locator('[data-inbox-ready]').waitFor();
  const table = page.getByRole('table', { name: 'Review inbox' });
  // Every row can be ticked, flagged ones too: bulk demote takes them (docs/review-inbox.md "Bulk actions").
  const boxes = table.getByRole('checkbox', { name: /^Select (?!all)/ });
  for (let i = 0; i < 12; i++) await boxes.nth(i).check();
  const bar = page.getByRole('region', { name: 'Selection' });
  await expect(bar).toContainText('12 selected');
  await bar.getByRole('button', { name: 'Demote…' }).click();
  await bar.getByLabel('Demote reason').fill('superseded by the team wiki');
  await bar.screenshot({ path: shot('inbox-bulk-selection') });
  await bar.getByRole('button', { name: 'Show the plan' }).click();

  const summary = bar.getByTestId('plan-summary');
  await expect(summary).toContainText(/^Demote \d+ files: \d+ → quarantined$/);
  const n = Number(/Demote (\d+) files/.exec(await summary.innerText())![1]);
  const leftOut = (await bar.getByText(/^Left out \((\d+)\)$/).count())
    ? Number(/\((\d+)\)/.exec(await bar.getByText(/^Left out/).innerText())![1])
    : 0;
  expect(n + leftOut).toBe(12);
  expect(n).toBeGreaterThan(10);
  const html = await page.content();
  expect(html).not.toContain(fakeToken());
  await page.screenshot({ path: shot('inbox-bulk-plan'), fullPage: true });

  // The button waits for the exact count; nothing changes before.
  const apply = bar.getByRole('button', { name: `Demote ${n} files` });
  const typed = bar.getByLabel(`Type ${n} to confirm`);
  await expect(apply).toBeDisabled();
  await typed.fill(String(n + 1));
  await expect(apply).toBeDisabled();
  expect(hashes(server.root)).toEqual(before);
  await typed.fill(String(n));
  await apply.click();

  await expect(page).toHaveURL(/\/batches\/b\d{8}T\d{6}Z-[0-9a-f]{6}$/);
  await expect(page.getByRole('status')).toContainText(`Done: ${n} files changed`);
  const quarantined = fs.readdirSync(path.join(server.root, 'quarantine')).filter((f) => f.endsWith('.md'));
  expect(quarantined.length).toBe(Object.keys(folder.files).filter((f) => f.startsWith('quarantine/')).length + n);
  const after = hashes(server.root);
  expect(after).not.toEqual(before);
  const audit = fs
    .readFileSync(path.join(server.root, '.memtrust/audit/e2e-machine.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const batch = decodeURIComponent(page.url().split('/').pop()!);
  expect(audit.filter((e) => e.batch === batch && e.action === 'demote')).toHaveLength(n);

  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(page.getByRole('status')).toContainText(`undid batch ${batch}`);
  expect(hashes(server.root)).toEqual(before);
});

test('bulk archive of live memories leaves every one out with the rule and changes nothing', async ({
  page,
  server,
}) => {
  const before = hashes(server.root);
  await page.goto('/review?queue=any&type=user&sort=name');
  await page.locator('[data-inbox-ready]').waitFor();
  const boxes = page.getByRole('table', { name: 'Review inbox' }).getByRole('checkbox', { name: /^Select (?!all)/ });
  for (let i = 0; i < 3; i++) await boxes.nth(i).check();
  const bar = page.getByRole('region', { name: 'Selection' });
  await bar.getByRole('button', { name: 'Archive…' }).click();
  await expect(bar.getByText(/Nothing to archive: the plan is empty\./)).toBeVisible();
  await expect(bar.getByText('Left out (3)')).toBeVisible();
  expect(hashes(server.root)).toEqual(before);
});
