/**
 * Reading a sharded canonical store (layout 3) with staleness and target re-verify,
 * beside a plain read of the same files.
 *
 *   npx tsx bench/canonical.ts [--n 500] [--commits 2000] [--reps 5] [--keep no]
 *
 * Builds, in a temp dir, a project whose git history has --commits commits (made with
 * one `git fast-import`, each touching one of 200 source files) and a
 * `.claude/memory/` of --n sharded entries over the eight categories. Entries carry a
 * `verified-at` SHA spread over the history (some not in it at all), a `path:line`
 * target or a `governs` list with globs, and every tenth is not strict YAML.
 *   (a) floor: readdir of each category folder + readFileSync of every entry, best of --reps;
 *   (b) `read()` of lib/sources/canonical: parse, one git walk, staleness for every
 *       entry, targets re-verified — median of --reps. Target: < 1 s at n = 500.
 *   (c) the same store through the registered adapter (`canonicalLayout.read` of the
 *       project root, what the record service calls: detection + (b) + the record
 *       mapping), median of --reps; and its `changeToken` (what the service checks
 *       before it reads again).
 * Diagnostics: (b) with re-verify off, and the parts of (b) as read() reports them.
 * Exit 0 always; PASS/MISS per target.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalLayout } from '../lib/sources/canonical/adapter';
import { read } from '../lib/sources/canonical/read';
import { CATEGORIES } from '../lib/sources/canonical/types';
import { BENCH_NOW, flags, fmtMs, intFlag, machineLine, median, note, table, verdict } from './common';

const f = flags(process.argv.slice(2), { n: '500', commits: '2000', reps: '5', keep: 'no' });
const N = intFlag(f, 'n');
const COMMITS = intFlag(f, 'commits');
const REPS = intFlag(f, 'reps');
const TARGET_MS = 1000;
const SOURCES = 200;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-canonical-'));
const proj = path.join(tmp, 'project');
const mem = path.join(proj, '.claude', 'memory');

const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmp };
const git = (args: string[], input?: string) =>
  execFileSync('git', ['-C', proj, ...args], { env: gitEnv, input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

function srcFile(i: number): string {
  return `src/mod${i % 20}/file${i}.ts`;
}

function srcText(i: number, rev: number): string {
  const lines = [`// file ${i} revision ${rev}`];
  for (let l = 2; l <= 80; l++)
    lines.push(l === 40 ? `export function symbol${i}() { return ${rev}; }` : `const v${l} = ${l};`);
  return `${lines.join('\n')}\n`;
}

/** The whole history in one `git fast-import` stream; returns the SHAs, oldest first. */
function buildHistory(): string[] {
  fs.mkdirSync(proj, { recursive: true });
  git(['init', '-q', '-b', 'main']);
  const parts: string[] = [];
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}`;
  const t0 = 1_760_000_000;
  for (let c = 1; c <= COMMITS; c++) {
    parts.push(
      'commit refs/heads/main',
      `mark :${c}`,
      `committer Bench <bench@example.invalid> ${t0 + c * 600} +0000`,
      data(`change ${c}`),
    );
    if (c > 1) parts.push(`from :${c - 1}`);
    if (c === 1) for (let i = 0; i < SOURCES; i++) parts.push(`M 100644 inline ${srcFile(i)}`, data(srcText(i, 0)));
    else parts.push(`M 100644 inline ${srcFile(c % SOURCES)}`, data(srcText(c % SOURCES, c)));
  }
  parts.push('');
  git(['fast-import', '--quiet'], parts.join('\n'));
  git(['reset', '-q', '--hard', 'main']);
  return git(['log', '--reverse', '--format=%h', '--abbrev=7', 'main']).trim().split('\n');
}

function writeStore(shas: string[]): void {
  for (let e = 0; e < N; e++) {
    const cat = CATEGORIES[e % CATEGORIES.length]!;
    const src = e % SOURCES;
    const sha = e % 25 === 0 ? 'f00dfee' : shas[Math.floor((e * 7919) % shas.length)]!;
    const lines = [
      '---',
      // Every tenth key is not strict YAML (an unquoted @scope/pkg@version).
      `key: ${e % 10 === 0 ? `@scope/pkg-${e}@1.${e % 7}` : `${srcFile(src)}:40#${e}`}`,
      `category: ${cat}`,
      `scope: [scout]`,
      e % 3 === 0
        ? `governs: src/mod${src % 20}/**, ${srcFile(src)}, docs/gone-${e}.md`
        : `target: ${srcFile(src)}:40 (symbol${src})`,
      `source: ${e % 2 ? 'inferred-from-code' : 'user-instruction'}`,
      `verified-at: ${sha}`,
      `last-touched: 2026-0${1 + (e % 9)}-15`,
      e % 10 === 5 ? `caveat: read this: it has a colon inside` : `status: open`,
      '---',
      '',
      `- Role: generated entry ${e} for the benchmark.`,
      `- Detail: ${'text '.repeat(40)}`,
      '',
    ];
    const dir = path.join(mem, cat);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `entry-${e}.md`), lines.join('\n'));
  }
  fs.writeFileSync(path.join(mem, 'README.md'), '# memory\n');
}

function floor(): number {
  const t = performance.now();
  let bytes = 0;
  for (const c of CATEGORIES) {
    const dir = path.join(mem, c);
    for (const name of fs.readdirSync(dir)) bytes += fs.readFileSync(path.join(dir, name)).length;
  }
  if (bytes === 0) throw new Error('empty store');
  return performance.now() - t;
}

note(`building ${COMMITS} commits and ${N} entries in ${tmp}`);
const shas = buildHistory();
writeStore(shas);
const now = new Date(BENCH_NOW);

const floors: number[] = [];
const fulls: number[] = [];
const noVerify: number[] = [];
const adapterReads: number[] = [];
const tokens: number[] = [];
let adapterRecords = 0;
let last: ReturnType<typeof read> | null = null;
read(mem, { now }); // warm-up (JIT, page cache)
for (let r = 0; r < REPS; r++) {
  floors.push(floor());
  let t = performance.now();
  last = read(mem, { now });
  fulls.push(performance.now() - t);
  t = performance.now();
  read(mem, { now, verify: false });
  noVerify.push(performance.now() - t);
  t = performance.now();
  adapterRecords = canonicalLayout.read(proj, { now, sourceId: 'bench' }).records.length;
  adapterReads.push(performance.now() - t);
  t = performance.now();
  canonicalLayout.changeToken(proj);
  tokens.push(performance.now() - t);
}
const res = last!;
const count = (flag: string) => res.records.filter((x) => x.flags.includes(flag as never)).length;
const floorMs = Math.min(...floors);
const fullMs = median(fulls);

console.log(`# canonical store read (layout 3), n = ${N}, ${COMMITS} commits`);
console.log(machineLine());
console.log('');
console.log(
  table([
    ['measure', 'time', 'note'],
    ['(a) floor: readdir + readFileSync of every entry', fmtMs(floorMs), `best of ${REPS}`],
    [
      '(b) read() with staleness + re-verify',
      fmtMs(fullMs),
      `median of ${REPS}; ${(fullMs / floorMs).toFixed(1)}x floor`,
    ],
    [
      '(c) canonicalLayout.read(project root), as the service reads it',
      fmtMs(median(adapterReads)),
      `median of ${REPS}; ${adapterRecords} records`,
    ],
    ['    canonicalLayout.changeToken(project root)', fmtMs(median(tokens)), `median of ${REPS}`],
    ['    read() without re-verify (diagnostic)', fmtMs(median(noVerify)), ''],
    ['    parts of the last (b): parse', fmtMs(res.timings.parseMs), ''],
    ['    parts of the last (b): one git walk', fmtMs(res.timings.gitMs), ''],
    ['    parts of the last (b): re-verify (ls-files, check-ignore, reads)', fmtMs(res.timings.verifyMs), ''],
    ['    parts of the last (b): staleness, flags, records', fmtMs(res.timings.recordsMs), ''],
  ]),
);
console.log('');
console.log(
  `records ${res.records.length}, stale ${count('stale')}, suspect ${count('suspect')}, failures ${res.failures.length}`,
);
console.log(`(b) < ${TARGET_MS} ms at n = ${N}: ${verdict(fullMs < TARGET_MS)}`);
console.log(`(c) < ${TARGET_MS} ms at n = ${N}: ${verdict(median(adapterReads) < TARGET_MS)}`);

if (f.keep !== 'yes') fs.rmSync(tmp, { recursive: true, force: true });
else note(`kept ${tmp}`);
