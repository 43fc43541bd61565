import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, shot } from './fixtures';
import { inferred, verified } from './memory-files';
import { PROJECT } from './server';

test.use({ rootFiles: { 'memories/feedback_small_prs.md': verified('Small pull requests') } });

test('a memory written on disk appears on the open page without a reload', async ({ page, server }) => {
  await page.goto('/tiers/inferred');
  await expect(page.getByText('No inferred memories')).toBeVisible();
  // The assistant writes a memory while the page is open.
  fs.writeFileSync(
    path.join(server.root, 'memories/feedback_new_rule.md'),
    inferred('A brand new rule', '2026-11-21T08:00:00Z'),
  );
  await expect(page.getByRole('link', { name: 'A brand new rule' })).toBeVisible({ timeout: 15_000 });
});

test('a memory written on disk appears on the open Context X-ray without a reload', async ({ page, server }) => {
  await page.goto('/context');
  await expect(page.getByRole('link', { name: 'feedback_small_prs.md' })).toBeVisible();
  // Its polls also keep the server making the plan ahead (docs/session-context.md).
  fs.writeFileSync(
    path.join(server.root, 'memories/feedback_new_rule.md'),
    inferred('A brand new rule', '2026-11-21T08:00:00Z'),
  );
  await expect(page.getByRole('link', { name: 'feedback_new_rule.md' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('hook-text')).toContainText('name="A brand new rule"');
});

test('adding a memory is validated and lands at verified; a secret blocks the save', async ({ page, server }) => {
  await page.goto('/memories/new');
  await page.getByLabel('Type').selectOption('feedback');
  await page.getByLabel('Name').fill('Review before merge');
  await page.getByLabel('Description').fill('Every change gets a second pair of eyes');
  const token = 'ghp' + '_' + 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2';
  await page
    .getByLabel('Memory (Markdown)')
    .fill(
      `Ask for review.\n\nToken ${token}\n\n**Why:** bugs. **How to apply:** always ask, because reviews catch bugs.`,
    );
  await page.getByRole('button', { name: 'Add memory' }).click();
  await expect(page.locator('main').getByRole('alert')).toContainText('not saved');
  expect(fs.existsSync(path.join(server.root, 'memories/feedback_review_before_merge.md'))).toBe(false);
  await page
    .getByLabel('Memory (Markdown)')
    .fill(
      'Ask for a review of every change before merging it.\n\n**Why:** reviews catch bugs early.\n\n**How to apply:** request one reviewer on each pull request.',
    );
  await page.getByRole('button', { name: 'Add memory' }).click();
  await expect(page.getByRole('heading', { name: 'Review before merge', exact: true })).toBeVisible();
  const text = fs.readFileSync(path.join(server.root, 'memories/feedback_review_before_merge.md'), 'utf8');
  expect(text).toContain('trust-level: verified');
  expect(text).toContain('last-verified: 2026-11-22');
  expect(text).toContain('created-at: 2026-11-22T12:00:00Z');
  await page.screenshot({ path: shot('added'), fullPage: true });
});

test('an edit shows its diff before saving and keeps the tier; an inferred memory stays inferred', async ({
  page,
  server,
}) => {
  const file = path.join(server.root, 'memories/feedback_small_prs.md');
  fs.writeFileSync(
    file,
    fs.readFileSync(file, 'utf8').replace('type: feedback', 'type: feedback\noriginSessionId: abc-123'),
  );
  const before = fs.readFileSync(file, 'utf8');
  await page.goto('/tiers/verified');
  await page.getByRole('link', { name: 'Small pull requests' }).click();
  await page.getByRole('link', { name: /Edit this memory/ }).click();
  await page.getByLabel('Description').fill('Keep pull requests under 300 changed lines');
  await page.getByRole('button', { name: 'Preview changes' }).click();
  const changes = page.getByRole('region', { name: 'Changes to save' });
  await expect(changes).toContainText('1 line removed, 1 added. The memory stays verified.');
  await expect(changes.locator('li[data-op="added"]')).toHaveText(/description: Keep pull requests under 300/);
  expect(fs.readFileSync(file, 'utf8')).toBe(before); // the preview wrote nothing
  await page.screenshot({ path: shot('edit-preview'), fullPage: true });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Lifecycle' })).toBeVisible();
  expect(fs.readFileSync(file, 'utf8')).toBe(
    before.replace(
      'description: Small pull requests description',
      'description: Keep pull requests under 300 changed lines',
    ),
  );

  // An assistant-written memory is not verified by an edit: promote does that.
  const rule = path.join(server.root, 'memories/feedback_assistant_rule.md');
  fs.writeFileSync(rule, inferred('An assistant rule', '2026-11-01T08:00:00Z'));
  await page.goto('/tiers/inferred');
  await page.getByRole('link', { name: 'An assistant rule' }).click();
  await page.getByRole('link', { name: /Edit this memory/ }).click();
  await page.getByLabel('Name').fill('An assistant rule, edited');
  await page.getByRole('button', { name: 'Preview changes' }).click();
  await expect(changes).toContainText('The memory stays inferred.');
  await page.getByLabel('Name').fill('An assistant rule, edited twice');
  await expect(changes).toHaveCount(0); // a change drops the preview
  await page.getByRole('button', { name: 'Preview changes' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Lifecycle' })).toBeVisible();
  const text = fs.readFileSync(rule, 'utf8');
  expect(text).toContain('name: An assistant rule, edited twice');
  expect(text).toContain('trust-level: inferred');
  expect(text).not.toContain('last-verified');
});

test('a transition made with the CLI shows up on the open dashboard', async ({ page, server }) => {
  fs.writeFileSync(
    path.join(server.root, 'memories/feedback_cli_rule.md'),
    inferred('A rule promoted from the CLI', '2026-11-01T08:00:00Z'),
  );
  await page.goto('/tiers/inferred');
  await expect(page.getByRole('link', { name: 'A rule promoted from the CLI' })).toBeVisible({ timeout: 15_000 });
  const r = spawnSync(
    process.execPath,
    [path.join(PROJECT, 'lib/cli/memtrust.cjs'), 'promote', 'feedback_cli_rule.md'],
    { env: server.env, encoding: 'utf8' },
  );
  expect(r.status, r.stderr).toBe(0);
  await expect(page.getByRole('link', { name: 'A rule promoted from the CLI' })).toHaveCount(0, { timeout: 15_000 });
  await page.goto('/tiers/verified');
  await expect(page.getByRole('link', { name: 'A rule promoted from the CLI' })).toBeVisible();
});
