/**
 * The credential check on real memory folders nobody here wrote (bench/real-credentials/README.md):
 * recall and false credential findings per fold, scored at line level against labels.tsv.
 *
 *   npx tsx bench/credentials-real.ts [--data /work/realdata] [--folds tune] [--baseline REV]
 *                                     [--reps 3] [--show-misses] [--tune-dir DIR[,DIR…]] [--held-out-dir DIR[,DIR…]]
 *                                     [--folders r01-r26[,r30…]]
 *
 * Folds: `tune` (r01–r177, read while changing the rules) and held-out folds (`held-out-8`:
 * r178–r207, `held-out-9`: r208–r237, drawn fresh; `held-out` to `held-out-7` are empty since they
 * joined tune), never read while tuning and
 * run once to measure, as folders.json records them. --folds takes a comma list of them; default
 * tune. A folder's copy is looked for at DIR/<id>/ for each DIR --tune-dir / --held-out-dir names
 * for its fold (a comma list, in order; --held-out-dir serves every held-out fold, ids being unique),
 * then at DATA/<fold>/<id>/, then DATA/unseen/<id>/ and DATA/tune/<id>/ (copies made under
 * the older fold names), where bench/real-credentials/copy.ts put it. For each fold the secret
 * check runs over every `*.md` file as bench/false-findings.ts runs it (an owner nobody is, so no
 * address or home is spared). Scoring, per file and line: a line with k credential labels and f
 * credential findings counts min(k, f) found and k − min(k, f) missed; a credential finding on a
 * line without a credential label is a false one. Throughput is the secret check alone, CPU time,
 * best of --reps passes over bytes already read, both sides bundled as the CLI runs them.
 * --folders keeps only those folders of each fold (ids or ranges), for leave-folders-out checks
 * inside tune (tune on one group, score the other). --baseline REV prints the same for that commit's validators (bench/baseline.ts) beside today's.
 * --show-misses lists each missed and false item of the tune fold (folder/file:line, the finding,
 * the line with its values masked); it never lists anything of the held-out fold.
 * Exit 0 always; 64 on a bad argument; 1 when a folder's copy is missing or labels point at
 * files the data lacks.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Finding, OwnerIdentity, Verdict } from '../lib/validators/types';
import { checkCommit, loadBundledValidators } from './baseline';
import { flags, intFlag, machineLine, table } from './common';
import { maskLine } from './mask-line';
import {
  FOLDS,
  type Fold,
  type RealFolder,
  type RealLabel,
  foldDirs,
  readFolders,
  readLabels,
} from './real-credentials/folders';

const argv = process.argv.slice(2);
const SHOW = argv.includes('--show-misses');
const f = flags(
  argv.filter((a) => a !== '--show-misses'),
  {
    data: '/work/realdata',
    baseline: '',
    folds: 'tune',
    reps: '3',
    'tune-dir': '',
    'held-out-dir': '',
    folders: '',
  },
);
/** --folders r01-r26,r40: the folders of the fold(s) to score, for leave-folders-out checks; default all. */
function folderFilter(spec: string): ((id: string) => boolean) | undefined {
  if (!spec) return undefined;
  const num = (id: string) => Number(id.replace(/^r/, ''));
  const parts = spec.split(',').map((x) => {
    const m = /^(r\d+)(?:-(r\d+))?$/.exec(x.trim());
    if (!m) {
      process.stderr.write(`--folders: expected ids or ranges like r01-r26, got ${JSON.stringify(x)}\n`);
      process.exit(64);
    }
    return [num(m[1]!), num(m[2] ?? m[1]!)] as const;
  });
  return (id) => parts.some(([a, b]) => num(id) >= a && num(id) <= b);
}
const IN_FOLDERS = folderFilter(f.folders!);
const DATA = path.resolve(f.data!);
/** --tune-dir / --held-out-dir: one folder or a comma list, searched in order (a spent fold's copies stay where they were kept). */
const dirList = (v: string | undefined): string[] =>
  v
    ? v
        .split(',')
        .filter(Boolean)
        .map((d) => path.resolve(d))
    : [];
const HELD_OUT_DIRS = dirList(f['held-out-dir']);
const FOLD_DIR: Record<Fold, string[]> = {
  tune: dirList(f['tune-dir']),
  'held-out': HELD_OUT_DIRS,
  'held-out-2': HELD_OUT_DIRS,
  'held-out-3': HELD_OUT_DIRS,
  'held-out-4': HELD_OUT_DIRS,
  'held-out-5': HELD_OUT_DIRS,
  'held-out-6': HELD_OUT_DIRS,
  'held-out-7': HELD_OUT_DIRS,
  'held-out-8': HELD_OUT_DIRS,
  'held-out-9': HELD_OUT_DIRS,
};
const BASELINE = f.baseline ? checkCommit(f.baseline) : undefined;
const REPS = intFlag(f, 'reps');

