/**
 * `memtrust scan` into a fresh index with the inspect pool (docs/performance.md, "Both
 * cores") beside the same command on the main thread alone (MEMTRUST_WORKERS=0), and both
 * beside the read+sha256 floor, in one run, on the roots bench/scan.ts caches
 * (bench/.out/scan-n<N>/root; make one with `npx tsx bench/scan.ts --n N --only b`).
 *
 *   npx tsx bench/index-workers.ts [--n 10000,25000,100000] [--reps 3] [--workers 1]
 *
 * Per root, --reps rounds, each running both sides in turn (the order alternates), each a
 * new CLI process indexing into a new database: the wall of the whole command (start-up,
 * listing, reading, checking, writing, the audit mirror, the index builds) and its CPU time
 * (user + system, from the child's resource usage). Printed: the medians, each ÷ the floor,
 * and pool ÷ alone. A root not made yet is skipped with a note. Exit 0 always.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, flags, fmtMs, intFlag, machineLine, median, note, readHashPass, scanRoot, table } from './common';

const f = flags(process.argv.slice(2), { n: '10000,25000,100000', reps: '3', workers: '1' });
const SIZES = f.n!.split(',').map(Number);
const REPS = intFlag(f, 'reps');
const WORKERS = intFlag(f, 'workers');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-workers-'));

/** One `memtrust scan` into a fresh database: wall and CPU ms, and the counts it printed. */
function scanOnce(env: NodeJS.ProcessEnv, workers: number, tag: string): { wall: number; cpu: number; line: string } {
  const db = path.join(tmp, `index-${tag}.sqlite`);
  const t = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'scan', '--json'], {
    env: { ...env, MEMTRUST_DB: db, MEMTRUST_WORKERS: String(workers) },
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const wall = performance.now() - t;
  if (r.status !== 0) throw new Error(`scan failed (${r.status}): ${r.stderr.slice(0, 2000)}`);
  const stats = JSON.parse(r.stdout) as { files: number; read: number; events: number; workers?: number };
  if ((stats.workers ?? 0) !== workers)
    note(`!! ${tag}: asked for ${workers} worker(s), the scan used ${stats.workers ?? 0}`);
  for (const ext of ['', '-wal', '-shm']) fs.rmSync(db + ext, { force: true });
  return { wall, cpu: childCpu(), line: `${stats.files} files, ${stats.events} audit events` };
}

let lastChildCpu = 0;
/** CPU ms of the children waited for since the last call (user + system). */
function childCpu(): number {
  const all = childrenCpuMs();
  const d = all - lastChildCpu;
  lastChildCpu = all;
  return d;
}

/** Children's CPU time so far: /proc/self/stat's cutime + cstime, in ms. */
function childrenCpuMs(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the name start at field 3 (state); cutime and cstime are fields 16 and 17.
  const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3]);
  return (ticks * 1000) / 100;
}

try {
  const rows = [
    [
      'files',
      'floor',
      'alone wall',
      '÷ floor',
      `${WORKERS} worker(s) wall`,
      '÷ floor',
      'pool ÷ alone',
      'CPU alone',
      'CPU pool',
    ],
  ];
  const detail: string[] = [];
  for (const n of SIZES) {
    const { root, env: rootEnv } = scanRoot(n, tmp);
    if (!fs.existsSync(root)) {
      note(`no root at ${root}: run npx tsx bench/scan.ts --n ${n} --only b first`);
      continue;
    }
    const env: NodeJS.ProcessEnv = { ...process.env, ...rootEnv };
    delete env.MEMTRUST_DEBUG;
    readHashPass(root); // the page cache warm for every side
    const floors = [readHashPass(root), readHashPass(root), readHashPass(root)];
    lastChildCpu = childrenCpuMs();
    // A first run of each side builds the CLI's and the worker's bundles: not counted.
    scanOnce(env, 0, 'warm-0');
    scanOnce(env, WORKERS, 'warm-w');
    const walls: Record<string, number[]> = { alone: [], pool: [] };
    const cpus: Record<string, number[]> = { alone: [], pool: [] };
    let counts = '';
    for (let rep = 0; rep < REPS; rep++) {
      const order: ['alone' | 'pool', number][] = [
        ['alone', 0],
        ['pool', WORKERS],
      ];
      if (rep % 2) order.reverse();
      for (const [side, w] of order) {
        const r = scanOnce(env, w, `${n}-${side}-${rep}`);
        walls[side]!.push(r.wall);
        cpus[side]!.push(r.cpu);
        counts = r.line;
        note(`${n} ${side}: ${fmtMs(r.wall)} wall, ${fmtMs(r.cpu)} CPU (load ${os.loadavg()[0]!.toFixed(1)})`);
      }
    }
    floors.push(readHashPass(root));
    const fl = Math.min(...floors);
    const a = median(walls.alone!);
    const p = median(walls.pool!);
    rows.push([
      n.toLocaleString('en-US'),
      fmtMs(fl),
      fmtMs(a),
      `${(a / fl).toFixed(1)}×`,
      fmtMs(p),
      `${(p / fl).toFixed(1)}×`,
      (p / a).toFixed(2),
      fmtMs(median(cpus.alone!)),
      fmtMs(median(cpus.pool!)),
    ]);
    detail.push(
      `${n}: ${counts}; alone ${walls.alone!.map(fmtMs).join(' ')}; pool ${walls.pool!.map(fmtMs).join(' ')}`,
    );
  }
  const out = [
    `memtrust scan into a fresh index, with and without worker threads — ${new Date().toISOString()}`,
    `machine: ${machineLine()}`,
    `${REPS} rounds per root, sides alternating; floor: readdir + read + sha256 of every file, best of 4`,
    '',
    table(rows),
    '',
    ...detail,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
