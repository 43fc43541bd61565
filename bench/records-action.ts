/**
 * One record action through the trust service on a consolidation store (layout 5) of N
 * records, beside a floor measured in the same run (docs/performance.md).
 *
 *   npx tsx bench/records-action.ts [--n 20000] [--reps 6]
 *
 * A temp root holds one `bench.memory.jsonl` of --n records (bigStoreText, ~240 B a line).
 * The index is built once (listRecords), then each rep starts like a fresh CLI process
 * (the process's record cache forgotten, the index kept) and runs `applyRecordActions`:
 * demote (with a reason) then restore of the last record a demote applies to, in turn.
 *   floor: the adapter's read() of the store plus a durable write of the file's bytes to a
 *          copy on the same disk (what an action cannot avoid: find the record, write the file once);
 *   action: findRecord + plan + lock + snapshot + execute + audit + index refresh;
 *   parts (diagnostics): the same steps timed alone.
 * Target (issue 16): under 500 ms at 20,000 records and ≤ 3× the floor. Exit 0 always.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../lib/core/config';
import { createContext } from '../lib/service/context';
import { applyRecordActions } from '../lib/service/records/apply';
import { findRecord, forgetRecordCache, listRecords, readSourceRecords } from '../lib/service/records/read';
import { replaceFileAtomic } from '../lib/service/write/fs-atomic';
import { bigStoreText } from '../lib/sources/consolidation/test-fixtures';
import { closeDb } from '../db/client';
import { BENCH_NOW, flags, fmtMs, intFlag, machineLine, median, note, table, timeMs, verdict } from './common';

const f = flags(process.argv.slice(2), { n: '20000', reps: '6' });
const N = intFlag(f, 'n');
const REPS = intFlag(f, 'reps');
const TARGET = { ms: 500, ratio: 3 };
const FILE = 'bench.memory.jsonl';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-records-'));
const root = path.join(tmp, 'root');
fs.mkdirSync(root);
const abs = path.join(root, FILE);
// Every record created two days before the bench clock: none has expired, so demote and restore both apply.
fs.writeFileSync(abs, bigStoreText(N, 240).replace(/"createdAt":"[^"]*"/g, '"createdAt":"2026-11-20T10:00:00Z"'));
const copy = path.join(tmp, FILE);
const db = path.join(tmp, 'index.sqlite');
const env: Record<string, string> = {
  MEMTRUST_ROOT: root,
  MEMTRUST_DB: db,
  MEMTRUST_NOW: BENCH_NOW,
  MEMTRUST_MACHINE: 'bench',
  XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
  XDG_DATA_HOME: path.join(tmp, 'data'),
  OWNER_EMAILS: 'owner@example.com',
  GIT_CEILING_DIRECTORIES: tmp,
};
Object.assign(process.env, env);

try {
  const ctx = createContext(loadConfig({ env }), env);
  const source = ctx.recordSources[0];
  if (!source) throw new Error(`${root} was not detected as a record root`);
  const first = timeMs(() => listRecords(ctx, { limit: 10 }));
  note(`first read + index of ${first.value.total} records: ${fmtMs(first.ms)}`);
  // The last record a demote applies to (active, not expired): the worst case for finding its line.
  const all = readSourceRecords(ctx, source).records;
  const last = [...all].reverse().find((r) => r.actions.includes('demote'))?.key;
  if (!last) throw new Error('no record of the store can be demoted');

  const floors: number[] = [];
  const walls: number[] = [];
  const parts: Record<string, number[]> = { 'findRecord (index)': [], 'adapter read()': [], 'read + index': [] };
  for (let rep = 0; rep < REPS; rep++) {
    floors.push(
      timeMs(() => {
        source.adapter.read(root, { sourceId: source.id, now: ctx.now() });
        // Written beside the root, not over the store: the store's change token must not move.
        replaceFileAtomic(copy, fs.readFileSync(abs), 'bench');
      }).ms,
    );
    forgetRecordCache();
    const step =
      rep % 2 === 0
        ? { id: last, action: 'demote', reason: 'benchmark: demote and restore' }
        : { id: last, action: 'restore' };
    const r = timeMs(() => applyRecordActions(ctx, [step], { actor: 'user:cli' }));
    if (!r.value.ok) note(`!! ${step.action} failed: ${r.value.message}`);
    walls.push(r.ms);
    forgetRecordCache();
    parts['findRecord (index)']!.push(timeMs(() => findRecord(ctx, last)).ms);
    parts['adapter read()']!.push(timeMs(() => source.adapter.read(root, { sourceId: source.id, now: ctx.now() })).ms);
    // A store that changed under an index: read, check every record, write every row.
    forgetRecordCache();
    ctx.handle.sqlite.prepare("UPDATE sources SET token = 'stale' WHERE id = ?").run(source.id);
    parts['read + index']!.push(timeMs(() => readSourceRecords(ctx, source)).ms);
  }
  const floor = median(floors);
  const wall = median(walls);
  const out: string[] = [];
  out.push(`memtrust record action benchmark — ${new Date().toISOString()}`);
  out.push(`machine: ${machineLine()}`);
  out.push(
    `store: ${N} records in one ${FILE}; medians of ${REPS} (demote and restore in turn, the last demotable record)`,
  );
  out.push('');
  out.push(
    table([
      ['measurement', 'value', 'floor', 'ratio', 'target', 'result'],
      [
        `record action (${N} records)`,
        fmtMs(wall),
        `${fmtMs(floor)} read() + durable rewrite`,
        `${(wall / floor).toFixed(1)}×`,
        `< ${TARGET.ms} ms, ≤ ${TARGET.ratio}×`,
        verdict(wall < TARGET.ms && wall / floor <= TARGET.ratio),
      ],
    ]),
  );
  out.push('');
  out.push('diagnostics:');
  out.push(`  action walls: ${walls.map(fmtMs).join(', ')}; floors: ${floors.map(fmtMs).join(', ')}`);
  out.push(
    `  parts alone: ${Object.entries(parts)
      .map(([k, v]) => `${k} ${fmtMs(median(v))}`)
      .join('; ')}`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
  closeDb(db);
} catch (e) {
  process.stdout.write(`benchmark failed: ${e instanceof Error ? e.stack : String(e)}\n`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exitCode = 0;
}