const owner: OwnerIdentity = { emails: ['nobody@example.invalid'], homeUser: 'nobody-at-all' };
type SecretCheck = (b: Buffer, o: OwnerIdentity) => Verdict;

/** The fold names asked for, in print order. */
function foldsAsked(spec: string): Fold[] {
  const out: Fold[] = [];
  for (const x of spec.split(',').map((y) => y.trim())) {
    if ((FOLDS as readonly string[]).includes(x)) out.push(x as Fold);
    else {
      process.stderr.write(`--folds: unknown fold ${JSON.stringify(x)} (known: ${FOLDS.join(', ')})\n`);
      process.exit(64);
    }
  }
  return [...new Set(out)];
}

/** Where a folder's copy is: the fold's own dir when one was given, else the first DATA sub-folder holding it. */
function folderDir(folder: RealFolder): string {
  const own = FOLD_DIR[folder.fold].map((d) => path.join(d, folder.id));
  const dirs = [...own, ...foldDirs(folder.fold).map((d) => path.join(DATA, d, folder.id))];
  return dirs.find((d) => fs.existsSync(d)) ?? dirs[0]!;
}

interface FileData {
  folder: string;
  rel: string;
  bytes: Buffer;
}

function markdownFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...markdownFiles(p, base));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(path.relative(base, p).split(path.sep).join('/'));
  }
  return out.sort();
}

function readFold(folders: RealFolder[]): FileData[] {
  const files: FileData[] = [];
  for (const folder of folders) {
    const dir = folderDir(folder);
    if (!fs.existsSync(dir)) {
      process.stderr.write(
        `${dir} is missing: run \`npx tsx bench/real-credentials/copy.ts --out ${DATA}\` first, or name the fold's folder with --${folder.fold === 'tune' ? 'tune' : 'held-out'}-dir (bench/real-credentials/README.md)\n`,
      );
      process.exit(1);
    }
    for (const rel of markdownFiles(dir))
      files.push({ folder: folder.id, rel, bytes: fs.readFileSync(path.join(dir, rel)) });
  }
  return files;
}

const key = (folder: string, rel: string) => `${folder}/${rel}`;

interface Item {
  where: string;
  line: number;
  what: string;
  text: string;
}

interface Score {
  folders: number;
  files: number;
  labels: number;
  found: number;
  missed: number;
  falses: number;
  /** SSH key fingerprints on unlabelled lines: findings by CONTRACT §2.2, not credentials, so counted apart. */
  fingerprints: number;
  cpuMs: number;
  missedItems: Item[];
  falseItems: Item[];
}

/** The contract keeps SSH fingerprints as secret-check findings (CONTRACT §2.2); the labels do not call them credentials. */
const FINGERPRINT = 'secret.ssh-fingerprint';

function credentialFindings(v: Verdict): Finding[] {
  return v.findings.filter((x) => x.class === 'credential');
}

function lineOf(bytes: Buffer, n: number): string {
  return bytes.toString('utf8').split('\n')[n - 1] ?? '';
}

