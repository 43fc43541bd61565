/**
 * A safe first hour on a new Claude Code folder in real shapes (docs/transition-ui.md
 * "First hour"): the overview offers the three steps and not "Run audit" as the primary
 * action while the audit would quarantine more than a quarter; the back-fill of more than
 * 10 files asks for the typed count and keeps the flagged file inferred; a bulk promote of
 * ticked clean memories is one batch that Undo reverses byte for byte, and is off while a
 * flagged row is ticked; a flagged row is demoted in bulk with the others (docs/review-inbox.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, shot, hashes } from './fixtures';

const OLD = new Date('2026-08-01T10:00:00Z');
const HOW = '\n\n**Why:** it broke once.\n\n**How to apply:** every session.\n';
const nested = (name: string, type: string, body: string) =>
  `---\nname: ${name}\ndescription: ${name} notes\nmetadata:\n  node_type: memory\n  type: ${type}\n  originSessionId: 00000000-0000-4000-8000-000000000001\n---\n\n${body}${HOW}`;
const flat = (name: string, type: string, body: string) =>
  `---\r\nname: ${name}\r\ndescription: ${name} notes\r\ntype: ${type}\r\n---\r\n\r\n${body}${HOW}`.replace(
    /(?<!\r)\n/g,
    '\r\n',
  );
/** Built at run time: no secret-shaped literal in the repository. */
const FAKE_KEY = ['sk', 'FAKEfake0042NOTAREALKEY0123456789'].join('-');

function folder(): Record<string, string> {
  const files: Record<string, string> = {
    'feedback-ci.md': nested('CI rules', 'feedback', 'Always run the tests. Never push to main. Never skip review.'),
    'project_x.md': flat('Project X', 'project', 'Project X ships the billing service on Thursdays.'),
    'user_role.md': nested('Role', 'user', 'The user runs a small homelab and prefers terse answers.'),
    'feedback_commits.md': nested('Commits', 'feedback', 'Commit messages say why, one change per commit.'),
    'reference_graph.md': nested('Build graph', 'reference', 'The build graph lives in out/graph.json.'),
    'feedback_api.md': flat('API key', 'feedback', `The staging API key is ${FAKE_KEY} for the deploy bot.`),
  };
  for (let i = 1; i <= 9; i++)
    files[`project-host-${i}.md`] = nested(
      `Host ${i}`,
      'project',
      `Host ${i} answers on 192.168.1.${10 + i} over SSH.`,
    );
  files['MEMORY.md'] = ['# Memory', ...Object.keys(files).map((f) => `- [${f}](${f}) — notes`), ''].join('\n');
  return files;
}

test.use({
  rootFiles: folder(),
  // Written long ago, as a folder found on a machine is: past the 7-day observation.
  rootSetup: {
    setup(root: string) {
      for (const f of fs.readdirSync(root)) fs.utimesSync(path.join(root, f), OLD, OLD);
    },
  },
});

