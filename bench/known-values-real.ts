/**
 * The secret check with a set of known values (docs/credentials.md, "Value propagation",
 * "Cost"), today beside earlier commits, on real memory folders, in one process, as CPU time
 * (user + system; the machine's load moves walls more than the work does). Every side is
 * bundled as the CLI runs it (bench/baseline.ts loadBundledValidators); the sides take turns
 * each round and the least of --reps rounds is kept.
 *
 *   npx tsx bench/known-values-real.ts --dirs DIR[,DIR…] --baseline REV[,REV…] [--reps 12]
 *
 * Two sets, both given to every side (a commit before propagation ignores them):
 *   files  — the set the folders make themselves: every value a detector finds as a credential
 *            in any of the files, as the scan collects it (credentialValuesOf), hashed under a
 *            salt made for the run; so every value occurs, and is matched, where it stands again;
 *   20/40  — 26 made-up values of lengths 20 and 40 that occur nowhere (the tokens' cost alone).
 * It prints, per set and side, the CPU time and today's throughput ÷ the side's, and whether
 * today's findings (code, line, message per file; never a value) are those of each side that
 * reads the set.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { credentialValuesOf } from '../lib/service/index/inspect';
import { type KnownEntry, type KnownValues, entryOf, knownValuesOf } from '../lib/validators/known-values';
import type { OwnerIdentity, Verdict } from '../lib/validators/types';
import { checkCommit, loadBundledValidators } from './baseline';
import { flags, intFlag, machineLine, table } from './common';

const f = flags(process.argv.slice(2), { dirs: '', baseline: '', reps: '12' });
const REPS = intFlag(f, 'reps');
const DIRS = f.dirs!.split(',').filter(Boolean);
if (DIRS.length === 0) {
  process.stderr.write('--dirs: name one or more folders of memory files (comma list)\n');
  process.exit(64);
}
const BASELINES = f.baseline!.split(',').filter(Boolean).map(checkCommit);

const files: Buffer[] = [];
for (const d of DIRS) {
  if (!fs.existsSync(d)) {
    process.stderr.write(`--dirs: ${d} is missing\n`);
    process.exit(1);
  }
  for (const e of fs.readdirSync(d, { withFileTypes: true, recursive: true }))
    if (e.isFile() && e.name.endsWith('.md')) files.push(fs.readFileSync(path.join(e.parentPath, e.name)));
}

const owner: OwnerIdentity = { emails: ['nobody@example.invalid'], homeUser: 'nobody-at-all' };
const salt = crypto.randomBytes(32);
const withSet = (k: KnownValues): OwnerIdentity => ({ ...owner, knownValues: k });

const own = new Map<string, KnownEntry>();
const empty = withSet(knownValuesOf(salt, new Map()));
for (const b of files)
  for (const [hash, len, quick, isOwn] of credentialValuesOf(b, empty))
    if (isOwn === 1 && !own.has(hash)) own.set(hash, { len, quick, id: 'bench:file.md' });
const made = new Map<string, KnownEntry>();
for (let i = 0; i < 26; i++) {
  const len = i % 2 === 0 ? 20 : 40;
  const e = entryOf(
    salt,
    `${crypto
      .randomBytes(40)
      .toString('base64url')
      .slice(0, len - 1)}!`,
  );
  made.set(e.hash, { len: e.len, quick: e.quick, id: 'bench:made.md' });
}
const sets: [string, OwnerIdentity][] = [
  ['files', withSet(knownValuesOf(salt, own))],
  ['20/40', withSet(knownValuesOf(salt, made))],
];
const lengths = new Set([...own.values()].map((e) => Math.abs(e.len)));

type Check = (b: Buffer, o: OwnerIdentity) => Verdict;
const sides: [string, Check][] = [
  ['today', loadBundledValidators('today').secret],
  ...BASELINES.map((rev): [string, Check] => [rev, loadBundledValidators(rev).secret]),
];

const cpu = (fn: () => void): number => {
  const c = process.cpuUsage();
  fn();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
};
/** Per file, the findings as code, line and message (a message names a length, never a value). */
function digest(check: Check, o: OwnerIdentity): string {
  const h = crypto.createHash('sha256');
  for (const b of files) h.update(`${JSON.stringify(check(b, o).findings.map((x) => [x.code, x.line, x.message]))}\n`);
  return h.digest('hex');
}

console.log(`bench/known-values-real.ts — ${machineLine()}`);
console.log(
  `${files.length} files; set "files": ${own.size} values of ${lengths.size} lengths; set "20/40": ${made.size} values`,
);
const rows: string[][] = [['set', 'validators', 'CPU (least)', 'today ÷ side', 'same findings as today']];
for (const [name, o] of sets) {
  const best = sides.map(() => Infinity);
  for (let r = 0; r < REPS; r++)
    for (let i = 0; i < sides.length; i++) {
      const check = sides[i]![1];
      best[i] = Math.min(
        best[i]!,
        cpu(() => {
          for (const b of files) check(b, o);
        }),
      );
    }
  const mine = digest(sides[0]![1], o);
  for (let i = 0; i < sides.length; i++) {
    const [side, check] = sides[i]!;
    rows.push([
      name,
      side,
      `${best[i]!.toFixed(0)} ms`,
      i === 0 ? '—' : `${(best[i]! / best[0]!).toFixed(3)}×`,
      i === 0 ? '—' : digest(check, o) === mine ? 'yes' : 'no',
    ]);
  }
}
console.log(`\n${table(rows)}`);
console.log(`\ntoday ÷ side: the side's CPU over today's (above 1: today is faster). load after: ${machineLine()}`);
