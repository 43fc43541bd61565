/**
 * The cost of keeping versions (docs/versions.md, "Cost"): `memtrust scan` of a fresh root
 * into a new index with versions kept, beside the same with MEMTRUST_VERSIONS=off; then a
 * rescan after 1 % of the files were edited and 0.5 % deleted (outside changes: versions kept,
 * events written), both ways; and the version store's size beside the folder's gzip size.
 *
 *   npx tsx bench/versions.ts [--n 10000] [--reps 3]
 *
 * Each round makes a fresh copy of the generated root for each side, so the rescan's changes
 * are the same on both. Wall time and CPU time (user + system, of the CLI process and its
 * threads: /proc/self/stat's cutime + cstime around the child) of the whole CLI command,
 * medians over --reps, sides alternating. On a shared machine the CPU time is the steadier
 * figure. Store size: apparent bytes of every file under `<data>/versions`, beside the
 * folder compressed three ways: `tar czf` of the root, `tar czf` of its memory files (what
 * versions are kept of), and `gzip -6` of the memory files laid end to end (no tar
 * headers: the strictest). Exit 0 always.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateCorpus, writeCorpus, DEFAULT_MACHINE, DEFAULT_OWNER_EMAIL } from '../lib/demo';
import { BENCH_NOW, CLI, flags, fmtMs, intFlag, machineLine, median, note, table } from './common';

const f = flags(process.argv.slice(2), { n: '10000', reps: '3' });
const N = intFlag(f, 'n');
const REPS = intFlag(f, 'reps');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-versions-'));
const gen = path.join(tmp, 'gen');

function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((r) => path.join(dir, r))
    .filter((p) => fs.lstatSync(p).isFile());
}

/** CPU time (ms) of this process's waited-for children; null off Linux. */
function childCpuMs(): number | null {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 (cutime, cstime), in clock ticks of 1/100 s on Linux.
    return (Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return null;
  }
}

interface Timed {
  ms: number;
  cpuMs: number | null;
}