test('the overview of a fresh folder shows the three steps, and Run audit is not the primary action', async ({
  page,
}) => {
  for (const width of [1400, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    const steps = page.getByTestId('first-hour-steps');
    await expect(steps).toBeVisible();
    await expect(steps.getByTestId('first-hour-step-1')).toContainText('Allow your networks');
    await expect(steps.getByTestId('first-hour-step-1')).toContainText('9 memories hold private addresses');
    await expect(steps.getByTestId('first-hour-step-2')).toContainText('15 memories have no trust-level');
    await expect(steps.getByTestId('first-hour-step-3')).toContainText('Review');
    await expect(steps.getByTestId('audit-heavy')).toContainText(
      'Run audit would quarantine 10 memories, more than a quarter of one root.',
    );
    await expect(steps.getByTestId('audit-heavy')).toContainText('10 of 15 memories in');
    const primary = page.locator('main [data-primary]');
    await expect(primary).toHaveCount(1);
    await expect(primary).toHaveText('Allow networks…');
    await expect(page.getByRole('link', { name: 'Run audit…' })).not.toHaveAttribute('data-primary');
    await page.screenshot({ path: shot(`first-hour-overview-${width}`), fullPage: true });
  }
  // The overview's secrets card tells credentials apart from personal data.
  await expect(page.getByRole('link', { name: /Secrets detected/ })).toContainText('1 with a credential in clear');
  // Step 3 names the memory holding a credential in clear, and its link lists exactly that one.
  const step3 = page.getByTestId('first-hour-step-3');
  await expect(step3).toContainText('1 memory holds a credential in clear: open each and remove the value.');
  await step3.getByRole('link', { name: 'Show them…' }).click();
  await expect(page).toHaveURL(/\/tiers\/all\?cls=credential/);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody')).toContainText('feedback_api.md');
});

test('a back-fill of more than 10 files asks for the typed count; the flagged file stays inferred', async ({
  page,
  server,
}) => {
  const before = hashes(server.root);
  await page.goto('/run/backfill');
  const summary = page.getByTestId('plan-summary');
  await expect(summary).toContainText(/^Back-fill 15 files: /);
  const row = page.getByRole('row', { name: /feedback_api\.md/ });
  await expect(row.getByTestId('held-inferred')).toHaveText('stays inferred: flagged');
  await expect(row).toContainText('holds a credential');
  const apply = page.getByRole('button', { name: 'Back-fill 15 files' });
  const typed = page.getByLabel('Type 15 to confirm');
  await expect(page.getByText(/it would rewrite 15 files \(more than 10\)/)).toBeVisible();
  await expect(apply).toBeDisabled();
  await typed.fill('14');
  await expect(apply).toBeDisabled();
  expect(hashes(server.root)).toEqual(before);
  await typed.fill('15');
  await apply.click();
  await expect(page).toHaveURL(/\/batches\/b\d{8}T\d{6}Z-[0-9a-f]{6}$/);
  const api = fs.readFileSync(path.join(server.root, 'feedback_api.md'), 'utf8');
  expect(api).toContain('trust-level: inferred');
  expect(fs.readFileSync(path.join(server.root, 'user_role.md'), 'utf8')).toContain('trust-level: verified');
});

test('bulk promote of ticked clean memories, then Undo: byte-identical; a ticked flagged row turns Promote off', async ({
  page,
  server,
}) => {
  const before = hashes(server.root);
  await page.goto('/review?sort=name');
  await page.locator('[data-inbox-ready]').waitFor();
  await expect(page.getByText(/15 memories need a decision/)).toBeVisible();
  const table = page.getByRole('table', { name: 'Review inbox' });
  const bar = page.getByRole('region', { name: 'Selection' });
  const promote = bar.getByRole('button', { name: 'Promote…' });
  // The flagged row can be ticked, and then Promote is off, saying why (docs/review-inbox.md "Bulk actions").
  for (const name of ['API key', 'Commits', 'Role', 'Project X'])
    await table.getByRole('checkbox', { name: `Select ${name}` }).check();
  await expect(bar).toContainText('4 selected');
  await expect(promote).toBeDisabled();
  await expect(promote).toHaveAccessibleDescription(/^Promote is off: 1 selected is flagged \(a credential finding/);
  await expect(bar.getByRole('button', { name: 'Demote…' })).toBeEnabled();
  await table.getByRole('checkbox', { name: 'Select API key' }).uncheck();
  await expect(bar).toContainText('3 selected');
  await expect(bar.getByText(/Promote is off/)).toHaveCount(0);
  await promote.click();
  await expect(bar.getByTestId('plan-summary')).toHaveText('Promote 3 files: 3 → verified');
  await expect(bar.getByTestId('bulk-plan')).not.toContainText('feedback_api.md');
  // Ticking the flagged row again withdraws the plan: it is never applied with a flagged memory in the selection.
  await table.getByRole('checkbox', { name: 'Select API key' }).check();
  await expect(bar.getByTestId('bulk-plan')).toHaveCount(0);
  await table.getByRole('checkbox', { name: 'Select API key' }).uncheck();
  await expect(bar.getByTestId('plan-summary')).toHaveText('Promote 3 files: 3 → verified');
  await bar.screenshot({ path: shot('first-hour-bulk-promote') });
  expect(hashes(server.root)).toEqual(before);
  await bar.getByRole('button', { name: 'Promote 3 files' }).click();

  await expect(page).toHaveURL(/\/batches\/b\d{8}T\d{6}Z-[0-9a-f]{6}$/);
  await expect(page.getByRole('status')).toContainText('Done: 3 files changed');
  for (const f of ['feedback_commits.md', 'user_role.md', 'project_x.md'])
    expect(fs.readFileSync(path.join(server.root, f), 'utf8'), f).toContain('trust-level: verified');
  await page.goto('/review?sort=name');
  await expect(page.getByText(/12 memories need a decision/)).toBeVisible();

  await page.goBack();
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(page.getByRole('status')).toContainText('undid batch');
  expect(hashes(server.root)).toEqual(before);
});

test('a flagged row is ticked and demoted in bulk with the others, then Undo: byte-identical; select all takes every row', async ({
  page,
  server,
}) => {
  const before = hashes(server.root);
  await page.goto('/review?sort=name');
  await page.locator('[data-inbox-ready]').waitFor();
  const table = page.getByRole('table', { name: 'Review inbox' });
  const bar = page.getByRole('region', { name: 'Selection' });
  const boxes = table.getByRole('checkbox', { name: /^Select (?!all)/ });
  const rows = await boxes.count();
  expect(rows).toBeGreaterThan(1);
  await table.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await expect(bar).toContainText(`${rows} selected`);
  await expect(table.getByRole('checkbox', { name: 'Select API key' })).toBeChecked();
  await expect(bar.getByRole('button', { name: 'Promote…' })).toBeDisabled();
  await expect(bar).toContainText('Promote is off: 1 selected is flagged');
  await bar.getByRole('button', { name: 'Clear selection' }).click();

  for (const name of ['API key', 'Role']) await table.getByRole('checkbox', { name: `Select ${name}` }).check();
  await bar.getByRole('button', { name: 'Demote…' }).click();
  await bar.getByLabel('Demote reason').fill('the key was rotated');
  await bar.getByRole('button', { name: 'Show the plan' }).click();
  await expect(bar.getByTestId('plan-summary')).toHaveText('Demote 2 files: 2 → quarantined');
  await expect(bar.getByTestId('bulk-plan')).toContainText('feedback_api.md');
  expect(await page.content()).not.toContain(FAKE_KEY);
  expect(hashes(server.root)).toEqual(before);
  await bar.getByRole('button', { name: 'Demote 2 files' }).click();

  await expect(page).toHaveURL(/\/batches\/b\d{8}T\d{6}Z-[0-9a-f]{6}$/);
  await expect(page.getByRole('status')).toContainText('Done: 2 files changed');
  const demoted = Object.keys(hashes(server.root)).filter(
    (f) => f.endsWith('.md') && /trust-level: quarantined/.test(fs.readFileSync(path.join(server.root, f), 'utf8')),
  );
  expect(demoted.map((f) => path.basename(f)).sort()).toEqual(['feedback_api.md', 'user_role.md']);
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(page.getByRole('status')).toContainText('undid batch');
  expect(hashes(server.root)).toEqual(before);
});
