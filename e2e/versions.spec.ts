/**
 * Nothing lost when another tool rewrites or deletes memories (docs/versions.md): a Claude
 * Code folder indexed by the CLI a day earlier, then a consolidation-like run deletes eight
 * files, rewrites two and edits MEMORY.md. The dashboard shows the mass-change banner, the
 * deleted list (Recover: bytes equal, MEMORY.md line back), the diff of a rewritten file, the
 * tier table as of before the run; then "Recover all" puts the rest back.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
// Not the fixtures' `test`: its baseURL would start a second server with a generated root.
import { shot } from './fixtures';
import { PROJECT, type RunningServer, startServer, tempDir } from './server';
import { claudeFolder } from '../lib/service/fixtures/claude-folder';

const BEFORE = '2026-11-21T12:00:00Z';
const NOW = '2026-11-22T12:00:00Z';
const SECRETS = ['Hunter1-not-real', 'Hunter2-not-real', 'FAKEfake0001NOTAREALKEY', 'Tr0ub4dor-not-real'];
const REWRITTEN = ['reference_nas.md', 'feedback_tabs.md'];

let server: RunningServer;
let dir: string;
let root: string;
let originals: Record<string, Buffer>;
let deleted: string[];
let indexBefore: string;

test.beforeAll(async () => {
  dir = tempDir();
  root = path.join(dir, 'root');
  for (const [rel, bytes] of Object.entries(claudeFolder())) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), bytes);
  }
  const env = {
    ...process.env,
    MEMTRUST_ROOT: root,
    MEMTRUST_DB: path.join(dir, 'index.sqlite'),
    MEMTRUST_MACHINE: 'e2e-machine',
    MEMTRUST_VERSIONS: 'on',
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    OWNER_EMAILS: 'owner@example.com',
    OWNER_HOME_USER: 'owner',
  };
  // Indexed a day before the run, so "as of" has a time when every file was there.
  const r = spawnSync(process.execPath, [path.join(PROJECT, 'lib/cli/memtrust.cjs'), 'scan'], {
    env: { ...env, MEMTRUST_NOW: BEFORE },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  const files = fs
    .readdirSync(root)
    .filter((f) => f.endsWith('.md') && f !== 'MEMORY.md')
    .sort();
  originals = Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(root, f))]));
  // The consolidation-like run: eight deleted, two merged into, their index lines dropped.
  deleted = files.filter((f) => !REWRITTEN.includes(f)).slice(0, 8);
  for (const f of deleted) fs.rmSync(path.join(root, f));
  for (const f of REWRITTEN)
    fs.writeFileSync(path.join(root, f), originals[f]!.toString().replace(/\n$/, '\nMerged from two notes.\n'));
  const index = fs.readFileSync(path.join(root, 'MEMORY.md'), 'utf8');
  indexBefore = index;
  fs.writeFileSync(
    path.join(root, 'MEMORY.md'),
    index
      .split('\n')
      .filter((l) => !deleted.some((d) => l.includes(`(${d})`)))
      .join('\n'),
  );
  server = await startServer({ root, dir, now: NOW, env: { MEMTRUST_VERSIONS: 'on' } });
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * At 390 px the page must not scroll sideways. The screenshots at 1400 and 390 px (e2e/screenshots/)
 * are taken with MEMTRUST_E2E_SHOTS=1 only: full-page shots would double this test's time in CI.
 */
