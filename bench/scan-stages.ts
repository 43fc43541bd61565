/**
 * Where a full index spends its time: each stage of `scan` timed on its own over the
 * same files, beside the read+sha256 floor measured in the same run (docs/performance.md).
 *
 *   npx tsx bench/scan-stages.ts [--n 10000] [--reps 3]
 *
 * Uses the root bench/scan.ts caches in bench/.out/scan-n<N>/root (run scan.ts with the
 * same --n first). Every stage runs --reps times; the best is printed (stages are short
 * and CPU-bound: the best rep is the one least disturbed by other processes).
 * Stages, in the order a scan runs them:
 *   list           the adapter's readdir + lstat of every file
 *   read           readFileSync of every listed file
 *   sha256         the hash of every file's bytes
 *   readFields     split + frontmatter parse (the index's own fields)
 *   validate       the structure/format validator (splits and parses again inside)
 *   secret         the secret check
 *   injection      the injection check
 *   inspect        all of the above per file as the scan calls it (tier, withholding, body text included)
 *   insert         rowWriter.upsert of every inspected file into a fresh database, 1,000 rows a transaction, FTS deferred
 *   fts rebuild    the full-text index built once at the end
 *   conflicts      markConflicts over the source
 *   audit mirror   every audit event mirrored into a fresh database
 * Exit 0 always.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_OWNER_EMAIL } from '../lib/demo';
import { openDb, closeDb } from '../db/client';
import { describeSource } from '../lib/sources';
import { inspect, readFields, sha256, type Inspected } from '../lib/service/index/inspect';
import { markConflicts, rowWriter } from '../lib/service/index/index-rows';
import { mirrorAudit } from '../lib/service/audit/audit-mirror';
import { validate } from '../lib/validators/validate';
import { secretCheck } from '../lib/validators/secrets';
import { injectionCheck } from '../lib/validators/injection';
import { ownerIdentity } from '../lib/core/identity';
import type { ListedFile } from '../lib/sources';
import { flags, fmtMs, intFlag, machineLine, note, PROJECT_DIR, table } from './common';

const f = flags(process.argv.slice(2), { n: '10000', reps: '3' });
const N = intFlag(f, 'n');
const REPS = intFlag(f, 'reps');
const root = path.join(PROJECT_DIR, 'bench', '.out', `scan-n${N}`, 'root');
if (!fs.existsSync(root)) {
  process.stdout.write(`no root at ${root}: run npx tsx bench/scan.ts --n ${N} first\n`);
  process.exit(0);
}
process.env.OWNER_EMAILS = DEFAULT_OWNER_EMAIL;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-stages-'));
process.env.XDG_CONFIG_HOME = path.join(tmp, 'config');
const owner = ownerIdentity();
const source = describeSource(root);

function best(fn: () => void): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < REPS; i++) {
    const t = performance.now();
    fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

const rows: [string, number][] = [];
let listed: ListedFile[] = [];
rows.push(['list (readdir + lstat)', best(() => (listed = source.adapter.files!.list(root)))]);
let bufs: Buffer[] = [];
const readAll = () => (bufs = listed.map((x) => fs.readFileSync(path.join(root, x.relPath))));
rows.push(['read', best(readAll)]);
rows.push([
  'sha256',
  best(() => {
    for (const b of bufs) sha256(b);
  }),
]);
rows.push([
  'readFields (split + frontmatter)',
  best(() => {
    for (const b of bufs) readFields(b);
  }),
]);
rows.push([
  'validate',
  best(() => {
    for (let i = 0; i < bufs.length; i++) validate(bufs[i]!, listed[i]!.filename);
  }),
]);
rows.push([
  'secret check',
  best(() => {
    for (const b of bufs) secretCheck(b, owner);
  }),
]);
rows.push([
  'injection check',
  best(() => {
    for (const b of bufs) injectionCheck(b);
  }),
]);
let inspected: Inspected[] = [];
rows.push([
  'inspect (all of the above but list/read, + tier, withholding, body)',
  best(() => (inspected = bufs.map((b, i) => inspect(b, listed[i]!, owner)))),
]);

function freshDb(name: string) {
  const file = path.join(tmp, `${name}-${Math.random().toString(36).slice(2)}.sqlite`);
  return { file, sqlite: openDb(file).sqlite };
}
let insertMs = Number.POSITIVE_INFINITY;
let ftsMs = Number.POSITIVE_INFINITY;
let conflictMs = Number.POSITIVE_INFINITY;
let auditMs = Number.POSITIVE_INFINITY;
for (let rep = 0; rep < REPS; rep++) {
  const { file, sqlite } = freshDb('rows');
  const writer = rowWriter(sqlite);
  sqlite.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('fts_deferred', '1')").run();
  let t = performance.now();
  for (let i = 0; i < listed.length; i += 1000) {
    sqlite.transaction(() => {
      for (let j = i; j < Math.min(i + 1000, listed.length); j++)
        writer.upsert(source.id, listed[j]!, inspected[j]!, true);
    })();
  }
  insertMs = Math.min(insertMs, performance.now() - t);
  t = performance.now();
  sqlite.transaction(() => {
    sqlite.prepare("INSERT INTO entries_fts(entries_fts) VALUES ('rebuild')").run();
    sqlite.prepare("DELETE FROM meta WHERE key = 'fts_deferred'").run();
  })();
  ftsMs = Math.min(ftsMs, performance.now() - t);
  t = performance.now();
  sqlite.transaction(() => markConflicts(sqlite, source.id))();
  conflictMs = Math.min(conflictMs, performance.now() - t);
  t = performance.now();
  mirrorAudit(sqlite, source.id, root);
  auditMs = Math.min(auditMs, performance.now() - t);
  closeDb(file);
}
rows.push(['insert rows + findings (FTS deferred)', insertMs]);
rows.push(['FTS rebuild', ftsMs]);
rows.push(['markConflicts', conflictMs]);
rows.push(['audit mirror', auditMs]);

const floor = rows[1]![1] + rows[2]![1];
const out: string[] = [];
out.push(`memtrust full-index stages — ${new Date().toISOString()}`);
out.push(`machine: ${machineLine()}`);
out.push(`root: ${listed.length} files in ${root}; best of ${REPS} per stage`);
out.push(`floor (read + sha256 in this run): ${fmtMs(floor)}`);
out.push('');
out.push(
  table([
    ['stage', 'time', 'per file', '÷ floor'],
    ...rows.map(([name, ms]) => [
      name,
      fmtMs(ms),
      `${((ms * 1000) / Math.max(listed.length, 1)).toFixed(1)} µs`,
      `${(ms / floor).toFixed(2)}×`,
    ]),
  ]),
);
process.stdout.write(`${out.join('\n')}\n`);
fs.rmSync(tmp, { recursive: true, force: true });
note('done');
