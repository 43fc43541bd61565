/**
 * How much of the credential check's false findings on real folders is value propagation
 * (docs/credentials.md, "Value propagation"): the same scoring as bench/credentials-real.ts, once
 * as the rules find, then with a file's `secret.known-value` findings dropped when it has more than
 * CAP of them (a value repeated on many lines of one note), for each cap listed.
 *
 *   npx tsx bench/credentials-propagation.ts --tune-dir DIR[,DIR…] --folders r27-r43 [--rules REV] [--caps 1,2,3,5]
 *
 * Tune fold only. A what-if, not a rule: the contract makes every occurrence a finding.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { OwnerIdentity } from '../lib/validators/types';
import { loadBundledValidators } from './baseline';
import { flags } from './common';
import { readFolders, readLabels } from './real-credentials/folders';

const f = flags(process.argv.slice(2), { 'tune-dir': '', folders: 'r01-r43', rules: 'today', caps: '0,1,2,3,5' });
const DIRS = f['tune-dir']!.split(',').filter(Boolean);
const [lo, hi] = f.folders!.split('-').map((x) => Number(x.replace(/^r/, '')));
const CAPS = [Number.POSITIVE_INFINITY, ...f.caps!.split(',').map(Number)];
const owner: OwnerIdentity = { emails: ['nobody@example.invalid'], homeUser: 'nobody-at-all' };
const check = loadBundledValidators(f.rules === 'today' ? 'today' : f.rules!).secret;

function mdFiles(dir: string, base = dir): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? mdFiles(path.join(dir, e.name), base)
        : e.isFile() && e.name.endsWith('.md')
          ? [path.relative(base, path.join(dir, e.name)).split(path.sep).join('/')]
          : [],
    );
}

function main(): void {
  const want = new Map<string, Map<number, number>>();
  for (const l of readLabels()) {
    if (l.kind !== 'credential') continue;
    const m = want.get(`${l.folder}/${l.file}`) ?? new Map<number, number>();
    m.set(l.line, (m.get(l.line) ?? 0) + 1);
    want.set(`${l.folder}/${l.file}`, m);
  }
  const tally = CAPS.map(() => ({ labels: 0, found: 0, falses: 0 }));
  let files = 0;
  const ids = readFolders().filter((x) => {
    const n = Number(x.id.slice(1));
    return x.fold === 'tune' && n >= lo! && n <= (hi ?? lo)!;
  });
  for (const folder of ids) {
    const dir = DIRS.map((d) => path.join(d, folder.id)).find((d) => fs.existsSync(d));
    if (!dir) throw new Error(`no copy of ${folder.id} in --tune-dir`);
    for (const rel of mdFiles(dir)) {
      files++;
      const wanted = want.get(`${folder.id}/${rel}`) ?? new Map<number, number>();
      const xs = check(fs.readFileSync(path.join(dir, rel)), owner).findings.filter(
        (x) => x.class === 'credential' && x.code !== 'secret.ssh-fingerprint',
      );
      const known = xs.filter((x) => x.code === 'secret.known-value').length;
      CAPS.forEach((cap, i) => {
        const t = tally[i]!;
        const got = new Map<number, number>();
        for (const x of known > cap ? xs.filter((y) => y.code !== 'secret.known-value') : xs)
          got.set(x.line ?? 0, (got.get(x.line ?? 0) ?? 0) + 1);
        for (const [n, k] of wanted) {
          t.labels += k;
          t.found += Math.min(k, got.get(n) ?? 0);
        }
        for (const [n, k] of got) if (!wanted.has(n)) t.falses += k;
      });
    }
  }
  console.log(`rules ${f.rules}; folders ${f.folders} (${ids.length}, ${files} files)`);
  CAPS.forEach((cap, i) => {
    const t = tally[i]!;
    const name = cap === Number.POSITIVE_INFINITY ? 'as found' : `known-value findings dropped past ${cap} in a file`;
    console.log(
      `${name}: recall ${((t.found / t.labels) * 100).toFixed(1)} % (${t.found}/${t.labels}), false ${t.falses}, per 200 files ${((t.falses / files) * 200).toFixed(2)}`,
    );
  });
}

main();
