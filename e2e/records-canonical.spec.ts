/**
 * Canonical-file project memory on the dashboard (docs/canonical-layout.md, "End to
 * end"; docs/records-pages.md): a sharded `.claude/memory/` store of our own writing in
 * a temporary git repository (the root is the project). The table filtered by category
 * and shape, a record page with its target, the re-verify result and the staleness
 * reason by commits, the staleness view, and a reaffirm from the page that re-stamps
 * the SHA, then Undo puts every byte back. Values are made up.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, shot } from './fixtures';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.invalid',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: os.tmpdir(),
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const put = (root: string, rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};
const commit = (dir: string, msg: string) => {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', msg);
  return git(dir, 'rev-parse', '--short=7', 'HEAD');
};
const SESSION = `${Array.from({ length: 30 }, (_, i) =>
  i === 11 ? 'export function rotateOnRefresh(token: string) { return token; }' : `// line ${i + 1}`,
).join('\n')}\n`;
const fm = (lines: string[], body: string) => `---\n${lines.join('\n')}\n---\n\n${body}`;

/** Set by the setup: the first commit (the entries' verified-at) and HEAD. */
const shas = { first: '', head: '' };
const ENTRY = '.claude/memory/landmarks/rotation.md';

test.use({
  rootFiles: {},
  rootSetup: {
    setup(root: string) {
      git(root, 'init', '-q', '-b', 'main');
      git(root, 'config', 'commit.gpgsign', 'false');
      put(root, '.gitignore', '.memtrust/\n');
      put(root, 'src/auth/session.ts', SESSION);
      put(root, 'src/util.ts', 'export const x = 1;\n');
      shas.first = commit(root, 'first');
      for (let i = 1; i <= 31; i++) {
        if (i % 10 === 0) put(root, 'src/auth/session.ts', `${SESSION}// edit ${i}\n`);
        else put(root, `notes/n${i}.txt`, `note ${i}\n`);
        shas.head = commit(root, `change ${i}`);
      }
      const mem = (rel: string, text: string) => put(root, `.claude/memory/${rel}`, text);
      mem('README.md', '# Project memory\n\nNot an entry.\n');
      mem(
        'landmarks/rotation.md',
        fm(
          [
            'key: src/auth/session.ts:12',
            'category: landmarks',
            'claim: rotation: runs on every refresh',
            'source: inferred-from-code',
            `verified-at: ${shas.first}`,
            'last-touched: 2026-09-01',
            'owner-note: an unknown field, kept',
          ],
          '- Role: token rotation (made-up).\n',
        ),
      );
      mem(
        'landmarks/util.md',
        fm(
          ['key: src/util.ts:1', 'category: landmarks', 'source: user-instruction', `verified-at: ${shas.head}`],
          '- Role: helpers.\n',
        ),
      );
      mem(
        'libraries/scope-pkg.md',
        fm(
          [
            'key: @scope/pkg@1.2',
            'category: libraries',
            'claim: call init() first: it loads the config',
            'source: library-pinned',
            `verified-at: ${shas.first}`,
          ],
          '- Pin: 1.2.\n',
        ),
      );
      mem(
        'backlog/tidy-notes-a1b2.md',
        fm(['key: tidy-notes-a1b2', 'category: backlog', 'status: open', 'raised-on: 2026-10-02'], '- Intent: tidy.\n'),
      );
    },
  },
});

