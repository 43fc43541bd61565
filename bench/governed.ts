/**
 * Reading codeclone's governed engineering memory (layout 4) at volume, beside a plain
 * `SELECT *` of the same table in the same run.
 *
 *   npx tsx bench/governed.ts [--n 50000] [--reps 5] [--live no]
 *
 * Builds, in a temp dir, a store of --n records (plus the 78 of the test fixture) with
 * the fixture builder of lib/sources/governed: 1–2 evidence rows and one subject per
 * record, a link on every tenth, a supersedes link on every fiftieth. `--live yes`
 * keeps the writing connection open so the commits stay in the -wal (codeclone running).
 *   (a) floor: open a copy of the store read-only + `SELECT * FROM memory_records` + close, best of --reps;
 *   (b) `read()` of lib/sources/governed: store and -wal read into memory, log folded in, four SELECTs, mapping to
 *       records with command lines — median of --reps.
 *   (c) the registered adapter (`layoutAdapter('governed').read`, what the service calls) — median of --reps;
 *   (d) the read service cold (`readSourceRecords`: adapter read + validators + writing the record index into
 *       memtrust's own SQLite), once per rep with the cache forgotten — median of --reps.
 * Diagnostics: the parts of (b) as read() reports them, a plain SELECT * of all four
 * tables, and whether the store's files are byte-identical after every read.
 * No target was set for this read; the ratio (b) ÷ (a) is printed. Exit 0 always.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../lib/core/config';
import { closeDb } from '../db/client';
import { createContext } from '../lib/service/context';
import { forgetRecordCache, readSourceRecords } from '../lib/service/records/read';
import { layoutAdapter } from '../lib/sources/registry';
import { buildGovernedFixture } from '../lib/sources/governed/test-fixtures';
import { read } from '../lib/sources/governed/read';
import { fingerprint } from '../lib/sources/governed/test-support';
import { flags, fmtMs, intFlag, machineLine, median, note, table, timeMs } from './common';

const f = flags(process.argv.slice(2), { n: '50000', reps: '5', live: 'no' });
const N = intFlag(f, 'n');
const REPS = intFlag(f, 'reps');
const LIVE = f.live === 'yes';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-governed-'));
try {
  note(`building a store of ${N} records in ${tmp} …`);
  const built = timeMs(() =>
    buildGovernedFixture(path.join(tmp, 'project'), { records: N, wal: LIVE ? 'live' : 'closed' }),
  );
  const fx = built.value;
  const dir = path.dirname(fx.store);
  const sizes = fs
    .readdirSync(dir)
    .map(
      (n) =>
        `${n.replace('engineering_memory.sqlite3', 'store')} ${(fs.statSync(path.join(dir, n)).size / 2 ** 20).toFixed(1)} MiB`,
    );
  note(`built in ${fmtMs(built.ms)}: ${sizes.join(', ')}`);

  // The floor reads a copy, so SQLite's own -wal/-shm never appear beside the store.
  const floorDir = path.join(tmp, 'floor');
  fs.mkdirSync(floorDir);
  const floorFile = path.join(floorDir, 'copy.sqlite3');
  fs.copyFileSync(fx.store, floorFile);
  if (fs.existsSync(`${fx.store}-wal`)) fs.copyFileSync(`${fx.store}-wal`, `${floorFile}-wal`);
  const plain = (sql: string[]) => {
    const db = new Database(floorFile, { readonly: true, fileMustExist: true });
    let n = 0;
    for (const s of sql) n += db.prepare(s).all().length;
    db.close();
    return n;
  };
  const one = ['SELECT * FROM memory_records'];
  const four = [...one, 'SELECT * FROM memory_evidence', 'SELECT * FROM memory_links', 'SELECT * FROM memory_subjects'];
  plain(four); // warm the page cache

  // The service over the same project as its one root, with its own index in the temp dir.
  const env = {
    MEMTRUST_ROOT: fx.project,
    MEMTRUST_DB: path.join(tmp, 'index.sqlite'),
    MEMTRUST_NOW: '2026-11-22T12:00:00Z',
    XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
    XDG_DATA_HOME: path.join(tmp, 'data'),
  };
  const ctx = createContext(loadConfig({ env }), env);
  const source = ctx.recordSources.find((s) => s.adapter.layout === 'governed');
  if (!source) throw new Error(`${fx.project} is not detected as a governed record root`);
  const adapter = layoutAdapter('governed')!;
  const viaAdapter: number[] = [];
  const viaService: number[] = [];
  let serviceCount = 0;

  const before = fingerprint(dir);
  const floor: number[] = [];
  const floor4: number[] = [];
  const reads: number[] = [];
  const parts = { snapshotMs: [] as number[], queryMs: [] as number[], mapMs: [] as number[] };
  let unchanged = true;
  let count = 0;
  for (let i = 0; i < REPS; i++) {
    const a = timeMs(() => plain(one));
    floor.push(a.ms);
    floor4.push(timeMs(() => plain(four)).ms);
    const b = timeMs(() => read(fx.project));
    if (!b.value.ok) throw new Error(b.value.message);
    reads.push(b.ms);
    count = b.value.records.length;
    for (const k of Object.keys(parts) as (keyof typeof parts)[]) parts[k].push(b.value.timings[k]);
    const c = timeMs(() => adapter.read(fx.project, { sourceId: source.id, now: new Date(env.MEMTRUST_NOW) }));
    if (c.value.problems.length) throw new Error(c.value.problems[0]!.problem);
    viaAdapter.push(c.ms);
    ctx.handle.sqlite.exec('DELETE FROM sources WHERE token IS NOT NULL');
    forgetRecordCache();
    const d = timeMs(() => readSourceRecords(ctx, source));
    if (d.value.error) throw new Error(d.value.error);
    serviceCount = d.value.records.length;
    viaService.push(d.ms);
    unchanged &&= JSON.stringify(fingerprint(dir)) === JSON.stringify(before);
    note(
      `rep ${i + 1}/${REPS}: floor ${fmtMs(a.ms)}, read ${fmtMs(b.ms)}, adapter ${fmtMs(c.ms)}, service ${fmtMs(d.ms)}`,
    );
  }
  const best = Math.min(...floor);
  const med = median(reads);
  fx.writer?.close();
  closeDb(env.MEMTRUST_DB);

  process.stdout.write(
    `governed read, ${count.toLocaleString('en-US')} records (${LIVE ? 'writer open, commits in the -wal' : 'store closed cleanly'}); ${sizes.join(', ')}\n`,
  );
  process.stdout.write(`${machineLine()}\n\n`);
  process.stdout.write(
    `${table([
      ['measure', 'value', 'floor', 'ratio'],
      ['(b) read() median', fmtMs(med), fmtMs(best), `${(med / best).toFixed(1)}×`],
      ['  snapshot (read store + -wal, fold the log)', fmtMs(median(parts.snapshotMs)), '', ''],
      ['  open + four SELECTs', fmtMs(median(parts.queryMs)), '', ''],
      ['  map to records', fmtMs(median(parts.mapMs)), '', ''],
      [
        '(c) registered adapter read, median',
        fmtMs(median(viaAdapter)),
        fmtMs(best),
        `${(median(viaAdapter) / best).toFixed(1)}×`,
      ],
      [
        `(d) read service, cold (${serviceCount.toLocaleString('en-US')} records), median`,
        fmtMs(median(viaService)),
        fmtMs(best),
        `${(median(viaService) / best).toFixed(1)}×`,
      ],
      ['(a) SELECT * memory_records, best', fmtMs(best), '', ''],
      ['plain SELECT * of the four tables, best', fmtMs(Math.min(...floor4)), '', ''],
    ])}\n`,
  );
  process.stdout.write(
    `\nstore files byte-identical (sha256, size, mtime) after every read: ${unchanged ? 'yes' : 'NO'}\n`,
  );
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
