/**
 * Bulk audit on a 30-file folder shaped like a real Claude Code folder
 * (docs/batches.md): plan → typed confirmation → done → Undo → every file,
 * MEMORY.md included, byte-identical; then the undo undone from the audit history.
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, shot, hashes } from './fixtures';
import { claudeFolder } from '../lib/service/fixtures/claude-folder';

const FOLDER = claudeFolder();
const SECRETS = ['Hunter1-not-real', 'FAKEfake0001NOTAREALKEY', 'Tr0ub4dor-not-real', '192.168.10.5', '10.10.0.12'];

async function noAxeViolations(page: Page, what: string): Promise<void> {
  const r = await new AxeBuilder({ page }).include('main').analyze();
  expect(r.violations.map((v) => `${what}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`)).toEqual([]);
}

test.describe('a bulk audit is a batch that can be undone', () => {
  test.use({ rootFiles: FOLDER });

  test('plan → confirm with the typed count → done → Undo → the folder is byte-identical', async ({ page, server }) => {
    const before = hashes(server.root);
    expect(Object.keys(before)).toHaveLength(31); // 30 memories + MEMORY.md

    await page.goto('/');
    await page.getByRole('link', { name: 'Run audit…' }).click();
    const summary = page.getByTestId('plan-summary');
    await expect(summary).toContainText(/^Demote \d+ files: \d+ → quarantined$/);
    const n = Number(/Demote (\d+) files/.exec(await summary.innerText())![1]);
    expect(n).toBeGreaterThan(10);
    // Grouped by kind and class, with counts; findings masked.
    const groups = page.getByRole('table').first();
    await expect(groups.getByRole('row', { name: /credential secret\.url-credentials 6 6/ })).toBeVisible();
    await expect(groups.getByRole('row', { name: /personal secret\.private-ip/ })).toBeVisible();
    await expect(
      page.getByRole('row', {
        name: /reference_db_1\.md .* quarantine\/reference_db_1\.md .*credentials in URL postgres:\/\/…/,
      }),
    ).toBeVisible();
    const html = await page.content();
    for (const s of SECRETS) expect(html, s).not.toContain(s);
    await page.screenshot({ path: shot('batch-plan'), fullPage: true });
    await noAxeViolations(page, 'plan');

    // The button waits for the exact count; nothing changes before.
    const apply = page.getByRole('button', { name: `Demote ${n} files` });
    const typed = page.getByLabel(`Type ${n} to confirm`);
    await expect(apply).toBeDisabled();
    await typed.fill(String(n - 1));
    await expect(apply).toBeDisabled();
    expect(hashes(server.root)).toEqual(before);
    await typed.fill(String(n));
    await apply.click();

    await expect(page).toHaveURL(/\/batches\/b\d{8}T\d{6}Z-[0-9a-f]{6}$/);
    const batch = decodeURIComponent(page.url().split('/').pop()!);
    await expect(page.getByRole('status')).toContainText(`Done: ${n} files changed`);
    expect(fs.readdirSync(path.join(server.root, 'quarantine')).filter((f) => f.endsWith('.md'))).toHaveLength(n);
    expect(fs.readFileSync(path.join(server.root, 'MEMORY.md')).equals(FOLDER['MEMORY.md']!)).toBe(false);
    const afterBatch = hashes(server.root);
    await page.screenshot({ path: shot('batch-result'), fullPage: true });
    await noAxeViolations(page, 'result');
    // A memory's history entry names the batch and offers its Undo too.
    await page.getByRole('link', { name: 'reference_db_1.md' }).click();
    await expect(page.getByRole('link', { name: `batch ${batch}` })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Undo batch' })).toBeVisible();
    await page.screenshot({ path: shot('batch-memory-history'), fullPage: true });
    await page.goBack();

    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm undo' }).click();
    await expect(page.getByRole('status')).toContainText(`undid batch ${batch}`);
    expect(hashes(server.root)).toEqual(before);
    for (const [rel, bytes] of Object.entries(FOLDER))
      expect(fs.readFileSync(path.join(server.root, rel)).equals(bytes), rel).toBe(true);
    await page.screenshot({ path: shot('batch-undone'), fullPage: true });

    // The history entries carry the batch and an Undo: undoing the undo returns to the state after the batch.
    await page.goto('/audit');
    const first = page.getByRole('row').nth(1);
    await expect(first.getByRole('link', { name: /^b\d{8}T\d{6}Z-[0-9a-f]{6}$/ })).toBeVisible();
    await page.screenshot({ path: shot('batch-audit-history') });
    // The undo batch's own button says what it does: it puts the batch's changes back.
    await first.getByRole('button', { name: 'Redo batch' }).click();
    await first.getByRole('button', { name: 'Confirm undo' }).click();
    await expect(page).toHaveURL(/\/batches\//);
    await expect(page.getByRole('status')).toContainText('undid batch');
    expect(hashes(server.root)).toEqual(afterBatch);
    // The list of batches: the batch, its undo (now undone by the redo), the redo, newest first.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Batches' }).click();
    await expect(page.getByRole('link', { name: 'Batches' })).toHaveAttribute('aria-current', 'page');
    const rows = page.getByRole('row');
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(1)).toContainText('Undo of');
    await expect(rows.nth(1)).toContainText('stands');
    await expect(rows.nth(2)).toContainText(/Undo of .*undone by/);
    await expect(rows.nth(3)).toContainText(batch);
    await expect(rows.nth(3)).toContainText('can be undone');
  });

  test('a plan that changed since it was shown is not applied', async ({ page, server }) => {
    await page.goto('/run/audit');
    await expect(page.getByTestId('plan-summary')).toBeVisible();
    const n = Number(/Demote (\d+) files/.exec(await page.getByTestId('plan-summary').innerText())![1]);
    // Another hard failure appears after the plan was shown.
    fs.writeFileSync(path.join(server.root, 'project_late.md'), 'no frontmatter, written after the plan was shown\n');
    const before = hashes(server.root);
    await page.getByLabel(`Type ${n} to confirm`).fill(String(n));
    await page.getByRole('button', { name: `Demote ${n} files` }).click();
    await expect(
      page.getByText(/^The plan changed since it was shown \(now \d+ files\): review it again before applying\.$/),
    ).toBeVisible();
    expect(hashes(server.root)).toEqual(before);
  });

  test('back-fill from the dashboard: plan (files it cannot rewrite left out) → apply → Undo', async ({
    page,
    server,
  }) => {
    const before = hashes(server.root);
    await page.goto('/audit');
    await page.getByRole('link', { name: 'Back-fill…' }).click();
    const summary = page.getByTestId('plan-summary');
    await expect(summary).toContainText(/^Back-fill \d+ files: /);
    const n = Number(/Back-fill (\d+) files/.exec(await summary.innerText())![1]);
    await expect(page.getByRole('heading', { name: /^Left out \(\d+\)$/ })).toBeVisible();
    await expect(page.getByText(/project_broken_yaml\.md: frontmatter cannot be rewritten/)).toBeVisible();
    // Rewritten in place, nothing moves, but more than 10 files: the typed count (docs/batches.md).
    expect(n).toBeGreaterThan(10);
    const apply = page.getByRole('button', { name: `Back-fill ${n} files` });
    await expect(apply).toBeDisabled();
    await page.screenshot({ path: shot('batch-backfill-plan'), fullPage: true });
    await noAxeViolations(page, 'backfill plan');
    await page.getByLabel(`Type ${n} to confirm`).fill(String(n));
    await apply.click();
    await expect(page).toHaveURL(/\/batches\//);
    await expect(page.getByRole('status')).toContainText(`Done: ${n} files changed`);
    expect(hashes(server.root)).not.toEqual(before);
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm undo' }).click();
    await expect(page.getByRole('status')).toContainText('undid batch');
    expect(hashes(server.root)).toEqual(before);
  });
});
