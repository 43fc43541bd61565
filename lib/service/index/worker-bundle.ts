/**
 * A worker thread's script: its TypeScript entry bundled with esbuild into the project's
 * cache (node_modules/.cache/memtrust), as the CLI launcher bundles the CLI, so the same
 * worker runs under the CLI's bundle, tsx and the tests. The bundle is built again when one
 * of the files it was built from (esbuild's metafile, kept in a manifest beside it) or the
 * lockfile changed. Null when it cannot be built (a read-only install, no esbuild): the
 * caller then does the work on its own thread.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { projectDir } from '../../project';

interface Manifest {
  stamp: string;
  inputs: string[];
  out: string;
}

const built = new Map<string, string | null>();

/** The bundle of `entry` (a path relative to the project), built or reused; null when impossible. */
export function workerBundle(name: string, entry: string): string | null {
  const dir = projectDir();
  const key = `${dir}\0${name}`;
  if (!built.has(key)) built.set(key, buildOrReuse(dir, name, entry));
  return built.get(key)!;
}

function stampOf(dir: string, inputs: readonly string[]): string {
  let max = 0;
  for (const f of inputs) max = Math.max(max, fs.statSync(path.join(dir, f)).mtimeMs);
  const lock = fs.statSync(path.join(dir, 'package-lock.json')).mtimeMs;
  return `${Math.floor(max)}-${Math.floor(lock)}`;
}

function buildOrReuse(dir: string, name: string, entry: string): string | null {
  const cacheDir = path.join(dir, 'node_modules', '.cache', 'memtrust');
  const manifest = path.join(cacheDir, `${name}-manifest.json`);
  try {
    const m = JSON.parse(fs.readFileSync(manifest, 'utf8')) as Manifest;
    const out = path.join(cacheDir, m.out);
    if (m.stamp === stampOf(dir, m.inputs) && fs.existsSync(out)) return out;
  } catch {
    // no manifest yet, an input gone, or the bundle missing: build it
  }
  try {
    // Resolved from the project, not from wherever this module was bundled to.
    const esbuild = createRequire(path.join(dir, 'package.json'))('esbuild') as typeof import('esbuild');
    fs.mkdirSync(cacheDir, { recursive: true });
    const out = `${name}-${process.pid}-${Date.now()}.cjs`;
    const tmp = path.join(cacheDir, `${out}.tmp`);
    const r = esbuild.buildSync({
      entryPoints: [path.join(dir, entry)],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: tmp,
      absWorkingDir: dir,
      metafile: true,
      external: ['better-sqlite3', 'next', 'server-only'],
      logLevel: 'silent',
    });
    fs.renameSync(tmp, path.join(cacheDir, out));
    const inputs = Object.keys(r.metafile.inputs).filter((f) => !f.startsWith('node_modules/') && !path.isAbsolute(f));
    const m: Manifest = { stamp: stampOf(dir, inputs), inputs, out };
    const mtmp = `${manifest}.${process.pid}.tmp`;
    fs.writeFileSync(mtmp, JSON.stringify(m));
    fs.renameSync(mtmp, manifest);
    // Older bundles of this worker go; one another process still runs keeps working (it is loaded).
    for (const old of fs.readdirSync(cacheDir))
      if (old.startsWith(`${name}-`) && old.endsWith('.cjs') && old !== out)
        fs.rmSync(path.join(cacheDir, old), { force: true });
    return path.join(cacheDir, out);
  } catch {
    return null;
  }
}
