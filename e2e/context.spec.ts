/**
 * The Context X-ray (/context, issue 11): per root, the index as loaded with the cut
 * drawn, each memory's state and the gesture that changes it, and the hook text verbatim
 * — the very text the real CLI's SessionStart hook prints.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { PROJECT, startServer, tempDir, type RunningServer } from './server';
import { shot } from './fixtures';
import {
  writeClaudeFolderOverCut,
  writeTrustRootOverBudget,
  FAKE_PASSWORD,
  type ClaudeFixture,
  type TrustFixture,
} from '../lib/service/session/context-fixtures';

const test = base.extend<{ two: { server: RunningServer; claude: ClaudeFixture; trust: TrustFixture } }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring, and this fixture has none
  two: async ({}, use) => {
    const dir = tempDir('memtrust-e2e-context-');
    const claude = writeClaudeFolderOverCut(path.join(dir, 'projects', '-home-owner-app', 'memory'));
    const trust = writeTrustRootOverBudget(path.join(dir, 'trust'));
    const server = await startServer({ root: [claude.dir, trust.dir].join(path.delimiter), dir });
    await use({ server, claude, trust });
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  },
  baseURL: async ({ two }, use) => use(two.server.baseURL),
});

/** The real CLI's hook output, with the server's own environment. */
function cliHookText(server: RunningServer): string {
  const r = spawnSync(process.execPath, [path.join(PROJECT, 'lib/cli/memtrust.cjs'), 'context', '--format', 'hook'], {
    env: server.env,
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
}

test('the X-ray shows what a session gets, root by root, with the cut drawn and a way to change each row', async ({
  page,
  two,
}) => {
  const { server, claude, trust } = two;
  await page.goto('/');
  await page.getByRole('link', { name: 'Context X-ray →' }).click();
  await expect(page).toHaveURL(/\/context$/);
  await expect(page.getByRole('heading', { name: 'Context X-ray' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Context' })).toBeVisible();

  // The hook text, verbatim: the same characters the real CLI prints for a session start.
  const shown = await page.getByTestId('hook-text').textContent();
  expect(shown).toBe(cliHookText(server));
  expect(shown!.length).toBeLessThanOrEqual(8000);
  expect(shown).not.toContain(FAKE_PASSWORD);
  await expect(page.getByTestId('hook-summary')).toContainText(
    `hook text ${shown!.length.toLocaleString('en-US')} characters (≈`,
  );
  await expect(page.getByTestId('hook-summary')).toContainText('of a 8,000-character budget · headroom');

  // Claude Code folder: MEMORY.md as loaded, the cut drawn where Claude Code stops.
  const cc = page.getByRole('region', { name: `Root ${claude.dir}` });
  const index = cc.getByRole('list', { name: 'MEMORY.md as loaded' });
  await expect(cc.locator('ol[aria-label^="MEMORY.md"] > li')).toHaveCount(250);
  const cutAt = await index.getByRole('separator').getAttribute('aria-label');
  expect(cutAt).toMatch(/^cut at line \d+$/);
  await expect(cc.getByTestId('index-summary')).toContainText('MEMORY.md: 250 lines');
  await expect(cc.getByTestId('index-summary')).toContainText('over the 200-line / 25,000-byte load limit');
  await expect(cc).not.toContainText(FAKE_PASSWORD); // the index line with a password is not echoed, folded or not
  await expect(cc.locator('ol[aria-label^="MEMORY.md"] > li').nth(6)).toContainText(
    '(withheld: this line holds a credential)',
  );
  // Each memory marked: cut, not indexed, quarantined, loaded.
  const row = (scope: typeof cc, file: string) =>
    scope.getByRole('row').filter({ has: page.getByRole('link', { name: file, exact: true }) });
  await expect(row(cc, claude.cut[0]!)).toHaveAttribute('data-state', 'cut');
  await expect(row(cc, claude.cut[0]!)).toContainText('move its MEMORY.md line above the cut');
  await expect(row(cc, claude.notIndexed[0]!)).toHaveAttribute('data-state', 'not-indexed');
  await expect(row(cc, claude.quarantined)).toHaveAttribute('data-state', 'quarantined');
  await expect(row(cc, claude.credential)).toContainText('remove the credential value');

  // Trust-model root: bodies quoted, the rest over budget or withheld, with the action that changes it.
  const tr = page.getByRole('region', { name: `Root ${trust.dir}` });
  await expect(row(tr, trust.hostile)).toHaveAttribute('data-state', 'loaded');
  await expect(row(tr, trust.credential)).toHaveAttribute('data-state', 'withheld');
  await expect(row(tr, trust.huge)).toHaveAttribute('data-state', 'over-budget');
  await expect(row(tr, trust.quarantined)).toHaveAttribute('data-state', 'quarantined');

  await page.screenshot({ path: shot('context'), fullPage: true });

  // From a row, its action: over budget → the budget setting.
  await row(tr, trust.huge)
    .getByRole('link', { name: /raise contextBudget/ })
    .click();
  await expect(page).toHaveURL(/\/settings#context-budget$/);
  const budget = page.getByRole('region', { name: 'Session context budget' });
  await budget.getByLabel('Characters (1,000–10,000)').fill('20000');
  await budget.getByRole('button', { name: 'Save' }).click();
  await expect(budget.getByRole('alert')).toHaveText('A whole number from 1,000 to 10,000.');
  await budget.getByLabel('Characters (1,000–10,000)').fill('3000');
  await budget.getByRole('button', { name: 'Save' }).click();
  await expect(budget.getByRole('status')).toHaveText('Budget saved: 3,000 characters.');
  const saved = JSON.parse(
    fs.readFileSync(path.join(server.env.XDG_CONFIG_HOME!, 'memtrust', 'settings.json'), 'utf8'),
  ) as { contextBudget: number };
  expect(saved.contextBudget).toBe(3000);

  await page.goto('/context');
  await expect(page.getByTestId('hook-summary')).toContainText('of a 3,000-character budget');
  const smaller = (await page.getByTestId('hook-text').textContent())!;
  expect(smaller.length).toBeLessThanOrEqual(3000);
  expect(smaller).toBe(cliHookText(server));

  // A row's memory link opens that memory.
  await row(page.getByRole('region', { name: `Root ${trust.dir}` }), trust.credential)
    .getByRole('link', { name: trust.credential })
    .click();
  await expect(page).toHaveURL(new RegExp(`/memories/[^/]+${trust.credential.replace('.', '\\.')}$`));
});

test.describe('the X-ray on other roots', () => {
  test('a generated corpus: renders without errors, and its text is the CLI hook text', async ({ page }) => {
    const dir = tempDir('memtrust-e2e-context-corpus-');
    const { generateCorpus, writeCorpus } = await import('../lib/demo');
    writeCorpus(
      path.join(dir, 'root'),
      generateCorpus({ n: 60, seed: 7, now: new Date('2026-11-22T12:00:00Z'), ownerEmail: 'owner@example.com' }),
    );
    const server = await startServer({ root: path.join(dir, 'root'), dir });
    try {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(`${server.baseURL}/context`);
      await expect(page.getByRole('heading', { name: 'Context X-ray' })).toBeVisible();
      expect(await page.getByTestId('hook-text').textContent()).toBe(cliHookText(server));
      await page.screenshot({ path: shot('context-corpus'), fullPage: true });
      // The server keeps each memory between plans (docs/session-context.md, "Between changes"):
      // after an edit, a delete and a move into quarantine/ the page is again exactly the hook.
      const text = (await page.getByTestId('hook-text').textContent()) ?? '';
      const quoted = [...text.matchAll(/<memory file="([^"]+)"/g)].map((m) => m[1]!);
      expect(quoted.length).toBeGreaterThan(2);
      const mem = (f: string) => path.join(dir, 'root', 'memories', f);
      const edited = fs.readFileSync(mem(quoted[0]!), 'utf8');
      fs.writeFileSync(
        mem(quoted[0]!),
        `${edited.slice(0, edited.indexOf('\n---') + 4)}\nEdited while the server kept the plan.\n`,
      );
      fs.rmSync(mem(quoted[1]!));
      fs.renameSync(mem(quoted[2]!), path.join(dir, 'root', 'quarantine', quoted[2]!));
      await expect
        .poll(async () => {
          await page.goto(`${server.baseURL}/context`);
          return page.getByTestId('hook-text').textContent();
        })
        .toContain('Edited while the server kept the plan.');
      const after = (await page.getByTestId('hook-text').textContent()) ?? '';
      expect(after).toBe(cliHookText(server));
      expect(after).not.toContain(`file="${quoted[1]}"`);
      expect(after).not.toContain(`file="${quoted[2]}"`);
      await page.screenshot({ path: shot('context-corpus-after-edit'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a root that does not exist is reported calmly, in the page and in the hook text', async ({ page }) => {
    const dir = tempDir('memtrust-e2e-context-missing-');
    const missing = path.join(dir, 'nowhere');
    const server = await startServer({ root: missing, dir });
    try {
      await page.goto(`${server.baseURL}/context`);
      await expect(page.getByRole('region', { name: `Root ${missing}` }).getByRole('alert')).toHaveText(
        'Could not read this root: root not found',
      );
      await expect(page.getByTestId('hook-text')).toContainText(`- ${missing}: root not found`);
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
