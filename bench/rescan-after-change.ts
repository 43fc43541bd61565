/**
 * The dashboard's rescan after one memory file changed (docs/freshness.md, "Targeted
 * rescans"): the watcher's targeted rescan (no folder read, only the file the events named
 * lstat'ed) beside a rescan that lists and lstat's every file (the same keeper told to list
 * everything), alternating on the same index in one process, beside the stat floor.
 *
 *   npx tsx bench/rescan-after-change.ts [--n 100000] [--reps 7]
 *
 * Uses bench/freshness.ts's cached root of N demo memories (bench/.out/fresh-n<N>); each rep
 * appends a line to one memory file (restored at the end). Exit 0 always; PASS/MISS against
 * 2× the stat floor (the no-change rescan's target) and 500 ms.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../lib/core/config';
import { createContext } from '../lib/service/context';
import { keepFresh } from '../lib/service/index/keep-fresh';
import type { ScanStats } from '../lib/service/index/scan';
import { closeDb } from '../db/client';
import { flags, fmtMs, freshRoot, intFlag, machineLine, median, note, statFloor, table, verdict } from './common';

const f = flags(process.argv.slice(2), { n: '100000', reps: '7' });
const N = intFlag(f, 'n');
const REPS = intFlag(f, 'reps');

const { out, root, env } = freshRoot(N);
if (!fs.existsSync(path.join(out, '.complete'))) {
  process.stdout.write(`no cached root at ${out}: run npx tsx bench/freshness.ts --n ${N} first\n`);
  process.exit(0);
}
Object.assign(process.env, env);

const settle = () => new Promise((r) => setTimeout(r, 100));

async function main(): Promise<void> {
  const ctx = createContext(loadConfig({ env }), env);
  const scans: ScanStats[] = [];
  const keeper = keepFresh(ctx, { onScan: (s) => scans.push(s) });
  keeper.fresh(); // the first scan lists everything and keeps the listing
  const target = path.join(root, 'memories', fs.readdirSync(path.join(root, 'memories')).sort()[11]!);
  const original = fs.readFileSync(target);
  const stat = fs.statSync(target);
  const floor = statFloor(root);
  const targeted: number[] = [];
  const full: number[] = [];
  let reused = 0;
  try {
    for (let rep = 0; rep < REPS; rep++) {
      for (const mode of ['targeted', 'full'] as const) {
        await settle();
        fs.appendFileSync(target, `\nA line added by the bench (${mode} ${rep}).\n`);
        await settle();
        if (mode === 'full') keeper.markDirty(); // told to list everything
        const t = performance.now();
        keeper.fresh();
        (mode === 'targeted' ? targeted : full).push(performance.now() - t);
        if (mode === 'targeted') reused = scans.at(-1)?.reused ?? 0;
      }
    }
  } finally {
    fs.writeFileSync(target, original);
    fs.utimesSync(target, stat.atime, stat.mtime);
    await settle();
    keeper.markDirty();
    keeper.fresh();
    keeper.close();
    closeDb(env.MEMTRUST_DB!);
  }
  const t = median(targeted);
  const u = median(full);
  const lines = [
    `bench/rescan-after-change — ${N.toLocaleString('en-US')} memories · ${machineLine()}`,
    `medians of ${REPS} reps, alternating; one memory file edited before each; stat floor (readdir + lstat of every file, best of 3) ${fmtMs(floor)}`,
    `files taken from the kept listing in the targeted rescan: ${reused.toLocaleString('en-US')}`,
    '',
    table([
      ['rescan after one edit', 'median', 'runs', '÷ stat floor', '< 500 ms', '≤ 2× floor'],
      [
        "every file lstat'ed (before)",
        fmtMs(u),
        full.map((x) => x.toFixed(0)).join(' '),
        `${(u / floor).toFixed(2)}×`,
        verdict(u < 500),
        verdict(u <= 2 * floor),
      ],
      [
        'targeted (after)',
        fmtMs(t),
        targeted.map((x) => x.toFixed(0)).join(' '),
        `${(t / floor).toFixed(2)}×`,
        verdict(t < 500),
        verdict(t <= 2 * floor),
      ],
    ]),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  note('done');
}

main().catch((e) => {
  process.stdout.write(`benchmark failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exitCode = 0;
});