function scanOnce(root: string, data: string, versions: boolean): Timed {
  const cpu0 = childCpuMs();
  const t = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'scan', '--json'], {
    env: {
      ...process.env,
      MEMTRUST_ROOT: root,
      MEMTRUST_DB: path.join(data, 'index.sqlite'),
      MEMTRUST_NOW: BENCH_NOW,
      MEMTRUST_MACHINE: DEFAULT_MACHINE,
      OWNER_EMAILS: DEFAULT_OWNER_EMAIL,
      XDG_CONFIG_HOME: path.join(data, 'config'),
      XDG_DATA_HOME: data,
      GIT_CEILING_DIRECTORIES: tmp,
      MEMTRUST_VERSIONS: versions ? 'on' : 'off',
    },
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  if (r.status !== 0) throw new Error(`scan failed (${r.status}): ${r.stderr.slice(0, 2000)}`);
  const ms = performance.now() - t;
  const cpu1 = childCpuMs();
  return { ms, cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
}

/** Bytes of `tar czf` of `root` (with `-T` a list of paths in it); null without tar. */
function tarGzBytes(root: string, only?: string[]): number | null {
  const list = path.join(tmp, 'tar-list');
  if (only) fs.writeFileSync(list, `${only.map((p) => path.relative(root, p)).join('\n')}\n`);
  const r = spawnSync('tar', ['-C', root, '-czf', '-', ...(only ? ['-T', list] : ['.'])], {
    maxBuffer: 1024 * 2 ** 20,
    env: { ...process.env, GZIP: '-6' },
  });
  return r.status === 0 ? r.stdout.length : null;
}

/** 1 % of the memory files get a line appended, 0.5 % are deleted: the same files every round. */
function changeOutside(root: string): void {
  const mds = filesUnder(root)
    .filter((p) => p.endsWith('.md') && !p.includes(`${path.sep}.memtrust${path.sep}`))
    .sort();
  mds.forEach((p, i) => {
    if (i % 100 === 7) fs.appendFileSync(p, '\nEdited by another program.\n');
    else if (i % 200 === 13) fs.rmSync(p);
  });
}

note(machineLine());
note(`generating ${N} memories…`);
const stats = writeCorpus(
  gen,
  generateCorpus({
    n: N,
    seed: 42,
    now: new Date(BENCH_NOW),
    machine: DEFAULT_MACHINE,
    ownerEmail: DEFAULT_OWNER_EMAIL,
  }),
);
note(`  ${stats.files} files, ${(stats.bytes / 2 ** 20).toFixed(1)} MiB`);
// A warm-up run bundles the CLI and warms the page cache.
scanOnce(gen, path.join(tmp, 'warm'), false);
fs.rmSync(path.join(tmp, 'warm'), { recursive: true, force: true });

const times = {
  on: { first: [] as Timed[], rescan: [] as Timed[] },
  off: { first: [] as Timed[], rescan: [] as Timed[] },
};
let storeBytes = 0;
let storeAfterRescan = 0;
for (let rep = 0; rep < REPS; rep++) {
  const order: ('on' | 'off')[] = rep % 2 ? ['off', 'on'] : ['on', 'off'];
  for (const side of order) {
    const dir = path.join(tmp, `${side}-${rep}`);
    const root = path.join(dir, 'root');
    fs.cpSync(gen, root, { recursive: true });
    fs.rmSync(path.join(root, '.memtrust'), { recursive: true, force: true });
    fs.cpSync(path.join(gen, '.memtrust'), path.join(root, '.memtrust'), { recursive: true });
    const data = path.join(dir, 'data');
    fs.mkdirSync(data, { recursive: true });
    const sizeOfStore = () => {
      const v = path.join(data, 'versions');
      return (fs.existsSync(v) ? filesUnder(v) : []).reduce((n, p) => n + fs.statSync(p).size, 0);
    };
    times[side].first.push(scanOnce(root, data, side === 'on'));
    if (side === 'on' && rep === 0) storeBytes = sizeOfStore();
    changeOutside(root);
    times[side].rescan.push(scanOnce(root, data, side === 'on'));
    if (side === 'on' && rep === 0) storeAfterRescan = sizeOfStore();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const memoryFiles = filesUnder(gen)
  .filter((p) => p.endsWith('.md') && !p.includes(`${path.sep}.memtrust${path.sep}`))
  .sort();
const gz = spawnSync('gzip', ['-6', '-c'], {
  input: Buffer.concat(memoryFiles.map((p) => fs.readFileSync(p))),
  maxBuffer: 1024 * 2 ** 20,
}).stdout.length;
const tarRoot = tarGzBytes(gen);
const tarMemories = tarGzBytes(gen, memoryFiles);
const pct = (on: number, off: number) => `${(((on - off) / off) * 100).toFixed(1)} %`;
const wall = (xs: Timed[]) => median(xs.map((x) => x.ms));
const cpuOf = (xs: Timed[]) => {
  const c = xs.map((x) => x.cpuMs).filter((x): x is number => x !== null);
  return c.length ? median(c) : null;
};
const rows: string[][] = [['', 'wall off', 'wall on', 'extra', 'cpu off', 'cpu on', 'extra']];
for (const [label, k] of [
  ['first index', 'first'],
  ['rescan (1 % edited, 0.5 % deleted)', 'rescan'],
] as const) {
  const cOff = cpuOf(times.off[k]);
  const cOn = cpuOf(times.on[k]);
  rows.push([
    label,
    fmtMs(wall(times.off[k])),
    fmtMs(wall(times.on[k])),
    pct(wall(times.on[k]), wall(times.off[k])),
    cOff === null ? 'n/a' : fmtMs(cOff),
    cOn === null ? 'n/a' : fmtMs(cOn),
    cOff === null || cOn === null ? 'n/a' : pct(cOn, cOff),
  ]);
}
console.log(table(rows));
const mib = (n: number) => `${(n / 2 ** 20).toFixed(2)} MiB`;
const ratio = (n: number | null) =>
  n === null ? 'n/a (no tar)' : `${mib(n)}, store ÷ it ${(storeBytes / n).toFixed(2)}×`;
console.log(`version store after the first index: ${mib(storeBytes)} (after the rescan: ${mib(storeAfterRescan)})`);
console.log(`  tar czf of the root:              ${ratio(tarRoot)}`);
console.log(`  tar czf of its memory files:      ${ratio(tarMemories)}`);
console.log(`  gzip -6 of the memory files alone: ${ratio(gz)}`);
console.log(
  `targets: first index extra < 15 %; store < 1.2× the folder's compressed size. ${N} files, median of ${REPS}.`,
);
fs.rmSync(tmp, { recursive: true, force: true });
