/**
 * What value propagation adds to a full index (docs/credentials.md, "Value propagation"),
 * in one process, on bench/scan.ts's cached root, as CPU time (user + system: the machine's
 * load moves walls more than the work does):
 *   (0) the secret check of every file without a set and with a set of lengths 6–40,
 *       alternating, 15 rounds (the tokens alone: the least noisy figure);
 *   (1) inspect() of every file without a set of known values, and with the set this root
 *       makes (every file is then cut into tokens and each token of a set length is
 *       prefiltered), alternating; and with a set holding every length from 6 to 40;
 *   (2) the scan's search for files holding a value that joined the set, over the stored
 *       texts (name, description, masked body) of every file, with the whole set joined (a
 *       first index);
 *   (3) a full scan into a fresh index with a fresh data directory (no set yet: the search
 *       runs), and one with the set already there (the search does not), alternating.
 *
 *   npx tsx bench/known-values.ts [--n 10000] [--reps 5]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../lib/core/config';
import { createContext } from '../lib/service/context';
import { scan } from '../lib/service/index/scan-service';
import { credentialValuesOf, inspect } from '../lib/service/index/inspect';
import { closeDb } from '../db/client';
import { ensureSalt } from '../lib/service/known-values-store';
import { type KnownEntry, holdsKnownValue, knownValuesOf } from '../lib/validators/known-values';
import type { OwnerIdentity } from '../lib/validators/types';
import { secretCheck } from '../lib/validators/secrets';
import { BENCH_NOW, PROJECT_DIR, flags, intFlag, machineLine, median } from './common';

const f = flags(process.argv.slice(2), { n: '10000', reps: '5' });
const N = intFlag(f, 'n');
const REPS = intFlag(f, 'reps');
const root = path.join(PROJECT_DIR, 'bench', '.out', `scan-n${N}`, 'root');
if (!fs.existsSync(root)) {
  process.stdout.write(`no root at ${root}: run npx tsx bench/scan.ts --n ${N} --only b first\n`);
  process.exit(0);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-known-'));
const cpu = <T>(fn: () => T): { ms: number; value: T } => {
  const c = process.cpuUsage();
  const value = fn();
  const d = process.cpuUsage(c);
  return { ms: (d.user + d.system) / 1000, value };
};

const files: { rel: string; bytes: Buffer; mtimeMs: number }[] = [];
for (const e of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
  if (!e.isFile() || !e.name.endsWith('.md')) continue;
  const p = path.join(e.parentPath, e.name);
  files.push({ rel: path.relative(root, p), bytes: fs.readFileSync(p), mtimeMs: fs.statSync(p).mtimeMs });
}
const owner: OwnerIdentity = { emails: ['owner@example.com'], homeUser: 'owner' };
const salt = ensureSalt(path.join(tmp, 'salt'));
const empty: OwnerIdentity = { ...owner, knownValues: knownValuesOf(salt, new Map()) };
// The set this root makes: every value a detector finds, as the scan collects it.
const entries = new Map<string, KnownEntry>();
for (const file of files)
  for (const [hash, len, quick, own] of credentialValuesOf(file.bytes, empty))
    if (own === 1 && !entries.has(hash)) entries.set(hash, { len, quick, id: `bench:${path.basename(file.rel)}` });
const withSet: OwnerIdentity = { ...owner, knownValues: knownValuesOf(salt, entries) };
const lengths = [...new Set([...entries.values()].map((e) => e.len))].sort((a, b) => a - b);
// A set as a person's notes make it: passwords of every length from 6 to 40 (made-up hashes;
// the cost is the tokens of those lengths, prefiltered, not the matches).
const wide = new Map(entries);
for (let len = 6; len <= 40; len++) wide.set(`${len}`.padStart(32, 'f'), { len, quick: len, id: 'bench:wide.md' });
const withWide: OwnerIdentity = { ...owner, knownValues: knownValuesOf(salt, wide) };

const s0: number[] = [];
const s1: number[] = [];
for (let r = 0; r < 15; r++) {
  s0.push(cpu(() => files.map((file) => secretCheck(file.bytes, owner).exit)).ms);
  s1.push(cpu(() => files.map((file) => secretCheck(file.bytes, withWide).exit)).ms);
}

const inspectAll = (o: OwnerIdentity) => {
  let known = 0;
  for (const file of files) {
    const ins = inspect(
      file.bytes,
      { filename: path.basename(file.rel), location: 'memories', mtimeMs: file.mtimeMs },
      o,
    );
    for (const x of ins.findings) if (x.code === 'secret.known-value') known++;
  }
  return known;
};
const a: number[] = [];
const b: number[] = [];
const w: number[] = [];
let knownFindings = 0;
for (let r = 0; r < REPS; r++) {
  a.push(cpu(() => inspectAll(empty)).ms);
  const t = cpu(() => inspectAll(withSet));
  b.push(t.ms);
  knownFindings = t.value;
  w.push(cpu(() => inspectAll(withWide)).ms);
}

const texts = files.map((file) => {
  const ins = inspect(file.bytes, { filename: path.basename(file.rel), location: 'memories', mtimeMs: 0 }, withSet);
  return `${ins.display.name ?? ''}\n${ins.display.description ?? ''}\n${ins.body}`;
});
const search: number[] = [];
let holding = 0;
for (let r = 0; r < REPS; r++) {
  const t = cpu(() => texts.filter((text) => holdsKnownValue(text, withSet.knownValues!)).length);
  search.push(t.ms);
  holding = t.value;
}

const fullScan = (fresh: boolean, rep: number) => {
  const dir = path.join(tmp, fresh ? `fresh-${rep}` : 'kept');
  fs.mkdirSync(dir, { recursive: true });
  const db = path.join(dir, 'index.sqlite');
  const env = { ...process.env, MEMTRUST_ROOT: root, MEMTRUST_DB: db, MEMTRUST_NOW: BENCH_NOW };
  const t = cpu(() => scan(createContext(loadConfig({ env }), env)));
  closeDb(db);
  for (const ext of ['', '-wal', '-shm']) fs.rmSync(db + ext, { force: true });
  return t;
};
fullScan(false, 0); // makes the kept set
const cold: number[] = [];
const warm: number[] = [];
let propagated = 0;
for (let r = 0; r < REPS; r++) {
  const t = fullScan(true, r);
  cold.push(t.ms);
  propagated = t.value.propagated ?? 0;
  warm.push(fullScan(false, r).ms);
}
fs.rmSync(tmp, { recursive: true, force: true });

const ms = (x: number) => `${x.toFixed(0)} ms`;
const least = (xs: number[]) => Math.min(...xs);
const out = [
  `value propagation, CPU time — ${new Date().toISOString()}`,
  `machine: ${machineLine()}`,
  `root: ${root} (${files.length} files); set: ${entries.size} values, lengths ${lengths.join(' ')}`,
  '',
  `(0) secret check of every file, no set ${ms(least(s0))} least, ${ms(median(s0))} median; a set of lengths 6–40 ${ms(least(s1))} least, ${ms(median(s1))} median`,
  `(1) inspect every file, no set        ${ms(median(a))}   (${a.map(ms).join(', ')})`,
  `    inspect every file, with the set  ${ms(median(b))}   (${b.map(ms).join(', ')}); ${knownFindings} known-value findings`,
  `    with ÷ without: median ${(median(b) / median(a)).toFixed(3)}, least ${(least(b) / least(a)).toFixed(3)}`,
  `    inspect every file, a set of lengths 6–40  ${ms(median(w))}   (${w.map(ms).join(', ')}); ÷ without: median ${(median(w) / median(a)).toFixed(3)}, least ${(least(w) / least(a)).toFixed(3)}`,
  `(2) search of the stored texts, whole set joined  ${ms(median(search))}   (${search.map(ms).join(', ')}); ${holding} files hold a value`,
  `(3) full scan (workers: none), fresh data dir  ${ms(median(cold))}   (${cold.map(ms).join(', ')}); ${propagated} files checked again`,
  `    full scan (workers: none), set kept         ${ms(median(warm))}   (${warm.map(ms).join(', ')})`,
  `    the search ÷ a full scan: ${(median(search) / median(warm)).toFixed(3)}; the tokens (with set − without) ÷ a full scan: ${((median(b) - median(a)) / median(warm)).toFixed(3)}`,
];
process.stdout.write(`${out.join('\n')}\n`);
