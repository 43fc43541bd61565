/**
 * A worker thread's code: its TypeScript entry bundled with esbuild, as the CLI launcher
 * bundles the CLI, so the same worker runs under the CLI's bundle, tsx and the tests. The
 * text is kept in the project's cache (node_modules/.cache/memtrust) and built again when one
 * of the files it was built from (esbuild's metafile, kept in a manifest beside it) or the
 * lockfile changed. The caller gets the text itself, never a path another process could
 * replace or remove before the worker loads it. Null when it can be neither read nor built
 * (a read-only install, no esbuild): the caller then does the work on its own thread.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { projectDir } from '../../core/project';

interface Manifest {
  entry: string;
  stamp: string;
  inputs: string[];
  out: string;
}

const known = new Map<string, string | null>();

/** The bundled code of `entry` (a path relative to the project), reused or built; null when impossible. */
export function workerCode(name: string, entry: string): string | null {
  const dir = projectDir();
  const key = `${dir}\0${name}`;
  if (!known.has(key)) known.set(key, cached(dir, name, entry) ?? build(dir, name, entry));
  return known.get(key)!;
}

const cacheDirOf = (dir: string) => path.join(dir, 'node_modules', '.cache', 'memtrust');

function stampOf(dir: string, inputs: readonly string[]): string {
  let max = 0;
  for (const f of inputs) max = Math.max(max, fs.statSync(path.join(dir, f)).mtimeMs);
  const lock = fs.statSync(path.join(dir, 'package-lock.json')).mtimeMs;
  return `${Math.floor(max)}-${Math.floor(lock)}`;
}

/** The kept text when it is `entry`'s and every input is as it was; null otherwise (no manifest, an input gone, the file gone). */
function cached(dir: string, name: string, entry: string): string | null {
  try {
    const cacheDir = cacheDirOf(dir);
    const m = JSON.parse(fs.readFileSync(path.join(cacheDir, `${name}-manifest.json`), 'utf8')) as Manifest;
    if (m.entry !== entry || m.stamp !== stampOf(dir, m.inputs)) return null;
    return fs.readFileSync(path.join(cacheDir, m.out), 'utf8');
  } catch {
    return null;
  }
}

function build(dir: string, name: string, entry: string): string | null {
  let code: string;
  let inputs: string[];
  try {
    // Resolved from the project, not from wherever this module was bundled to.
    const esbuild = createRequire(path.join(dir, 'package.json'))('esbuild') as typeof import('esbuild');
    const r = esbuild.buildSync({
      entryPoints: [path.join(dir, entry)],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      outfile: path.join(cacheDirOf(dir), `${name}.cjs`),
      absWorkingDir: dir,
      metafile: true,
      external: ['better-sqlite3', 'next', 'server-only'],
      logLevel: 'silent',
    });
    code = r.outputFiles[0]!.text;
    inputs = Object.keys(r.metafile.inputs).filter((f) => !f.startsWith('node_modules/') && !path.isAbsolute(f));
  } catch {
    return null;
  }
  try {
    // Kept for the next process; a failure here only means the next one builds again.
    const cacheDir = cacheDirOf(dir);
    fs.mkdirSync(cacheDir, { recursive: true });
    const out = `${name}-${process.pid}-${Date.now()}.cjs`;
    fs.writeFileSync(path.join(cacheDir, out), code);
    const m: Manifest = { entry, stamp: stampOf(dir, inputs), inputs, out };
    const manifest = path.join(cacheDir, `${name}-manifest.json`);
    fs.writeFileSync(`${manifest}.${process.pid}.tmp`, JSON.stringify(m));
    fs.renameSync(`${manifest}.${process.pid}.tmp`, manifest);
    for (const old of fs.readdirSync(cacheDir))
      if (old.startsWith(`${name}-`) && old.endsWith('.cjs') && old !== out)
        fs.rmSync(path.join(cacheDir, old), { force: true });
  } catch {
    // a read-only cache
  }
  return code;
}
