/**
 * bench/inbox: the review inbox at N memories (default 100,000), measured against the
 * real production server, beside a floor — a static file served by the same server.
 *
 *   npx tsx bench/inbox.ts [--n 100000] [--runs 20]
 *
 * A "filter change" is a query the server has not answered since the index last
 * changed, so the memoised views cannot help: every timed request of a filter asks
 * for a different page of it (page 1, 2, 3, …), which recomputes both the rows and
 * the count. Target: p95 < 300 ms per filter change. Needs a build (`npx next build`);
 * exits 0 always. Shares the corpus of bench/web.ts (bench/.out/web-N).
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateCorpus, writeCorpus } from '../lib/demo';
import { loadConfig } from '../lib/core/config';
import { createContext } from '../lib/service/context';
import { scan } from '../lib/service/index/scan-service';
import { closeDb } from '../db/client';
import { startServer } from '../e2e/server';
import { BENCH_NOW, flags, intFlag, percentile, table, verdict, fmtMs, machineLine } from './common';

const f = flags(process.argv.slice(2), { n: '100000', runs: '20' });
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

/** Each run a page not asked for before: a cold query, as after a filter change. */
async function coldSeries(url: (page: number) => string): Promise<number[]> {
  await timed(url(10_000)); // route compiled, facets memoised (they do not change with filters)
  const xs: number[] = [];
  for (let i = 1; i <= runs; i++) xs.push(await timed(url(i)));
  return xs;
}

async function warmSeries(url: string): Promise<number[]> {
  for (let i = 0; i < 5; i++) await timed(url);
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) xs.push(await timed(url));
  return xs;
}

async function main(): Promise<void> {
  console.log(`bench/inbox — ${n.toLocaleString('en-US')} memories · ${machineLine()}`);
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
  const rows = (ctx.handle.sqlite.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n;
  const findings = (ctx.handle.sqlite.prepare('SELECT count(*) AS n FROM findings').get() as { n: number }).n;
  closeDb(db);
  console.log(
    `index ready in ${fmtMs(performance.now() - t0)} (${rows.toLocaleString('en-US')} memories, ${findings.toLocaleString('en-US')} findings)`,
  );

  const server = await startServer({
    root,
    dir: out,
    now: BENCH_NOW,
    env: { MEMTRUST_DB: db, MEMTRUST_MACHINE: 'bench' },
  });
  try {
    const base = server.baseURL;
    const filters: [string, string][] = [
      ['default inbox (needs a decision)', ''],
      ['everything, sorted by name', 'queue=any'],
      ['finding class: credential', 'queue=any&cls=credential'],
      ['finding class: personal, by findings desc', 'queue=any&cls=personal&sort=findings&dir=desc'],
      ['finding kind: private address', 'queue=any&kind=secret.private-ip'],
      ['type + tier + age 91+', 'queue=any&type=feedback&tier=verified&age=91%2B'],
      ['layout + queue: stale verified', 'layout=trust-root&queue=stale'],
      ['quarantine day 31–90, by age', 'queue=quarantine-audit&sort=age'],
      ['search + type', 'queue=any&q=pipeline&type=feedback'],
    ];
    const floor = await warmSeries(`${base}/icon.svg`);
    const rowsOut: string[][] = [
      ['filter change (cold query, server time)', 'p50', 'p95', 'floor p95 (static file)', 'target', ''],
    ];
    let worst = 0;
    for (const [label, qs] of filters) {
      const xs = await coldSeries((page) => `${base}/review?${qs}${qs ? '&' : ''}page=${page}`);
      worst = Math.max(worst, percentile(xs, 95));
      rowsOut.push([
        label,
        fmtMs(percentile(xs, 50)),
        fmtMs(percentile(xs, 95)),
        fmtMs(percentile(floor, 95)),
        'p95 < 300 ms',
        verdict(percentile(xs, 95) < 300),
      ]);
    }
    const sel = await warmSeries(`${base}/review?queue=any`);
    rowsOut.push([
      'same view again (memoised)',
      fmtMs(percentile(sel, 50)),
      fmtMs(percentile(sel, 95)),
      fmtMs(percentile(floor, 95)),
      '(info)',
      '',
    ]);
    console.log(table(rowsOut));
    console.log(`worst filter-change p95: ${fmtMs(worst)} — ${verdict(worst < 300)}`);
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(`bench/inbox failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(0);
});
