/**
 * What a batch's undo record costs (docs/batches.md): demoting N memories as one
 * batch (snapshot + every step through the crash-safe path) against the same
 * demotions done one by one with no snapshot, in the same run on copies of the
 * same root; then the undo of the batch. Prints numbers; always exits 0.
 *
 *   npx tsx bench/batch.ts [--n 200] [--reps 3]
 */
import { batchesHome } from '../lib/service/batches/batch-store';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_NOW, flags, fmtMs, intFlag, machineLine, median, table, timeMs } from './common';
import { loadConfig } from '../lib/core/config';
import { createContext } from '../lib/service/context';
import { scan } from '../lib/service/index/scan-service';
import { closeDb } from '../db/client';
import { applyToMemory } from '../lib/service/write/transition';
import { validatorDemotion } from '../lib/service/batches/audit-run';
import { applyPlan, planAudit } from '../lib/service/batches/batch-plan';
import { undoBatch } from '../lib/service/batches/undo';

const f = flags(process.argv.slice(2), { n: '200', reps: '3' });
const N = intFlag(f, 'n');
const REPS = intFlag(f, 'reps');

/** N memories in a trust-model root, every one a hard failure (a fake key in the body). */
function makeRoot(root: string): void {
  fs.mkdirSync(path.join(root, 'memories'), { recursive: true });
  const key = ['sk', 'FAKEbenchNOTAREALKEY0123456789abcd'].join('-');
  for (let i = 0; i < N; i++) {
    const body = `\nThe staging key is ${key} for service ${i}.\n\n**Why:** bench.\n\n**How to apply:** never.\n${'Padding line of an ordinary note. '.repeat(20)}\n`;
    fs.writeFileSync(
      path.join(root, 'memories', `reference_bench_${i}.md`),
      `---\nname: Bench ${i}\ndescription: bench memory ${i}\ntype: reference\n---\n${body}`,
    );
  }
}

function ctxFor(tmp: string, root: string) {
  const env = {
    MEMTRUST_ROOT: root,
    MEMTRUST_DB: path.join(tmp, `${path.basename(root)}.sqlite`),
    MEMTRUST_NOW: BENCH_NOW,
    MEMTRUST_MACHINE: 'bench',
    OWNER_EMAILS: 'owner@example.com',
    XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
  };
  const ctx = createContext(loadConfig({ env }), env);
  scan(ctx);
  return ctx;
}

const rows: string[][] = [['rep', 'one by one (floor)', 'one batch', 'ratio', 'undo', 'undo record']];
const ratios: number[] = [];
for (let rep = 1; rep <= REPS; rep++) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-batch-'));
  try {
    const a = path.join(tmp, 'plain');
    const b = path.join(tmp, 'batch');
    makeRoot(a);
    makeRoot(b);
    const ca = ctxFor(tmp, a);
    const planA = planAudit(ca);
    const demote = validatorDemotion(ca);
    const floor = timeMs(() =>
      planA.files.map((x) => applyToMemory(ca, { ref: x.memory, sourceId: x.source, actor: 'validator' }, demote)),
    );
    const cb = ctxFor(tmp, b);
    const planB = planAudit(cb);
    const batch = timeMs(() => applyPlan(cb, planB, { actor: 'user:cli', confirmed: true }));
    const done = batch.value.ok && batch.value.outcome ? batch.value.outcome.done : 0;
    const id = batch.value.ok && batch.value.outcome ? batch.value.outcome.batch : '';
    if (floor.value.filter((r) => r.ok).length !== N || done !== N)
      process.stderr.write(
        `rep ${rep}: expected ${N} demotions each, got ${floor.value.filter((r) => r.ok).length} and ${done}\n`,
      );
    const undo = timeMs(() => undoBatch(cb, id, 'user:cli'));
    if (!undo.value.ok) process.stderr.write(`rep ${rep}: undo failed: ${undo.value.message}\n`);
    let bytes = 0;
    const dir = path.join(batchesHome(b), id);
    for (const x of fs.readdirSync(path.join(dir, 'blobs'))) bytes += fs.statSync(path.join(dir, 'blobs', x)).size;
    ratios.push(batch.ms / floor.ms);
    rows.push([
      String(rep),
      fmtMs(floor.ms),
      fmtMs(batch.ms),
      `${(batch.ms / floor.ms).toFixed(2)}×`,
      fmtMs(undo.ms),
      `${(bytes / 1024).toFixed(0)} KiB`,
    ]);
    closeDb(path.join(tmp, 'plain.sqlite'));
    closeDb(path.join(tmp, 'batch.sqlite'));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
console.log(`batch.ts — ${N} demotions, ${REPS} reps · ${machineLine()}`);
console.log(table(rows));
console.log(
  `median ratio one batch ÷ one by one: ${median(ratios).toFixed(2)}× (no target: the price of the undo record)`,
);