test('canonical records: filtered by category, a record page with target, re-verify and staleness, a reaffirm undone byte for byte', async ({
  page,
  server,
}) => {
  // The table, filtered by category through the form: the URL carries it.
  await page.goto('/records');
  await expect(page.locator('tr[data-record]')).toHaveCount(4);
  await page.getByLabel('Category').selectOption('landmarks');
  await page.getByLabel('Shape').selectOption('sharded');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/category=landmarks/);
  await expect(page).toHaveURL(/shape=sharded/);
  const rows = page.locator('tr[data-record]');
  await expect(rows).toHaveCount(2);
  await expect(page.locator('tr[data-record$=":backlog/tidy-notes-a1b2"]')).toHaveCount(0);
  await expect(rows.first()).toContainText('sharded · landmarks');
  await page.screenshot({ path: shot('records-canonical-filtered'), fullPage: true });
  await page.goto('/records?category=backlog');
  await expect(page.locator('tr[data-record]')).toHaveCount(1);

  // The record page: target, its re-verify result, and why it is stale.
  const row = page.locator('tr[data-record$=":landmarks/src/auth/session.ts:12"]');
  await page.goto('/records?category=landmarks');
  const id = (await row.getAttribute('data-record'))!;
  await page.goto(`/records/${encodeURIComponent(id)}`);
  await expect(page.getByText('src/auth/session.ts:12', { exact: true }).first()).toBeVisible();
  await expect(page.locator('[data-verify="ok"]')).toContainText('the target re-verifies');
  await expect(page.locator('[data-staleness="stale"]')).toContainText(
    `31 commits since ${shas.first}, 3 touch its target`,
  );
  await page.screenshot({ path: shot('records-canonical-detail'), fullPage: true });
  // One detail page: the record's id opens the same detail where a memory's id does.
  await page.goto(`/memories/${encodeURIComponent(id)}`);
  await expect(page.locator('[data-verify="ok"]')).toContainText('the target re-verifies');
  await expect(page.getByText('Memory not found')).toHaveCount(0);

  // The staleness view lists it, most drifted first, with the reason.
  await page.goto('/records/staleness');
  const staleRow = page.locator('tr', { hasText: 'src/auth/session.ts:12' });
  await expect(staleRow).toContainText(`31 commits since ${shas.first}`);
  await page.screenshot({ path: shot('records-canonical-staleness'), fullPage: true });

  // Reaffirm from the page: verified-at becomes HEAD, last-touched today; nothing else changes.
  const file = path.join(server.root, ENTRY);
  const before = fs.readFileSync(file);
  const others: [string, Buffer][] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p !== file) others.push([p, fs.readFileSync(p)]);
    }
  };
  walk(path.join(server.root, '.claude/memory'));
  expect(others).toHaveLength(4);
  await page.goto(`/records/${encodeURIComponent(id)}`);
  await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Re-affirm' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`verified-at: ${shas.head}`);
  expect(fs.readFileSync(file).equals(before)).toBe(true);
  await page.screenshot({ path: shot('records-canonical-reaffirm-preview'), fullPage: true });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Re-affirm/ })).toBeVisible();
  const done = page.url();
  await expect
    .poll(() => fs.readFileSync(file, 'utf8'))
    .toBe(
      before
        .toString('utf8')
        .replace(`verified-at: ${shas.first}`, `verified-at: ${shas.head}`)
        .replace('last-touched: 2026-09-01', 'last-touched: 2026-11-22'),
    );
  for (const [p, b] of others) expect(fs.readFileSync(p).equals(b), p).toBe(true);
  // Fresh now: the record page says so.
  await page.goto(`/records/${encodeURIComponent(id)}`);
  await expect(page.locator('[data-staleness="fresh"]')).toContainText(`0 commits since ${shas.head}`);
  await page.screenshot({ path: shot('records-canonical-reaffirmed'), fullPage: true });
  await page.goto(done);
  await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
  await page.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(page).toHaveURL(/\/batches\//);
  await expect.poll(() => fs.readFileSync(file).equals(before)).toBe(true);
  for (const [p, b] of others) expect(fs.readFileSync(p).equals(b), p).toBe(true);
});

test('a backlog entry closes as dropped from its page (the status is a choice), and Undo puts the bytes back', async ({
  page,
  server,
}) => {
  const file = path.join(server.root, '.claude/memory/backlog/tidy-notes-a1b2.md');
  const before = fs.readFileSync(file);
  await page.goto('/records?category=backlog');
  const id = (await page.locator('tr[data-record$=":backlog/tidy-notes-a1b2"]').getAttribute('data-record'))!;
  await page.goto(`/records/${encodeURIComponent(id)}`);
  const actions = page.getByRole('group', { name: 'Actions' });
  await expect(actions.getByRole('button', { name: 'Close as picked-up' })).toBeEnabled();
  await actions.getByRole('button', { name: 'Close as dropped' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('status: dropped');
  await page.screenshot({ path: shot('records-canonical-close-preview'), fullPage: true });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Close as dropped/ })).toBeVisible();
  await expect
    .poll(() => fs.readFileSync(file, 'utf8'))
    .toBe(
      before
        .toString('utf8')
        .replace('status: open\n', 'status: dropped\n')
        .replace('raised-on: 2026-10-02\n', 'raised-on: 2026-10-02\nsuperseded-at: 2026-11-22\n'),
    );
  await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
  await page.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(page).toHaveURL(/\/batches\//);
  await expect.poll(() => fs.readFileSync(file).equals(before)).toBe(true);
});

test('the overview of a root of records counts the records by tier and flag, with no memory cards at 0', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByText('4 records in 1 record root')).toBeVisible();
  await expect(page.getByText(/memories in \d+ root/)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Quarantine retention' })).toHaveCount(0);
  const records = page.locator('section', { has: page.getByRole('heading', { name: 'Records (4)' }) });
  await expect(records).toBeVisible();
  // The overview's four tier cards add up to the records (no memory root here), each opening its tier tab.
  const tierCards = page.getByTestId('tier-cards').getByRole('link');
  await expect(tierCards).toHaveCount(4);
  await expect(tierCards.first()).toHaveAttribute('href', '/tiers/verified');
  const numbers = (await tierCards.locator('div.text-3xl').allTextContents()).map(Number);
  expect(numbers.reduce((a, b) => a + b, 0)).toBe(4);
  const stale = records.getByRole('link', { name: /Flagged stale/ });
  await expect(stale).toHaveAttribute('href', '/records?queue=stale');
  const staleCount = Number(await stale.locator('div.text-3xl').textContent());
  expect(staleCount).toBeGreaterThan(0);
  await page.screenshot({ path: shot('overview-records-only'), fullPage: true });
  await stale.click();
  await expect(page).toHaveURL(/\/records\?queue=stale$/);
  await expect(page.locator('tr[data-record]')).toHaveCount(staleCount);
});
