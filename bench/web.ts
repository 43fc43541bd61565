/**
 * bench/web: the dashboard at N memories (default 100,000), measured against the
 * real production server (the request guard of docs/security.md in front of Next), side by side with a
 * floor — a static file served by the same server.
 *
 *   npx tsx bench/web.ts [--n 100000] [--runs 40]
 *
 * Prints warm server time (p50/p95) of the overview and of the first page of a tier
 * table (target p95 < 150 ms), time until the tier page is interactive in headless
 * Chromium (target < 2 s) and the JavaScript shipped to that page (KB).
 * Needs a build (`npx next build`) and Chromium; exits 0 always.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { generateCorpus, writeCorpus } from '../lib/demo';
import { loadConfig } from '../lib/config';
import { createContext } from '../lib/service/context';
import { scan } from '../lib/service/index/scan-service';
import { closeDb } from '../db/client';
import { startServer } from '../e2e/server';
import { BENCH_NOW, flags, intFlag, percentile, table, verdict, fmtMs, machineLine } from './common';

const f = flags(process.argv.slice(2), { n: '100000', runs: '40' });
const n = intFlag(f, 'n');
const runs = intFlag(f, 'runs');
const out = path.join(__dirname, '.out', `web-${n}`);
const root = path.join(out, 'root');
const db = path.join(out, 'index.sqlite');

async function timed(url: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return performance.now() - t;
}

async function series(url: string): Promise<number[]> {
  for (let i = 0; i < 5; i++) await timed(url); // warm: compiled routes, page cache, SQLite cache
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) xs.push(await timed(url));
  return xs;
}

async function main(): Promise<void> {
  console.log(`bench/web — ${n.toLocaleString('en-US')} memories · ${machineLine()}`);
  if (!fs.existsSync(path.join(root, '.complete'))) {
    fs.rmSync(out, { recursive: true, force: true });
    const t = performance.now();
    writeCorpus(root, generateCorpus({ n, seed: 1, now: new Date(BENCH_NOW) }));
    fs.writeFileSync(path.join(root, '.complete'), '');
    console.log(`generated corpus in ${fmtMs(performance.now() - t)}`);
  }
  const env = {
    MEMTRUST_ROOT: root,
    MEMTRUST_DB: db,
    MEMTRUST_NOW: BENCH_NOW,
    MEMTRUST_MACHINE: 'bench',
    XDG_CONFIG_HOME: path.join(out, 'cfg'),
  };
  const t0 = performance.now();
  const ctx = createContext(loadConfig({ env }), env);
  scan(ctx);
  closeDb(db);
  console.log(`index ready in ${fmtMs(performance.now() - t0)}`);

  const server = await startServer({
    root,
    dir: out,
    now: BENCH_NOW,
    env: { MEMTRUST_DB: db, MEMTRUST_MACHINE: 'bench' },
  });
  try {
    const base = server.baseURL;
    const floor = await series(`${base}/icon.svg`);
    const overview = await series(`${base}/`);
    const tier = await series(`${base}/tiers/verified`);
    const search = await series(`${base}/tiers/all?q=pipeline&type=feedback`);

    const browser = await chromium.launch({
      executablePath: fs.existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const interactive: number[] = [];
    let jsKb = 0;
    for (let i = 0; i < 5; i++) {
      const page = await (await browser.newContext()).newPage();
      const t = performance.now();
      await page.goto(`${base}/tiers/verified`);
      // Interactive = the filter form reacts: hydration done and a click is handled.
      await page.getByRole('link', { name: /Name/ }).first().waitFor();
      await page.waitForFunction(() => document.readyState === 'complete');
      interactive.push(performance.now() - t);
      jsKb = await page.evaluate(
        () =>
          performance
            .getEntriesByType('resource')
            .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'script' || e.name.endsWith('.js'))
            .reduce((s, e) => s + (e as PerformanceResourceTiming).encodedBodySize, 0) / 1024,
      );
      await page.context().close();
    }
    await browser.close();

    const p = (xs: number[], q: number) => fmtMs(percentile(xs, q));
    console.log(
      table([
        ['measure', 'p50', 'p95', 'floor p95 (static file)', 'target', ''],
        [
          'overview, warm server time',
          p(overview, 50),
          p(overview, 95),
          p(floor, 95),
          'p95 < 150 ms',
          verdict(percentile(overview, 95) < 150),
        ],
        [
          'tier table first page',
          p(tier, 50),
          p(tier, 95),
          p(floor, 95),
          'p95 < 150 ms',
          verdict(percentile(tier, 95) < 150),
        ],
        ['search + filter page', p(search, 50), p(search, 95), p(floor, 95), '(info)', ''],
        [
          'tier page interactive (Chromium)',
          p(interactive, 50),
          p(interactive, 95),
          '',
          '< 2 s',
          verdict(percentile(interactive, 50) < 2000),
        ],
        ['JavaScript shipped to the tier page', `${jsKb.toFixed(0)} KB`, '', '', '(info)', ''],
      ]),
    );
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(`bench/web failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(0);
});
