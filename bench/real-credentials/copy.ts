/**
 * Copies the real memory folders the credential evaluation reads (bench/real-credentials/README.md)
 * out of local git snapshots, at the commits pinned in folders.json, into a folder outside the
 * repository. Nothing of those folders is kept in the repository: only their ids, repositories,
 * commits, paths, folds and the labels in labels.tsv.
 *
 *   npx tsx bench/real-credentials/copy.ts [--mirrors /work/.mirror] [--out /work/realdata]
 *                                          [--folds tune,held-out,held-out-2]
 *
 * A snapshot is a bare git directory at MIRRORS/<owner>+<name>/repo (or MIRRORS/<owner>+<name>
 * itself). Each folder's Markdown files (`*.md`, every depth) are written to
 * OUT/<fold>/<id>/… (README.md "Folds"; --folds copies only the folds named, default all), the
 * folder's own path inside its repository stripped. Blobs are read one by one with
 * `git cat-file`, so a snapshot that lacks some large unrelated file still copies. A folder
 * whose snapshot or commit is missing is named with the way to get it; the others still copy.
 * Exit 1 when any folder could not be copied whole, 0 otherwise.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { flags } from '../common';
import { FOLDS, type RealFolder, foldDir, readFolders } from './folders';

const f = flags(process.argv.slice(2), { mirrors: '/work/.mirror', out: '/work/realdata', folds: FOLDS.join(',') });
const ASKED = f.folds!.split(',').map((x) => x.trim());
for (const x of ASKED) {
  if (!(FOLDS as readonly string[]).includes(x)) {
    process.stderr.write(`--folds: unknown fold ${JSON.stringify(x)} (known: ${FOLDS.join(', ')})\n`);
    process.exit(64);
  }
}
const MIRRORS = path.resolve(f.mirrors!);
const OUT = path.resolve(f.out!);

function gitDir(repo: string): string | undefined {
  const base = path.join(MIRRORS, repo.replace('/', '+'));
  for (const d of [path.join(base, 'repo'), base]) {
    if (fs.existsSync(path.join(d, 'HEAD')) && fs.existsSync(path.join(d, 'objects'))) return d;
  }
  return undefined;
}

function git(dir: string, args: string[], input?: Buffer): Buffer {
  return execFileSync('git', ['--git-dir', dir, ...args], {
    input,
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Every `*.md` blob under the folder at the pinned commit: [relative path, blob id]. */
function markdownBlobs(dir: string, folder: RealFolder): Array<[string, string]> {
  const args = ['ls-tree', '-r', '-z', folder.commit];
  if (folder.path !== '.') args.push('--', `${folder.path}/`);
  const out: Array<[string, string]> = [];
  for (const entry of git(dir, args).toString('utf8').split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab === -1) continue;
    const [, type, sha] = entry.slice(0, tab).split(' ');
    const p = entry.slice(tab + 1);
    if (type !== 'blob' || !p.endsWith('.md')) continue;
    out.push([folder.path === '.' ? p : p.slice(folder.path.length + 1), sha!]);
  }
  return out;
}

/** Reads blobs through one `git cat-file --batch`: id → bytes (absent when the snapshot lacks it). */
function readBlobs(dir: string, shas: string[]): Map<string, Buffer> {
  const res = new Map<string, Buffer>();
  if (shas.length === 0) return res;
  const raw = git(dir, ['cat-file', '--batch'], Buffer.from(`${shas.join('\n')}\n`));
  let at = 0;
  for (const sha of shas) {
    const nl = raw.indexOf(0x0a, at);
    const head = raw.subarray(at, nl).toString('utf8');
    at = nl + 1;
    if (head.endsWith(' missing')) continue;
    const size = Number(head.split(' ')[2]);
    res.set(sha, raw.subarray(at, at + size));
    at += size + 1;
  }
  return res;
}

function copyFolder(folder: RealFolder): string | undefined {
  const dir = gitDir(folder.repo);
  const name = folder.repo.replace('/', '+');
  if (!dir) {
    return (
      `${folder.id}: no snapshot of ${folder.repo} under ${MIRRORS} (looked for ${name}/repo and ${name}). ` +
      `Get one with the library's fetch (source github:${folder.repo}), or ` +
      `\`git clone --mirror https://github.com/${folder.repo}.git ${path.join(MIRRORS, name, 'repo')}\`.`
    );
  }
  try {
    git(dir, ['cat-file', '-e', `${folder.commit}^{commit}`]);
  } catch {
    return (
      `${folder.id}: the snapshot of ${folder.repo} at ${dir} lacks commit ${folder.commit}. ` +
      `Fetch a newer snapshot (\`git --git-dir ${dir} fetch origin '+refs/*:refs/*'\`, or the library's fetch again).`
    );
  }
  const blobs = markdownBlobs(dir, folder);
  const bytes = readBlobs(
    dir,
    blobs.map(([, s]) => s),
  );
  const target = path.join(OUT, foldDir(folder.fold), folder.id);
  fs.rmSync(target, { recursive: true, force: true });
  let written = 0;
  const absent: string[] = [];
  for (const [rel, sha] of blobs) {
    const b = bytes.get(sha);
    if (!b) {
      absent.push(rel);
      continue;
    }
    const p = path.join(target, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, b);
    written++;
  }
  console.log(
    `${folder.id}  ${folder.fold.padEnd(8)}  ${String(written).padStart(5)} files  ${folder.repo}:${folder.path}`,
  );
  if (absent.length > 0) return `${folder.id}: ${absent.length} file(s) absent from the snapshot of ${folder.repo}`;
  if (written !== folder.files) {
    return `${folder.id}: wrote ${written} files, folders.json records ${folder.files}`;
  }
  return undefined;
}

function main(): void {
  const folders = readFolders().filter((x) => ASKED.includes(x.fold));
  const problems: string[] = [];
  for (const folder of folders) {
    const p = copyFolder(folder);
    if (p) problems.push(p);
  }
  if (problems.length > 0) {
    process.stderr.write(
      `\n${problems.length} folder(s) not copied whole:\n${problems.map((p) => `  ${p}`).join('\n')}\n`,
    );
    process.exit(1);
  }
  console.log(`\n${folders.length} folders copied into ${OUT}`);
}

main();
