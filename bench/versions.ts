/**
 * The cost of keeping versions (docs/versions.md, "Cost"): `memtrust scan` of a fresh root
 * into a new index with versions kept, beside the same with MEMTRUST_VERSIONS=off; then a
 * rescan after 1 % of the files were edited and 0.5 % deleted (outside changes: versions kept,
 * events written), both ways; and the version store's size beside the folder's gzip size.
 *
 *   npx tsx bench/versions.ts [--n 10000] [--reps 3]
 *
 * Each round makes a fresh copy of the generated root (bench/.out/versions-n<N>/gen) for each
 * side, so the rescan's changes are the same on both. Wall time of the whole CLI command,
 * medians over --reps, sides alternating. Store size: apparent bytes of every file under
 * `<data>/versions`; the folder's gzip size: `gzip -6` of every memory file laid end to end
 * (a tar.gz without the headers). Exit 0 always.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
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

function scanOnce(root: string, data: string, versions: boolean): number {
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
  return performance.now() - t;
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
  on: { first: [] as number[], rescan: [] as number[] },
  off: { first: [] as number[], rescan: [] as number[] },
};
let storeBytes = 0;
let packBytes = 0;
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
    times[side].first.push(scanOnce(root, data, side === 'on'));
    if (side === 'on' && rep === 0) {
      const v = path.join(data, 'versions');
      const all = fs.existsSync(v) ? filesUnder(v) : [];
      storeBytes = all.reduce((n, p) => n + fs.statSync(p).size, 0);
      packBytes = all.filter((p) => p.endsWith('.br')).reduce((n, p) => n + fs.statSync(p).size, 0);
    }
    changeOutside(root);
    times[side].rescan.push(scanOnce(root, data, side === 'on'));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const memoryFiles = filesUnder(gen).filter((p) => p.endsWith('.md') && !p.includes(`${path.sep}.memtrust${path.sep}`));
const gz = zlib.gzipSync(Buffer.concat(memoryFiles.map((p) => fs.readFileSync(p))), { level: 6 }).length;
const pct = (on: number, off: number) => `${(((on - off) / off) * 100).toFixed(1)} %`;
const m = (xs: number[]) => median(xs);
console.log(
  table([
    ['', 'versions off', 'versions on', 'extra'],
    ['first index', fmtMs(m(times.off.first)), fmtMs(m(times.on.first)), pct(m(times.on.first), m(times.off.first))],
    [
      'rescan (1 % edited, 0.5 % deleted)',
      fmtMs(m(times.off.rescan)),
      fmtMs(m(times.on.rescan)),
      pct(m(times.on.rescan), m(times.off.rescan)),
    ],
  ]),
);
console.log(
  `version store after the first index: ${(storeBytes / 2 ** 20).toFixed(2)} MiB; the folder's gzip size: ${(gz / 2 ** 20).toFixed(2)} MiB; ratio ${(storeBytes / gz).toFixed(2)}× (target < 1.2×)`,
);
console.log(
  `  of which packs (the versions' bytes) ${(packBytes / 2 ** 20).toFixed(2)} MiB (${(packBytes / gz).toFixed(2)}×), the per-version index ${((storeBytes - packBytes) / 2 ** 20).toFixed(2)} MiB`,
);
console.log(`first index extra: target < 15 %. ${N} files, median of ${REPS}.`);
fs.rmSync(tmp, { recursive: true, force: true });
