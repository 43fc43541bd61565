/**
 * Credentials on the pages (docs/credentials.md): masked values inline, revealed
 * only on click and absent from the page source until then; two class badges;
 * the allowances form previews what it would clear before saving.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, shot } from './fixtures';
import { memory } from './memory-files';

const PASSWORD = 'Tr1cky-Pa55-e2e';
const TABLE_PW = 'R4spb3rry!e2e';
const fields = (name: string) => ({
  name,
  description: `${name} notes`,
  type: 'reference',
  'source-machine': 'laptop',
  'created-at': '2026-01-01T09:00:00Z',
  'trust-level': 'inferred',
});

test.use({
  rootFiles: {
    'memories/reference_nas_access.md': memory(
      fields('NAS access'),
      [
        `The NAS web UI lives at 10.20.30.40; the admin password: ${PASSWORD} (rotate it in spring).`,
        '',
        '| host | user | password |',
        '|---|---|---|',
        `| pi.lan | pi | \`${TABLE_PW}\` |`,
      ].join('\n'),
    ),
    'memories/reference_lab_hosts.md': memory(
      fields('Lab hosts'),
      'The build box is 10.20.30.41 and the printer 10.20.30.42, both on the lab VLAN.',
    ),
  },
});

/** The memory page's URL, from the tier list (source ids carry a hash of the root path). */
async function openMemory(page: import('@playwright/test').Page, name: string): Promise<string> {
  await page.goto('/tiers/all');
  const href = await page.getByRole('link', { name, exact: true }).first().getAttribute('href');
  expect(href).toBeTruthy();
  return href!;
}

test('masked values: inline chips with the class, revealed only on click, never in the page source', async ({
  page,
}) => {
  const href = await openMemory(page, 'NAS access');
  const res = await page.goto(href);
  const html = (await res!.text()) + (await page.content());
  expect(html).not.toContain(PASSWORD);
  expect(html).not.toContain(TABLE_PW);
  expect(html).not.toContain('10.20.30.40');
  // The rest of each line stays, and the table is still a table.
  await expect(page.getByText('(rotate it in spring)', { exact: false })).toBeVisible();
  await expect(page.locator('table td', { hasText: 'pi.lan' })).toBeVisible();
  const masks = page.locator('[data-mask]');
  await expect(masks).toHaveCount(3);
  await expect(page.locator('[data-mask="personal"]')).toHaveCount(1);
  // Two distinct labels in the findings.
  await expect(page.locator('[data-finding-class="credential"]').first()).toHaveText('credential');
  await expect(page.locator('[data-finding-class="personal"]').first()).toHaveText('personal data');
  await page.screenshot({ path: shot('credentials-masked'), fullPage: true });

  const pw = page.locator('[data-mask="credential"]').first();
  await pw.getByRole('button', { name: 'reveal' }).click();
  await expect(pw.locator('[data-revealed]')).toHaveText(PASSWORD);
  await page.screenshot({ path: shot('credentials-revealed'), fullPage: true });
  await pw.getByRole('button', { name: 'hide' }).click();
  await expect(pw.locator('[data-revealed]')).toHaveCount(0);
});

test('a reveal after the file changed is refused, and says why', async ({ page, server }) => {
  const href = await openMemory(page, 'NAS access');
  // Hold back the page's live refresh (its poll is the one server action called with
  // no argument): a refresh would render the new file, and a reveal from that fresh
  // page rightly succeeds. Under CI load the poll landed between the edit and the click.
  let held = 0;
  await page.route('**/*', (route) => {
    const req = route.request();
    if (req.method() === 'POST' && req.headers()['next-action'] && req.postData() === '[{}]') {
      held++;
      return route.abort();
    }
    return route.continue();
  });
  await page.goto(href);
  const file = path.join(server.root, 'memories/reference_nas_access.md');
  fs.appendFileSync(file, '\nOne more line.\n');
  // A poll after the edit was held back, so the page still shows the version it rendered.
  const before = held;
  await expect.poll(() => held, { timeout: 10_000 }).toBeGreaterThan(before);
  const pw = page.locator('[data-mask="credential"]').first();
  await pw.getByRole('button', { name: 'reveal' }).click();
  await expect(pw.getByRole('alert')).toContainText('changed');
  expect(await pw.locator('[data-revealed]').count()).toBe(0);
});

test('allowed networks: the form previews the findings it would clear, then saving clears them', async ({ page }) => {
  await page.goto('/settings');
  const nets = page.getByLabel('Networks (CIDR, space separated)');
  await nets.fill('10.20.30.0/24');
  await expect(page.getByTestId('allow-preview')).toContainText(
    'Saving would clear 3 findings (1 memory becomes clean)',
    { timeout: 15_000 },
  );
  await nets.fill('10.20.30.0/99');
  await expect(page.getByTestId('allow-preview')).toContainText('not a CIDR block');
  await nets.fill('10.20.30.0/24');
  await expect(page.getByTestId('allow-preview')).toContainText('clear 3 findings');
  await page.screenshot({ path: shot('credentials-allow-preview'), fullPage: true });
  await page.getByRole('button', { name: 'Save allowances' }).click();
  await expect(page.getByText('Allowances saved')).toBeVisible();
  await page.goto(await openMemory(page, 'Lab hosts'));
  await expect(page.getByText('secret-check CLEAN', { exact: false })).toBeVisible();
});
