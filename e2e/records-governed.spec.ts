/**
 * A governed store (codeclone's engineering memory) in the records pages: read-only,
 * codeclone's own command lines to copy, the store's bytes (and its -wal) never
 * touched by a page, and the view following the store when codeclone writes it.
 * The store is built from the published schema by lib/sources/governed/test-fixtures.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, shot } from './fixtures';
import { buildGovernedFixture, type Fixture } from '../lib/sources/governed/test-fixtures';
import { STORE_REL } from '../lib/sources/governed/types';

test.use({ rootFiles: {}, rootSetup: { setup: (root) => void buildGovernedFixture(root) } });

/** sha256, size, mtime (ns) and inode of every file in the store's folder: equal states mean nothing was written. */
function storeState(root: string): Record<string, string> {
  const dir = path.dirname(path.join(root, STORE_REL));
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const st = fs.statSync(path.join(dir, name), { bigint: true });
    const sha = crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(dir, name)))
      .digest('hex');
    out[name] = `${sha} size=${st.size} mtime=${st.mtimeNs} ino=${st.ino}`;
  }
  return out;
}

function storeBytes(root: string): string {
  const store = path.join(root, STORE_REL);
  return ['', '-wal', '-shm']
    .map((ext) =>
      fs.existsSync(store + ext)
        ? `${ext}:${crypto
            .createHash('sha256')
            .update(fs.readFileSync(store + ext))
            .digest('hex')}`
        : `${ext}:absent`,
    )
    .join(' ');
}

test('a governed draft is read-only: codeclone commands to copy, every action refused, the store never written', async ({
  page,
  server,
}) => {
  const before = storeBytes(server.root);
  await page.goto('/records?layout=governed');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await page.getByLabel('Search').fill('Fixture note draft:');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody tr [data-flag="pending-human"]')).toBeVisible();
  await page.locator('tbody tr a').first().click();
  await expect(page.getByRole('note').filter({ hasText: 'codeclone owns this store' })).toBeVisible();
  await expect(page.locator('[data-command]').first()).toContainText('codeclone');
  for (const b of await page.getByRole('group', { name: 'Actions' }).getByRole('button').all())
    await expect(b).toBeDisabled();
  await expect(page.getByRole('button', { name: /Copy the .* command/ }).first()).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
    [],
  );
  await page.screenshot({ path: shot('records-governed-detail'), fullPage: true });
  await page.goto('/records/conflicts');
  await expect(page.locator('h1')).toHaveText('Contradictions');
  expect(storeBytes(server.root)).toBe(before);
});

test('the governed view follows the store when codeclone writes it, without a reload', async ({ page, server }) => {
  await page.goto('/records?layout=governed&q=written+by+codeclone+just+now');
  await expect(page.getByText('No records match these filters')).toBeVisible();
  const db = new Database(path.join(server.root, STORE_REL));
  db.exec(`CREATE TEMP TABLE t AS SELECT * FROM memory_records WHERE status = 'draft' LIMIT 1;
    UPDATE t SET id = 'mem_e2e_live_0001', identity_key = 'fixture:e2e-live', statement = 'A note written by codeclone just now.';
    INSERT INTO memory_records SELECT * FROM t;`);
  db.close();
  await expect(page.locator('tbody tr')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByText('A note written by codeclone just now.')).toBeVisible();
});

