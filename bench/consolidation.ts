/**
 * A consolidation store (layout 5, docs/consolidation-layout.md): reading 100,000
 * records, and one status change on a 100,000-line file, each beside a floor measured
 * in the same run.
 *
 *   npx tsx bench/consolidation.ts [--n 100000] [--reps 5] [--changes 20] [--keep no]
 *
 * Writes one `bench.memory.jsonl` of --n records (about 240 bytes a line, a mix of
 * types, statuses and confidences) to a temp dir.
 *   (a) read floor: readFileSync + split on \n + JSON.parse of every line, best of --reps;
 *   (b) read(): the adapter's full read (records, flags, actions, fields), median of --reps;
 *   (c) write floor: readFileSync of the file + the same bytes written back durably
 *       (temp file, write, fsync, rename, directory fsync — replaceFileAtomic), median;
 *   (d) status change: readFileSync + plan() (find the line, check it, edit only the
 *       status values) + the edit applied to the bytes + the same durable write, median
 *       of --changes (demote and restore in turn, on a record near the end of the file,
 *       the worst case for finding the line). Target: < 200 ms.
 * Exit 0 always; PASS/MISS per target.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replaceFileAtomic } from '../lib/service/write/fs-atomic';
import { applyLineEdits } from '../lib/sources/consolidation/lines';
import { plan } from '../lib/sources/consolidation/plan';
import { read } from '../lib/sources/consolidation/read';
import { bigStoreText } from '../lib/sources/consolidation/test-fixtures';
import { BENCH_NOW, flags, fmtMs, intFlag, machineLine, median, note, table, verdict } from './common';

const f = flags(process.argv.slice(2), { n: '100000', reps: '5', changes: '20', keep: 'no' });
const N = intFlag(f, 'n');
const REPS = intFlag(f, 'reps');
const CHANGES = intFlag(f, 'changes');
const TARGET_MS = 200;
const FILE = 'bench.memory.jsonl';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-consolidation-'));
const abs = path.join(tmp, FILE);
note(`writing ${N} records to ${abs}`);
fs.writeFileSync(abs, bigStoreText(N, 240));
const size = fs.statSync(abs).size;
const now = new Date(BENCH_NOW);
const ctx = { sourceId: 'bench', now };

function readFloor(): number {
  const t = performance.now();
  const text = fs.readFileSync(abs, 'utf8');
  let pos = 0;
  let n = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    if (end > pos) {
      JSON.parse(text.slice(pos, end));
      n++;
    }
    pos = end + 1;
  }
  if (n !== N) throw new Error(`floor read ${n} lines`);
  return performance.now() - t;
}

function writeFloor(): number {
  const t = performance.now();
  const bytes = fs.readFileSync(abs);
  replaceFileAtomic(abs, bytes, 'bench');
  return performance.now() - t;
}

read(tmp, ctx); // warm-up (JIT, page cache)
const readFloors: number[] = [];
const reads: number[] = [];
let last: ReturnType<typeof read> | null = null;
let records = 0;
let problems = 0;
for (let r = 0; r < REPS; r++) {
  readFloors.push(readFloor());
  const t = performance.now();
  last = read(tmp, ctx);
  reads.push(performance.now() - t);
}
records = last!.records.length;
problems = last!.problems.length;
if (records !== N) throw new Error(`read ${records} records`);

// A record near the end that can go to review and back: active, not expired, write rules held.
const target = [...last!.records]
  .reverse()
  .find((x) => (x.tier === 'inferred' || x.tier === 'verified') && x.flags.length === 0)!;
// The status change is timed on its own: the 100,000 records read above are let go first.
last = null;
note(`status changes on ${target.key} (line ${target.location.line})`);

const writeFloors: number[] = [];
const changes: number[] = [];
const parts = { read: [] as number[], plan: [] as number[], apply: [] as number[], write: [] as number[] };
for (let c = 0; c < CHANGES; c++) {
  writeFloors.push(writeFloor());
  const action = c % 2 === 0 ? 'demote' : 'restore';
  const t0 = performance.now();
  const bytes = fs.readFileSync(abs);
  const t1 = performance.now();
  const p = plan(target, action, { now, read: () => bytes, reason: 'bench: sent to review' });
  if (!p.ok) throw new Error(p.reason);
  const t2 = performance.now();
  const next = applyLineEdits(bytes, p.plan.edits);
  const t3 = performance.now();
  replaceFileAtomic(abs, next, 'bench');
  const t4 = performance.now();
  changes.push(t4 - t0);
  parts.read.push(t1 - t0);
  parts.plan.push(t2 - t1);
  parts.apply.push(t3 - t2);
  parts.write.push(t4 - t3);
}
// The store is whole: every record still reads, the target is back to active.
const after = read(tmp, ctx);
const back = after.records.find((x) => x.key === target.key)!;
const ok =
  after.records.length === N &&
  (CHANGES % 2 === 0 ? back.detail.status === 'active' : back.detail.status === 'needs-review');

const readFloorMs = Math.min(...readFloors);
const readMs = median(reads);
const writeFloorMs = median(writeFloors);
const changeMs = median(changes);

console.log(
  `# consolidation store (layout 5): ${N.toLocaleString('en-US')} records, ${(size / 2 ** 20).toFixed(1)} MiB in one file`,
);
console.log(machineLine());
console.log('');
console.log(
  table([
    ['measure', 'time', 'note'],
    ['(a) read floor: readFileSync + JSON.parse per line', fmtMs(readFloorMs), `best of ${REPS}`],
    [
      '(b) read(): records, flags, actions, fields',
      fmtMs(readMs),
      `median of ${REPS}; ${(readMs / readFloorMs).toFixed(1)}x floor`,
    ],
    ['(c) write floor: readFileSync + durable rewrite of the same bytes', fmtMs(writeFloorMs), `median of ${CHANGES}`],
    [
      '(d) status change: read + plan + apply + durable rewrite',
      fmtMs(changeMs),
      `median of ${CHANGES}; ${(changeMs / writeFloorMs).toFixed(2)}x floor`,
    ],
    ['    parts of (d): readFileSync', fmtMs(median(parts.read)), ''],
    ['    parts of (d): plan (find line, check, edit fields)', fmtMs(median(parts.plan)), ''],
    ['    parts of (d): apply the edit to the bytes', fmtMs(median(parts.apply)), ''],
    ['    parts of (d): durable write (temp, fsync, rename, dir fsync)', fmtMs(median(parts.write)), ''],
  ]),
);
console.log('');
console.log(`records ${records}, problems ${problems}, store intact after the changes: ${ok ? 'yes' : 'NO'}`);
console.log(
  `(d) status change on a ${N.toLocaleString('en-US')}-line file < ${TARGET_MS} ms: ${verdict(changeMs < TARGET_MS)}`,
);

if (f.keep !== 'yes') fs.rmSync(tmp, { recursive: true, force: true });
else note(`kept ${tmp}`);