function score(
  check: SecretCheck,
  folders: RealFolder[],
  files: FileData[],
  labels: RealLabel[],
  keep: boolean,
): Score {
  const byLine = new Map<string, Map<number, number>>();
  for (const l of labels) {
    if (l.kind !== 'credential') continue;
    const m = byLine.get(key(l.folder, l.file)) ?? new Map<number, number>();
    m.set(l.line, (m.get(l.line) ?? 0) + 1);
    byLine.set(key(l.folder, l.file), m);
  }
  const s: Score = {
    folders: folders.length,
    files: files.length,
    labels: 0,
    found: 0,
    missed: 0,
    falses: 0,
    fingerprints: 0,
    cpuMs: 0,
    missedItems: [],
    falseItems: [],
  };
  for (const file of files) {
    const k = key(file.folder, file.rel);
    const wanted = byLine.get(k) ?? new Map<number, number>();
    const got = new Map<number, Finding[]>();
    for (const x of credentialFindings(check(file.bytes, owner))) {
      const n = x.line ?? 0;
      got.set(n, [...(got.get(n) ?? []), x]);
    }
    for (const [n, want] of wanted) {
      const hits = Math.min(want, got.get(n)?.length ?? 0);
      s.labels += want;
      s.found += hits;
      s.missed += want - hits;
      if (keep && hits < want) s.missedItems.push({ where: k, line: n, what: 'missed', text: lineOf(file.bytes, n) });
    }
    for (const [n, xs] of got) {
      if (wanted.has(n)) continue;
      const prints = xs.filter((x) => x.code === FINGERPRINT).length;
      s.fingerprints += prints;
      s.falses += xs.length - prints;
      if (keep) {
        for (const x of xs.filter((y) => y.code !== FINGERPRINT))
          s.falseItems.push({ where: k, line: n, what: `false: ${x.code}`, text: lineOf(file.bytes, n) });
      }
    }
  }
  let best = Infinity;
  for (let r = 0; r < REPS; r++) {
    const t = process.cpuUsage();
    for (const file of files) check(file.bytes, owner);
    const d = process.cpuUsage(t);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  s.cpuMs = best;
  return s;
}

const pct = (a: number, b: number) => (b === 0 ? '—' : `${((a / b) * 100).toFixed(1)} %`);
const per200 = (n: number, files: number) => (files === 0 ? '—' : ((n / files) * 200).toFixed(2));
const rate = (files: number, ms: number) =>
  ms <= 0 ? '—' : `${Math.round((files / ms) * 1000).toLocaleString('en')} files/s`;

function rows(name: string, s: Score, side: string): string[] {
  return [
    name,
    side,
    String(s.folders),
    String(s.files),
    String(s.labels),
    String(s.found),
    String(s.missed),
    pct(s.found, s.labels),
    String(s.falses),
    per200(s.falses, s.files),
    String(s.fingerprints),
    rate(s.files, s.cpuMs),
    `${s.cpuMs.toFixed(0)} ms`,
  ];
}

function main(): void {
  const folders = readFolders();
  const labels = readLabels();
  const asked = foldsAsked(f.folds!);
  console.log(`bench/credentials-real.ts — ${machineLine()}`);
  console.log(`data: ${DATA}; labels: ${labels.filter((l) => l.kind === 'credential').length} credential rows`);
  const today = loadBundledValidators('today').secret;
  const before = BASELINE ? loadBundledValidators(BASELINE).secret : undefined;
  const head = [
    'fold',
    'validators',
    'folders',
    'files',
    'labels',
    'found',
    'missed',
    'recall',
    'false',
    'false/200 files',
    'SSH fingerprints',
    'throughput',
    'CPU',
  ];
  const out: string[][] = [head];
  let shown: Score | undefined;
  for (const name of asked) {
    const fs_ = folders.filter((x) => x.fold === name && (IN_FOLDERS?.(x.id) ?? true));
    const files = readFold(fs_);
    const ids = new Set(fs_.map((x) => x.id));
    const ls = labels.filter((l) => ids.has(l.folder));
    const present = new Set(files.map((x) => key(x.folder, x.rel)));
    const stray = ls.filter((l) => !present.has(key(l.folder, l.file)));
    if (stray.length > 0) {
      process.stderr.write(
        `${stray.length} label(s) of fold ${name} point at files the data lacks (first: ${stray[0]!.folder}/${stray[0]!.file}); copy again\n`,
      );
      process.exit(1);
    }
    const t = score(today, fs_, files, ls, SHOW && name === 'tune');
    out.push(rows(name, t, 'today'));
    if (before) out.push(rows(name, score(before, fs_, files, ls, false), BASELINE!));
    if (name === 'tune') shown = t;
  }
  console.log(`\n${table(out)}`);
  console.log('\nfound/missed: labelled credential lines with / without a credential finding on them;');
  console.log('false: credential findings on lines without a credential label (per 200 files of the fold).');
  console.log(
    'SSH fingerprints: findings CONTRACT §2.2 keeps, on unlabelled lines; not credentials, not counted as false.',
  );
  if (SHOW) {
    if (!shown) {
      console.log('\n--show-misses lists the tune fold only (never the held-out one); add tune to --folds.');
      return;
    }
    console.log(
      `\nTune fold, missed (${shown.missedItems.length}) and false (${shown.falseItems.length}), values masked:`,
    );
    for (const it of [...shown.missedItems, ...shown.falseItems]) {
      console.log(`${it.where}:${it.line}  [${it.what}]  ${maskLine(it.text.trim())}`);
    }
  }
}

main();
