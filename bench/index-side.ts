/**
 * The full index side by side with an earlier commit's, on the root bench/scan.ts caches
 * (bench/.out/scan-n<N>/root), beside the read+sha256 floor measured in the same run.
 *
 *   npx tsx bench/index-side.ts --baseline 5430c44 [--n 10000] [--procs 3] [--reps 3]
 *
 * Each side runs in --procs fresh processes, alternating baseline and today; each process
 * (bench/index-once.ts, a copy of it in the baseline's tree) indexes the root --reps times
 * into fresh databases: context + scan, as bench/scan.ts (a) times it. The first index of
 * a process is the cold one (compiled code not yet warm, as a `memtrust scan` of a new
 * index pays); the others are warm, as bench/scan.ts (a) reports its median. Printed per
 * side: the median of the warm walls and of the cold ones, each ÷ the floor, and today ÷
 * baseline. Exit 0 always.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineDir, checkCommit } from './baseline';
import { PROJECT_DIR, flags, fmtMs, intFlag, machineLine, median, note, readHashPass, scanRoot, table } from './common';

const f = flags(process.argv.slice(2), { baseline: '', n: '10000', procs: '3', reps: '3' });
if (!f.baseline) {
  process.stderr.write('--baseline COMMIT is required\n');
  process.exit(64);
}
const BASELINE = checkCommit(f.baseline);
const N = intFlag(f, 'n');
const PROCS = intFlag(f, 'procs');
const REPS = intFlag(f, 'reps');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-index-side-'));
const { root, env: rootEnv } = scanRoot(N, tmp);
if (!fs.existsSync(root)) {
  process.stdout.write(`no root at ${root}: run npx tsx bench/scan.ts --n ${N} --only b first\n`);
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
}
const env: NodeJS.ProcessEnv = { ...process.env, ...rootEnv };
delete env.MEMTRUST_DEBUG;
delete env.MEMTRUST_DB; // each index goes into its own fresh database (index-once.ts)

/** readdir + readFileSync + sha256 of every memory file: bench/scan.ts's floor. */
const floor = () => readHashPass(root);

const trees: [string, string][] = [
  ['baseline', baselineDir(BASELINE)],
  ['today', PROJECT_DIR],
];
fs.mkdirSync(path.join(trees[0]![1], 'bench'), { recursive: true });
fs.copyFileSync(path.join(PROJECT_DIR, 'bench', 'index-once.ts'), path.join(trees[0]![1], 'bench', 'index-once.ts'));

try {
  floor(); // warm the page cache: every side reads from memory
  const floors = [floor(), floor(), floor()];
  const cold: Record<string, number[]> = { baseline: [], today: [] };
  const warm: Record<string, number[]> = { baseline: [], today: [] };
  let counts = '';
  for (let p = 0; p < PROCS; p++)
    for (const [side, tree] of p % 2 ? [...trees].reverse() : trees) {
      const r = spawnSync(
        process.execPath,
        ['--import', 'tsx', path.join('bench', 'index-once.ts'), tmp, String(REPS)],
        {
          cwd: tree,
          env,
          encoding: 'utf8',
        },
      );
      if (r.status !== 0) throw new Error(`${side} failed (${r.status}): ${r.stderr.slice(0, 2000)}`);
      const walls = JSON.parse(r.stdout) as { ms: number; files: number; events: number }[];
      cold[side]!.push(walls[0]!.ms);
      warm[side]!.push(...walls.slice(1).map((w) => w.ms));
      counts = `${walls[0]!.files} files, ${walls[0]!.events} audit events`;
      note(
        `${side} process ${p + 1}: ${walls.map((w) => fmtMs(w.ms)).join(', ')} (load ${os.loadavg()[0]!.toFixed(1)})`,
      );
    }
  floors.push(floor(), floor());
  const fl = Math.min(...floors);
  const rows = [['side', 'warm median', '÷ floor', 'cold median', '÷ floor', 'walls (warm)']];
  for (const side of ['baseline', 'today']) {
    const w = warm[side]!;
    const c = cold[side]!;
    rows.push([
      side === 'baseline' ? `baseline ${BASELINE}` : 'today',
      w.length ? fmtMs(median(w)) : '—',
      w.length ? `${(median(w) / fl).toFixed(1)}×` : '—',
      fmtMs(median(c)),
      `${(median(c) / fl).toFixed(1)}×`,
      w.map(fmtMs).join(' '),
    ]);
  }
  const ratio = (k: Record<string, number[]>) =>
    k.baseline!.length ? (median(k.today!) / median(k.baseline!)).toFixed(2) : '—';
  const out = [
    `memtrust full index, today beside ${BASELINE} — ${new Date().toISOString()}`,
    `machine: ${machineLine()}`,
    `root: ${root} (${counts}); ${PROCS} processes per side, ${REPS} indexes each, alternating`,
    `floor (readdir + read + sha256, best of ${floors.length} in this run): ${fmtMs(fl)} (${floors.map(fmtMs).join(', ')})`,
    '',
    table(rows),
    '',
    `today ÷ baseline: warm ${ratio(warm)}, cold ${ratio(cold)}`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