test.describe('a live governed store (codeclone running, WAL)', () => {
  let live: Fixture | null = null;
  test.use({
    rootSetup: {
      setup: (root) => {
        live = buildGovernedFixture(root, { wal: 'live' });
      },
    },
  });
  test.afterEach(() => {
    live?.writer?.close();
    live = null;
  });

  test('every page leaves the store, its -wal and -shm untouched', async ({ page, server }) => {
    const f = live!;
    const before = storeState(server.root);
    expect(Object.keys(before)).toEqual([
      'engineering_memory.sqlite3',
      'engineering_memory.sqlite3-shm',
      'engineering_memory.sqlite3-wal',
    ]);
    const visit = async (url: string, heading: string | RegExp) => {
      const res = await page.goto(url);
      expect(res?.status(), url).toBeLessThan(400);
      await expect(page.locator('h1').first(), url).toContainText(heading);
      await expect(page.getByText('Application error')).toHaveCount(0);
      expect(storeState(server.root), url).toEqual(before);
    };
    await visit('/', /./);
    await visit('/records', 'Records');
    await visit(`/records?q=${f.ids.draft}`, 'Records');
    const link = page.locator(`tbody tr a[href$="${encodeURIComponent(`:${f.ids.draft}`)}"]`);
    await expect(link).toHaveCount(1);
    const href = (await link.getAttribute('href'))!;
    await visit(href, /./);
    await expect(page.locator('[data-command]').first()).toContainText(
      `codeclone memory approve --root ${server.root} --i-know-what-im-doing ${f.ids.draft}`,
    );
    await visit('/records/conflicts', 'Contradictions');
    await visit('/records/staleness', /./);
    await visit('/review', /./);
    await visit('/audit', /./);
    await visit('/context', /./);
    await visit('/settings', /./);
    // codeclone's connection saw nothing change either.
    expect((f.writer!.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n).toBe(f.count);
  });
});

/** Stores memtrust cannot read, on /records: the problem named calmly beside the page, nothing written. */
let holder: Database.Database | null = null;
test.afterEach(() => {
  holder?.close();
  holder = null;
});
for (const bad of [
  {
    name: 'a store locked by a writer mid-transaction',
    setup: (root: string) => {
      buildGovernedFixture(root);
      // Another connection holds an exclusive lock with a change spilled into the file (rollback journal).
      holder = new Database(path.join(root, STORE_REL));
      holder.pragma('journal_mode = DELETE');
      holder.pragma('cache_size = 2');
      holder.exec('BEGIN EXCLUSIVE');
      holder.prepare("UPDATE memory_records SET statement = 'half-written ' || hex(randomblob(200))").run();
    },
    shown: 'locked: another process is in a write transaction (hot -journal); try again when it finishes',
    records: 0,
  },
  {
    name: 'a corrupt file',
    setup: (root: string) => {
      fs.mkdirSync(path.join(root, path.dirname(STORE_REL)), { recursive: true });
      fs.writeFileSync(path.join(root, STORE_REL), 'not a database, only text\n'.repeat(200));
    },
    shown: 'not a readable SQLite database (file is not a database)',
    records: 0,
  },
  {
    name: 'a missing table',
    setup: (root: string) => {
      buildGovernedFixture(root);
      const w = new Database(path.join(root, STORE_REL));
      w.exec('DROP TABLE memory_links');
      w.close();
    },
    shown: 'no table memory_links: not a codeclone engineering-memory store',
    records: 0,
  },
  {
    name: 'a schema newer than the one tested',
    setup: (root: string) => void buildGovernedFixture(root, { schemaVersion: '1.9' }),
    shown: 'schema version 1.9 is newer than the 1.7 memtrust was tested with; read anyway',
    records: 78,
  },
]) {
  test.describe(`/records over ${bad.name}`, () => {
    test.use({ rootSetup: { setup: bad.setup } });
    test(`names the problem calmly and writes nothing`, async ({ page, server }) => {
      const before = storeState(server.root);
      const res = await page.goto('/records?layout=governed');
      expect(res?.status()).toBe(200);
      await expect(page.locator('h1')).toHaveText('Records');
      const note = page.getByRole('region', { name: 'Read problems' }).getByRole('note');
      await expect(note).toContainText(bad.shown);
      await expect(note).toContainText(bad.records ? 'read, with a warning' : '1 problem while reading');
      if (!bad.records) await expect(note).toContainText(`${STORE_REL} — `);
      await expect(page.getByText('Application error')).toHaveCount(0);
      await expect(page.locator('body')).not.toContainText(/\n\s+at |SqliteError|TypeError/);
      if (bad.records) await expect(page.locator('tbody tr').first()).toBeVisible();
      else await expect(page.locator('tbody tr')).toHaveCount(0);
      await page.screenshot({ path: shot(`records-governed-${bad.name.replace(/\W+/g, '-')}`), fullPage: true });
      await page.goto('/');
      await page.goto('/settings');
      expect(storeState(server.root)).toEqual(before);
    });
  });
}
