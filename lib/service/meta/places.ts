/**
 * Where memtrust keeps its own files for a root (CONTRACT §2.5; docs/batches.md "Where
 * memtrust's own files live"; docs/crash-safety.md).
 *
 * - Undo copies (batches) always live in the data directory, keyed by root:
 *   `<data>/roots/<key>/batches/`, never inside a synced root or a git work tree.
 * - A root inside a git work tree that is not a trust-model root (a Claude Code folder
 *   committed with its project, a canonical `.claude/memory/`) keeps everything else —
 *   audit trail, journal, lock, stash — there too, so `git status` after an action shows
 *   only the memory files it changed.
 * - Any other root keeps them in `<root>/.memtrust/` as before; a trust-model root's audit
 *   trail travels with it (seed 000's sync) and `.memtrust/.gitignore` ignores the rest.
 *
 * Earlier versions kept everything in `<root>/.memtrust/`: readers look there too (legacy).
 */
import { sha256Hex } from '../../core/hash';
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from '../../core/config';

let dataOverride: string | null = null;
const dataOfRoot = new Map<string, string>();

/**
 * The data directory of a configuration and its roots (createContext sets it). Kept per
 * root, so two contexts of one process (tests) each find their own copies; a root no
 * context named uses the last one set, else the environment's.
 */
export function setDataDir(dir: string, roots: string[] = []): void {
  dataOverride = dir;
  for (const r of roots) dataOfRoot.set(path.resolve(r), dir);
}

export function dataHome(root?: string): string {
  return (root !== undefined ? dataOfRoot.get(path.resolve(root)) : undefined) ?? dataOverride ?? dataDir(process.env);
}

const realOf = new Map<string, string>();
function real(root: string): string {
  let r = realOf.get(root);
  if (r === undefined) {
    try {
      r = fs.realpathSync(root);
    } catch {
      r = path.resolve(root);
    }
    realOf.set(root, r);
  }
  return r;
}

/** A root's key in the data directory: a hash of its real path (the path itself is not a file name). */
export function rootKey(root: string): string {
  return sha256Hex(real(root)).slice(0, 24);
}

/** `<data>/roots/<key>`: the root's folder in the data directory (made 0700 when first written). */
export function rootDataDir(root: string): string {
  return path.join(dataHome(root), 'roots', rootKey(root));
}

/** Makes the root's data folder (0700) and names the root in it, for a person looking. */
const ensured = new Set<string>();

export function ensureRootDataDir(root: string): string {
  const dir = rootDataDir(root);
  if (ensured.has(dir) && fs.existsSync(dir)) return dir;
  ensured.add(dir);
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    fs.writeFileSync(path.join(dir, 'root.txt'), `${real(root)}\n`, { mode: 0o600 });
  }
  return dir;
}

const gitTops = new Map<string, string | null>();

/** The git work tree a root sits in (walking up for `.git`, once per root and process), or null. */
export function gitWorkTree(root: string): string | null {
  const r = real(root);
  if (gitTops.has(r)) return gitTops.get(r)!;
  let top: string | null = null;
  for (let dir = r; ; ) {
    if (fs.existsSync(path.join(dir, '.git'))) {
      top = dir;
      break;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  gitTops.set(r, top);
  return top;
}

/** A trust-model root (its `memories/` folder) keeps its own files inside it (seed 000's sync). */
export function keepsMetaInRoot(root: string): boolean {
  return gitWorkTree(root) === null || fs.existsSync(path.join(root, 'memories'));
}

/** Where earlier versions kept everything, and where a root that keeps its files still does. */
export function legacyMetaDir(root: string): string {
  return path.join(root, '.memtrust');
}

/**
 * Whether memtrust keeps any file of its own for this root: its folder in the root, or more
 * than the name tag (`root.txt`) in its data folder. Every journal, lock, batch and marker
 * start-up recovery looks for lives in one of the two (metaDir, metaDirsToRead, batchesHome
 * and their legacy places), so a root without is one recovery has nothing to look at: in a
 * Claude Code home, most of its 200 folders (lib/service/write/recover.ts). Looks only:
 * creates nothing, unlike metaDir.
 */
export function hasOwnFiles(root: string): boolean {
  if (fs.existsSync(legacyMetaDir(root))) return true;
  try {
    return fs.readdirSync(rootDataDir(root)).some((n) => n !== 'root.txt');
  } catch (e) {
    // No data folder: nothing there. Any other failure: look the long way.
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** What a trust-model root's `.memtrust/.gitignore` says: only the audit trail is shared. */
export const META_GITIGNORE =
  '# memtrust: only the audit trail travels with the root (docs/audit-trail.md)\n*\n!.gitignore\n!audit/\naudit/*\n!audit/*.jsonl\n';

const ignored = new Set<string>();

/**
 * The folder memtrust's own files of this root live in: `<root>/.memtrust` or the root's
 * data folder. In the root, the `.gitignore` is written once the folder exists.
 */
export function metaDir(root: string): string {
  // In the data directory: its folder is made 0700 first, so what goes in it is private.
  if (!keepsMetaInRoot(root)) return ensureRootDataDir(root);
  const dir = legacyMetaDir(root);
  if (!ignored.has(dir) && fs.existsSync(dir)) {
    ignored.add(dir);
    const file = path.join(dir, '.gitignore');
    try {
      if (!fs.existsSync(file)) fs.writeFileSync(file, META_GITIGNORE, { flag: 'wx' });
    } catch {
      // a read-only root, or another process wrote it first
    }
  }
  return dir;
}

/** Writes `<root>/.memtrust/.gitignore` (making the folder): for what must stay inside the root. */
export function ignoreOwnFolder(root: string): void {
  const dir = legacyMetaDir(root);
  fs.mkdirSync(dir, { recursive: true });
  try {
    fs.writeFileSync(path.join(dir, '.gitignore'), META_GITIGNORE, { flag: 'wx' });
  } catch {
    // there already
  }
  ignored.add(dir);
}

/**
 * The folders to read for a kind of file (`journal`, `audit`, …): the current one, then
 * the other place — an earlier version's files in the root, or files written while the
 * root was placed the other way (a fresh trust-model root in a checkout gets its
 * `memories/` with its first write).
 */
export function metaDirsToRead(root: string, sub: string): string[] {
  const cur = path.join(metaDir(root), sub);
  const others = [path.join(legacyMetaDir(root), sub), path.join(rootDataDir(root), sub)];
  return [cur, ...others.filter((d) => d !== cur && fs.existsSync(d))];
}

/** Forget cached answers (tests that turn a folder into a git checkout). */
export function forgetPlaces(): void {
  realOf.clear();
  gitTops.clear();
  dataOfRoot.clear();
  ensured.clear();
  ignored.clear();
}
