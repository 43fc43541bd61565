/**
 * The review inbox and the pages around it on a Claude Code folder shaped like a
 * real one (e2e/real-folder.ts): filters and paging in the URL, grouped findings,
 * the keyboard (flagged memories never change on a key), the diff preview, repair
 * and restore, the MEMORY.md page and the editor's required fields.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, hashes, shot } from './fixtures';
import { realFolder } from './real-folder';
import { sourceId } from '../lib/sources';
import { fakeToken } from './memory-files';

const folder = realFolder();
const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel));
const href = (root: string, filename: string) => `/memories/${encodeURIComponent(`${sourceId(root)}:${filename}`)}`;

test.use({ rootFiles: folder.files });

test('the inbox filters, sorts and pages 160+ memories with every choice in the URL', async ({ page }) => {
  expect(Object.keys(folder.files).length).toBeGreaterThan(150);
  await page.goto('/review?queue=any');
  const table = page.getByRole('table', { name: 'Review inbox' });
  await expect(table.getByRole('row')).toHaveCount(51); // header + 50
  await expect(page.getByRole('navigation', { name: 'Pages' })).toContainText(/1–50 of 1[6-9]\d/);
  await page.getByRole('link', { name: 'Next →' }).click();
  await expect(page).toHaveURL(/page=2/);
  // Finding class: the credential filter finds the token, not the private addresses.
  await page.goto('/review?queue=any');
  await page.getByLabel('Finding class').selectOption('credential');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/cls=credential/);
  await expect(table.getByRole('link', { name: 'Deploy token' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Homelab network' })).toHaveCount(0);
  // Finding kind + sort; the preview pane shows 60 private addresses as one grouped row.
  await page.goto('/review?queue=any&kind=secret.private-ip&sort=findings&dir=desc');
  await expect(table.getByRole('row').nth(1)).toContainText('Homelab network');
  const pane = page.getByRole('complementary', { name: 'Preview' });
  await expect(pane.getByRole('heading', { level: 2 })).not.toHaveText('Flat type');
  const findings = pane.getByRole('list', { name: 'Findings by kind' });
  const ips = findings.getByRole('listitem').filter({ hasText: 'private IPv4 address' });
  await expect(ips).toHaveCount(1);
  await expect(ips.getByLabel('60 times')).toBeVisible();
  // Selecting a row puts it in the URL; reloading keeps it.
  await table.getByRole('link', { name: 'Old CI token' }).click();
  await expect(page).toHaveURL(/sel=/);
  await page.reload();
  await expect(pane.getByRole('heading', { name: 'Old CI token' })).toBeVisible();
  await page.goto('/review?queue=any&sort=name');
  await page.screenshot({ path: shot('inbox'), fullPage: false });
});

test('keys: ? and Escape, j/k, a flagged memory is never promoted by a key, others ask first', async ({
  page,
  server,
}) => {
  await page.goto('/review?queue=due&sort=name');
  await page.locator('[data-inbox-ready]').waitFor();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  // Deploy token: inferred, past observation, holds a token — promote is disabled and p does nothing.
  await page.goto(
    `/review?queue=due&sort=name&sel=${encodeURIComponent(`${sourceId(server.root)}:${folder.named.token}`)}`,
  );
  const pane = page.getByRole('complementary', { name: 'Preview' });
  await expect(pane.getByRole('button', { name: 'Promote' })).toBeDisabled();
  // The reason sits behind the one "Why not …?" line.
  await expect(pane.getByText(/promote refused: a credential is in the file/i)).toBeHidden();
  await pane.getByText(/^Why not Promote/).click();
  await expect(pane.getByText(/promote refused: a credential is in the file/i)).toBeVisible();
  await page.locator('[data-inbox-ready]').waitFor();
  const before = read(server.root, folder.named.token);
  await page.keyboard.press('p');
  await expect(pane.getByRole('alert')).toContainText('not available');
  await expect(page.getByRole('dialog', { name: 'Confirm promote' })).toHaveCount(0);
  expect(read(server.root, folder.named.token).equals(before)).toBe(true);
  // j moves to the next row (URL), p on a clean memory opens the preview; only Confirm writes.
  await page.goto(
    `/review?queue=due&sort=name&sel=${encodeURIComponent(`${sourceId(server.root)}:${folder.named.due}`)}`,
  );
  await expect(pane.getByRole('heading', { name: 'Due for review' })).toBeVisible();
  await page.locator('[data-inbox-ready]').waitFor();
  await page.keyboard.press('p');
  const dialog = page.getByRole('dialog', { name: 'Confirm promote' });
  await expect(dialog.getByLabel('Diff preview')).toContainText('trust-level: inferred');
  await expect(dialog.getByLabel('Diff preview')).toContainText('trust-level: verified');
  expect(read(server.root, folder.named.due).toString()).toContain('trust-level: inferred');
  await expect(dialog.getByRole('button', { name: 'Confirm promote' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'inferred → verified' }).first()).toBeVisible();
  expect(read(server.root, folder.named.due).toString()).toContain('trust-level: verified');
  // The promote refreshes the list; a key pressed while that refresh is in flight acts on the old rows.
  await page.waitForLoadState('networkidle');
  const url = page.url();
  await page.keyboard.press('j');
  await expect(page).not.toHaveURL(url);
});

test('the diff preview names the frontmatter lines, the move and the MEMORY.md line before a demote', async ({
  page,
  server,
}) => {
  await page.goto(href(server.root, folder.named.flat));
  await page.getByRole('button', { name: 'Demote' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm demote' });
  const diff = dialog.getByLabel('Diff preview');
  await expect(diff).toContainText('− trust-level: verified');
  await expect(diff).toContainText('+ trust-level: quarantined');
  await expect(diff).toContainText('(root)/ → quarantine/');
  await expect(diff).toContainText('MEMORY.md loses the line - [Flat type](user_flat_type.md)');
  await dialog.getByLabel('Why demote this memory?').fill('superseded by the team wiki');
  await expect(diff).toContainText('+ quarantine-reason: superseded by the team wiki');
  await page.screenshot({ path: shot('diff-preview'), fullPage: false });
  expect(fs.existsSync(path.join(server.root, folder.named.flat))).toBe(true);
  await dialog.getByRole('button', { name: 'Confirm demote' }).click();
  await expect(page.getByRole('status')).toContainText('verified → quarantined');
  expect(read(server.root, `quarantine/${folder.named.flat}`).toString()).toContain(
    'quarantine-reason: superseded by the team wiki',
  );
  expect(read(server.root, 'MEMORY.md').toString()).not.toContain('(user_flat_type.md)');
});

test('a single demote from the inbox: reason, preview, apply, then Undo puts the bytes and the row back', async ({
  page,
  server,
}) => {
  const before = hashes(server.root);
  const inbox = '/review?queue=any&tier=verified&sort=name&size=100';
  await page.goto(inbox);
  await page.locator('[data-inbox-ready]').waitFor();
  const table = page.getByRole('table', { name: 'Review inbox' });
  await table.getByRole('link', { name: 'Flat type' }).click();
  const pane = page.getByRole('complementary', { name: 'Preview' });
  await pane.getByRole('button', { name: 'Demote' }).click();
  const dialog = pane.getByRole('dialog', { name: 'Confirm demote' });
  await dialog.getByLabel('Why demote this memory?').fill('checking the undo');
  await expect(dialog.getByLabel('Diff preview')).toContainText('+ quarantine-reason: checking the undo');
  await dialog.getByRole('button', { name: 'Confirm demote' }).click();
  // The pane moves on to the next row (its own result line goes with it); the result and its Undo stay above the table.
  await expect(pane.getByRole('heading', { level: 2 })).not.toHaveText('Flat type');
  await expect(table.getByRole('row', { name: /^Flat type,/ })).toHaveCount(0);
  const done = page.getByRole('status').filter({ hasText: 'verified → quarantined' });
  await expect(done.getByRole('button', { name: 'Undo batch' })).toBeVisible();
  expect(fs.existsSync(path.join(server.root, `quarantine/${folder.named.flat}`))).toBe(true);
  await page.screenshot({ path: shot('inbox-single-undo'), fullPage: false });
  await done.getByRole('button', { name: 'Undo batch' }).click();
  await done.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(page).toHaveURL(/\/batches\//);
  expect(hashes(server.root)).toEqual(before);
  await page.goto(inbox);
  await expect(table.getByRole('row', { name: 'Flat type, verified' })).toBeVisible();
  // Shown once: back on the inbox, the undone batch's Undo is not offered again.
  await expect(page.getByRole('button', { name: 'Undo batch' })).toHaveCount(0);
});

test('repair and restore: redact each flagged value, validated live, edit + move in one event', async ({
  page,
  server,
}) => {
  const rel = `quarantine/${folder.named.quarantinedToken}`;
  const before = read(server.root, rel);
  await page.goto(href(server.root, folder.named.quarantinedToken));
  await expect(page.getByRole('button', { name: 'Restore', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Repair and restore…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Repair and restore' });
  await expect(dialog.getByText('Flagged values (2)')).toBeVisible();
  await expect(dialog).not.toContainText(fakeToken());
  await expect(dialog).not.toContainText('10.9.8.7');
  // Keep the address: still blocked.
  await dialog
    .getByRole('group', { name: /private IPv4/ })
    .getByLabel('keep')
    .check();
  await expect(dialog.getByRole('status')).toContainText('Still blocked');
  await expect(dialog.getByRole('button', { name: 'Apply edits and restore' })).toBeDisabled();
  await dialog
    .getByRole('group', { name: /private IPv4/ })
    .getByLabel('wrap in <redacted>')
    .check();
  await expect(dialog.getByRole('status')).toContainText('ready to restore');
  await page.screenshot({ path: shot('repair-dialog'), fullPage: false });
  expect(read(server.root, rel).equals(before)).toBe(true); // never edited in place
  await dialog.getByRole('button', { name: 'Apply edits and restore' }).click();
  await expect(page.getByRole('status').first()).toContainText('quarantined → verified');
  expect(fs.existsSync(path.join(server.root, rel))).toBe(false);
  const text = read(server.root, folder.named.quarantinedToken).toString();
  expect(text).not.toContain(fakeToken());
  expect(text).toContain('<redacted></redacted>');
  expect(text).toContain('<redacted>10.9.8.7</redacted>');
  const audit = fs
    .readFileSync(path.join(server.root, '.memtrust/audit/e2e-machine.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const ev = audit.find((e) => e.memory === folder.named.quarantinedToken);
  expect(ev).toMatchObject({ action: 'restore', to: 'verified' });
  expect(ev.before_sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(ev.after_sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(read(server.root, 'MEMORY.md').toString()).toContain(`(${folder.named.quarantinedToken})`);
  // Edit + move are one batch, but its copy of the quarantined bytes held the token it removed:
  // that copy is not kept, so the result offers no Undo and says why (docs/batches.md).
  expect(ev.batch).toBe(ev.id);
  await expect(page.getByRole('status').first()).toContainText('cannot be undone');
  await expect(page.getByRole('status').first().getByRole('button', { name: 'Undo batch' })).toHaveCount(0);
  expect(fs.existsSync(path.join(server.root, rel))).toBe(false);
});

test('repair and restore: broken YAML shows the parser message and line, fixed in the dialog', async ({
  page,
  server,
}) => {
  await page.goto(href(server.root, folder.named.quarantinedYaml));
  await page.getByRole('button', { name: 'Repair and restore…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Repair and restore' });
  await expect(dialog.getByText(/The YAML does not parse: .* \(line \d\)/)).toBeVisible();
  const box = dialog.getByLabel('Frontmatter');
  await box.fill((await box.inputValue()).replace('description: [unclosed', 'description: quote values with care'));
  await expect(dialog.getByRole('status')).toContainText('ready to restore');
  await dialog.getByRole('button', { name: 'Apply edits and restore' }).click();
  await expect(page.getByRole('status').first()).toContainText('quarantined → verified');
  expect(read(server.root, folder.named.quarantinedYaml).toString()).toContain('description: quote values with care');
});

test('the MEMORY.md page: lines, the memory each names, findings by line, the load-limit cut', async ({
  page,
  server,
}) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'open MEMORY.md' }).click();
  await expect(page.getByRole('heading', { name: 'MEMORY.md', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'MEMORY.md lines' });
  await expect(table.getByRole('row', { name: 'Load limit cut' })).toContainText('load limit');
  await expect(page.getByRole('alert').filter({ hasText: 'Over the' })).toContainText(
    'Over the 25,000-byte limit: only lines 1–153',
  );
  const last = table.getByRole('row').last();
  await expect(last).toContainText('private IPv4 address');
  await expect(last).not.toContainText('10.0.0.5');
  await expect(last).toHaveAttribute('data-load', 'cut');
  await page.screenshot({ path: shot('memory-md'), fullPage: false });
  await table.getByRole('row', { name: 'Load limit cut' }).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: shot('memory-md-cut'), fullPage: false });
  await table.getByRole('link', { name: 'Homelab network' }).first().click();
  await expect(page.getByRole('heading', { name: 'Homelab network', level: 1, exact: true })).toBeVisible();
  expect(server.root).toBeTruthy();
});

test('the editor shows every required field, nested type included, and saves a changed type where it was', async ({
  page,
  server,
}) => {
  await page.goto(`${href(server.root, folder.named.nested)}/edit`);
  await expect(page.getByLabel('Type (under metadata:)')).toHaveValue('feedback');
  await page.goto(`${href(server.root, folder.named.flat)}/edit`);
  await expect(page.getByLabel('Name')).toHaveValue('Flat type');
  await page.getByLabel('Type').selectOption('feedback');
  await page.getByRole('button', { name: 'Preview changes' }).click();
  await expect(page.getByRole('region', { name: 'Changes to save' }).locator('li[data-op="added"]')).toHaveText([
    /type: feedback$/,
  ]);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Flat type', level: 1, exact: true })).toBeVisible();
  const text = read(server.root, folder.named.flat).toString();
  expect(text).toMatch(/^type: feedback$/m);
  expect(text).not.toMatch(/^type: user$/m);
});
