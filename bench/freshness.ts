/**
 * CLI listings with and without a watcher (docs/freshness.md), beside the stat floor.
 *
 *   npx tsx bench/freshness.ts [--n 10000,100000] [--reps 5]
 *
 * Per size: a generated trust-model root (cached in bench/.out/fresh-n<N>/, indexed once),
 * then in one run:
 *   floor  readdir + lstat of every memory file in this process (best of 3): what every
 *          command pays first when it re-checks the files itself;
 *   start  `memtrust --help` (process start-up and the CLI bundle);
 *   each listing (the default `list`, first 200 rows; `list --queue review --json`, every
 *   row) run --reps times with no watcher, then --reps times with `memtrust watch` running
 *   (the command asks it and skips its rescan when it answers "clean"); medians.
 * Target (issue 16): every CLI listing under 500 ms at 100,000 memories.
 * Exit 0 always; PASS/MISS per row.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generateCorpus, writeCorpus, DEFAULT_OWNER_EMAIL } from '../lib/demo';
import { loadConfig } from '../lib/core/config';
import { createContext } from '../lib/service/context';
import { indexVouched } from '../lib/service/index/ask-monitor';
import { closeDb } from '../db/client';
import {
  BENCH_NOW,
  BENCH_SEED,
  CLI,
  PROJECT_DIR,
  cliEnv,
  flags,
  fmtMs,
  freshRoot,
  intFlag,
  machineLine,
  median,
  note,
  runCli,
  statFloor,
  table,
  verdict,
} from './common';

const f = flags(process.argv.slice(2), { n: '10000,100000', reps: '5' });
const sizes = f.n!.split(',').map(Number);
const REPS = intFlag(f, 'reps');
const TARGET_MS = 500;

function ensureRoot(n: number): { root: string; env: NodeJS.ProcessEnv; db: string; scratch: string } {
  const { out, root, db, env: vars } = freshRoot(n);
  const env = cliEnv(vars);
  if (!fs.existsSync(path.join(out, '.complete'))) {
    fs.rmSync(out, { recursive: true, force: true });
    note(`generating ${n} memories into ${root} (cached for later runs)…`);
    writeCorpus(
      root,
      generateCorpus({ n, seed: BENCH_SEED, now: new Date(BENCH_NOW), ownerEmail: DEFAULT_OWNER_EMAIL }),
    );
    fs.writeFileSync(path.join(out, '.complete'), '');
  }
  const scratch = path.join(out, 'scratch');
  fs.mkdirSync(scratch, { recursive: true });
  const first = runCli(['scan'], env, scratch);
  if (first.status !== 0) throw new Error(`scan failed: ${first.stderr}`);
  note(`index ready (${fmtMs(first.ms)})`);
  return { root, env, db, scratch };
}

const LISTINGS: [string, string[]][] = [
  ['list (first 200 rows)', ['list']],
  ['list --queue review --json (every row)', ['list', '--queue', 'review', '--json']],
];

async function measure(n: number): Promise<string[][]> {
  const { root, env, db, scratch } = ensureRoot(n);
  const floor = statFloor(root);
  const start = median(Array.from({ length: REPS }, () => runCli(['--help'], env, scratch).ms));
  const times = (args: string[]) =>
    median(
      Array.from({ length: REPS }, () => {
        const r = runCli(args, env, scratch);
        if (r.status !== 0) throw new Error(`memtrust ${args.join(' ')}: ${r.stderr}`);
        return r.ms;
      }),
    );
  const without = LISTINGS.map(([, args]) => times(args));

  const watcher = spawn(process.execPath, [CLI, 'watch'], { cwd: PROJECT_DIR, env, stdio: 'ignore' });
  const probeEnv = env as Record<string, string>;
  const ctx = createContext(loadConfig({ env: probeEnv }), probeEnv);
  const deadline = Date.now() + 120_000;
  while (!indexVouched(db, ctx.sources)) {
    if (Date.now() > deadline) throw new Error('the watcher never answered clean');
    await new Promise((r) => setTimeout(r, 100));
  }
  closeDb(db);
  const withWatcher = LISTINGS.map(([, args]) => times(args));
  watcher.kill('SIGTERM');
  await new Promise((r) => watcher.once('exit', r));

  const rows: string[][] = [
    [`${n.toLocaleString('en-US')}: stat floor (readdir + lstat)`, fmtMs(floor), '', ''],
    [`${n.toLocaleString('en-US')}: CLI start-up (--help)`, fmtMs(start), '', ''],
  ];
  LISTINGS.forEach(([label], i) => {
    rows.push([
      `${n.toLocaleString('en-US')}: ${label}, no watcher`,
      fmtMs(without[i]!),
      '< 500 ms',
      verdict(without[i]! < TARGET_MS),
    ]);
    rows.push([
      `${n.toLocaleString('en-US')}: ${label}, watcher running`,
      fmtMs(withWatcher[i]!),
      '< 500 ms',
      verdict(withWatcher[i]! < TARGET_MS),
    ]);
  });
  return rows;
}

async function main(): Promise<void> {
  console.log(`bench/freshness — ${machineLine()}`);
  console.log(`medians of ${REPS} runs; floors best of 3; page cache warm\n`);
  const rows: string[][] = [['measurement', 'value', 'target', 'result']];
  for (const n of sizes) rows.push(...(await measure(n)));
  console.log(table(rows));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