async function narrow(page: Page, name: string): Promise<void> {
  const shots = process.env.MEMTRUST_E2E_SHOTS === '1';
  for (const width of shots ? [1400, 390] : [390]) {
    await page.setViewportSize({ width, height: 900 });
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(over, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    if (shots) await page.screenshot({ path: shot(`${name}-${width}`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('deleted and rewritten outside memtrust: banner, Recover, diff, as of, Recover all', async ({ page }) => {
  const url = (p: string) => `${server.baseURL}${p}`;
  await page.goto(url('/'));
  const banner = page.getByRole('alert').filter({ hasText: 'outside memtrust' });
  await expect(banner).toContainText('8 memories deleted and 2 rewritten outside memtrust');

  // The deleted list, from the banner.
  await banner.getByRole('link', { name: 'See the deleted memories' }).click();
  await expect(page).toHaveURL(/\/deleted$/);
  const list = page.getByRole('list', { name: 'Deleted memories' });
  await expect(list.getByRole('listitem')).toHaveCount(8);
  await expect(list).toContainText('by outside');
  await narrow(page, 'versions-deleted');

  // A memory MEMORY.md listed comes back with its line; one it never listed would get none.
  const listed = deleted.filter((d) => indexBefore.includes(`](${d})`));
  expect(listed.length).toBeLessThan(deleted.length);
  const one = listed[0]!;
  await list.getByRole('button', { name: `Recover ${one}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'recovered 1 file and 1 MEMORY.md line' })).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(7);
  expect(fs.readFileSync(path.join(root, one)).equals(originals[one]!)).toBe(true);
  expect(fs.readFileSync(path.join(root, 'MEMORY.md'), 'utf8')).toContain(`](${one})`);
  await expect(page.getByRole('button', { name: 'Undo batch' })).toBeVisible();

  // The diff of a rewritten file: the merged line added; masked values, never a credential.
  // (The audit page's actor filter is covered by lib/service/versions/versions-scan.test.ts.)
  const href = await list.getByRole('link').first().getAttribute('href');
  const source = decodeURIComponent(href!).split('/memories/')[1]!.split(':')[0];
  await page.goto(url(`/memories/${encodeURIComponent(`${source}:reference_nas.md`)}/versions`));
  await expect(page.getByRole('heading', { name: 'Versions of reference_nas.md' })).toBeVisible();
  const diff = page.getByRole('list', { name: 'Line diff' });
  await expect(diff.locator('[data-op="added"]')).toHaveText([/added: Merged from two notes\.$/]);
  await expect(diff.locator('[data-op="removed"]')).toHaveCount(0);
  await expect(page.getByTestId('version')).toHaveCount(2);
  const html = await page.content();
  for (const s of SECRETS) expect(html, s).not.toContain(s);
  await narrow(page, 'versions-diff');
  // The memory's page lists its versions too (time, sha256, size, who) and links back here.
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'reference_nas.md' }).click();
  const recent = page.getByRole('list', { name: 'Recent versions' });
  await expect(recent.getByRole('listitem')).toHaveCount(2);
  await expect(recent.getByRole('listitem').first()).toContainText(
    /2026-11-22 12:00 UTC\s*[0-9a-f]{12}\s*372 B\s*outside\s*now/,
  );
  await narrow(page, 'versions-memory');

  // The tier table as of before the run: a past view, read-only, kept in the URL.
  await page.goto(url('/tiers/all'));
  await expect(page.getByRole('link', { name: '7 deleted outside memtrust →' })).toBeVisible();
  await narrow(page, 'versions-tier');
  await page.getByLabel('As of (UTC)').fill('2026-11-21T18:00');
  await page.getByRole('button', { name: 'Show as of' }).click();
  // The form is a GET: the time is in the URL, so a reload or a shared link shows the same past view.
  await expect(page).toHaveURL(/asOf=2026-11-21T18%3A00/);
  await expect(page.getByTestId('past-view')).toContainText('Past view, read-only');
  for (const f of deleted.filter((d) => d !== one))
    await expect(page.getByTestId(`asof-${f}`)).toContainText('deleted since');
  await expect(page.getByTestId(`asof-${one}`)).toContainText('unchanged since');
  await expect(page.getByRole('button', { name: /Recover|Promote|Demote/ })).toHaveCount(0);
  await narrow(page, 'versions-as-of');

  // "Recover all" from the banner: the seven still gone and the two rewritten, one batch.
  await page.goto(url('/'));
  await narrow(page, 'versions-banner');
  await page.getByRole('button', { name: 'Recover all' }).click();
  const lines = listed.length - 1;
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `recovered 9 files and ${lines} MEMORY.md ${lines === 1 ? 'line' : 'lines'}` }),
  ).toBeVisible();
  // MEMORY.md as it was before the run, every line in its place.
  expect(fs.readFileSync(path.join(root, 'MEMORY.md'), 'utf8')).toBe(indexBefore);
  await expect(page.getByRole('alert').filter({ hasText: 'outside memtrust' })).toHaveCount(0);
  for (const f of [...deleted, ...REWRITTEN.filter((f) => f !== 'reference_nas.md')])
    expect(fs.readFileSync(path.join(root, f)).equals(originals[f]!), f).toBe(true);
});
