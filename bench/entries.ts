/**
 * The dashboard's and the report's queries over the one index table (migration 0016,
 * docs/records.md "The index") beside a baseline commit's over its two tables, side by side
 * in one process, on the same 100,000-memory root (docs/performance.md, "One index table").
 *
 *   npx tsx bench/entries.ts [--n 100000] [--baseline 1815890] [--reps 7]
 *
 * Needs bench/list.ts run once with the same --n and --baseline: its today's index
 * (bench/.out/list-n<N>/index.sqlite) and the baseline's (index-<commit>.sqlite, built by
 * the baseline CLI), and the baseline's sources (bench/.out/baseline-list-<commit>/). Each
 * query runs alternately on the baseline's code and index and on today's, read-only, on a
 * connection of its own (the views are memoised per connection); the table gives the
 * medians and whether both answered the same. Exit 0 always.
 */
import path from 'node:path';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { BENCH_NOW, PROJECT_DIR, flags, fmtMs, intFlag, machineLine, median, table } from './common';
import { checkCommit } from './baseline';

const f = flags(process.argv.slice(2), { n: '100000', baseline: '1815890', reps: '7' });
const N = intFlag(f, 'n');
const REPS = intFlag(f, 'reps');
const COMMIT = checkCommit(f.baseline!);
const OUT = path.join(PROJECT_DIR, 'bench', '.out');
const base = path.join(OUT, `baseline-list-${COMMIT}`);
const dbs = {
  old: path.join(OUT, `list-n${N}`, `index-${COMMIT}.sqlite`),
  now: path.join(OUT, `list-n${N}`, 'index.sqlite'),
};

type Mods = {
  inbox: typeof import('../db/queries/inbox');
  memories: typeof import('../db/queries/memories');
  overview: typeof import('../db/queries/overview');
  charts: typeof import('../db/queries/charts');
  report: typeof import('../lib/report/queries');
};

async function load(dir: string): Promise<Mods> {
  const at = (rel: string) => import(path.join(dir, rel));
  return {
    inbox: await at('db/queries/inbox.ts'),
    memories: await at('db/queries/memories.ts'),
    overview: await at('db/queries/overview.ts'),
    charts: await at('db/queries/charts.ts'),
    report: await at('lib/report/queries.ts'),
  };
}

/** The columns `memtrust list --json` asks for (lib/cli/commands/list-cmd.ts). */
const JSON_FIELDS = ['key', 'id', 'source', 'relPath', 'filename', 'location', 'tier', 'sha256'] as const;

async function main(): Promise<void> {
  for (const file of [...Object.values(dbs), base])
    if (!fs.existsSync(file)) {
      process.stderr.write(`missing ${file}: run \`npx tsx bench/list.ts --n ${N} --baseline ${COMMIT}\` first\n`);
      process.exit(0);
    }
  console.log(`bench/entries — ${N} memories · baseline ${COMMIT} · ${machineLine()}`);
  const mods = { old: await load(base), now: await load(PROJECT_DIR) };
  const t0 = new Date(BENCH_NOW).getTime();
  const cases: [string, (m: Mods, s: Database.Database, i: number) => unknown][] = [
    ['inbox: needs a decision, page i', (m, s, i) => m.inbox.listInbox(s, { offset: 50 * i }, new Date(t0))],
    [
      'inbox: any, by created',
      (m, s, i) => m.inbox.listInbox(s, { queue: 'any', sort: 'created', offset: 50 * i }, new Date(t0)),
    ],
    ['inbox total (first hour)', (m, s, i) => m.inbox.inboxTotal(s, { queue: 'inbox' }, new Date(t0 + i * 60_000))],
    [
      'tier tab: verified',
      (m, s, i) => m.memories.listMemoriesAndRecords(s, { tier: 'verified', offset: 50 * i }, [], new Date(t0)),
    ],
    ['tier tab: search', (m, s, i) => m.memories.listMemories(s, { q: 'pipeline', offset: 50 * i }, new Date(t0))],
    ['overview counts', (m, s, i) => m.overview.overview(s, new Date(t0 + i * 60_000))],
    ['charts', (m, s, i) => m.charts.chartsData(s, {}, new Date(t0 + i * 60_000))],
    [
      'memtrust list --json rows: all',
      (m, s, i) =>
        m.memories.listRows(s, { sort: 'name', limit: 1_000_000 - i }, new Date(t0), JSON_FIELDS).rows.length,
    ],
    [
      'memtrust list rows: review queue',
      (m, s, i) =>
        m.memories.listRows(s, { queue: 'review', limit: 200 + i }, new Date(t0), ['tier', 'relPath', 'name']),
    ],
    ['report tier counts', (m, s, i) => m.report.tierCounts(s, {}, new Date(t0 + i * 60_000), [])],
  ];
  const rows: string[][] = [['query', `baseline ${COMMIT}`, 'today', 'same answer']];
  for (const [name, fn] of cases) {
    const times = { old: [] as number[], now: [] as number[] };
    let same = true;
    for (let i = 0; i < REPS; i++) {
      const out: Record<string, string> = {};
      for (const k of ['old', 'now'] as const) {
        // A connection of its own each run: the views' memo lives per connection.
        const sqlite = new Database(dbs[k], { readonly: true });
        const t = performance.now();
        const r = fn(mods[k], sqlite, i);
        times[k].push(performance.now() - t);
        out[k] = JSON.stringify(r);
        sqlite.close();
      }
      same &&= out.old === out.now;
    }
    rows.push([name, fmtMs(median(times.old)), fmtMs(median(times.now)), same ? 'yes' : 'NO']);
  }
  console.log(table(rows));
  console.log(`\nmedians of ${REPS} runs, alternating; each run a query not answered before (a new page or minute)`);
}

void main();
