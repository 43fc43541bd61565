/**
 * Loads a file of the hook build through V8's code cache: the guard's validators
 * (dist/hooks/pre-write-deps.cjs), which a write into a memory root loads in a cold process.
 * Compiling them again on every such write is about a fifth of the guard's own time; with the
 * cache, what the last run compiled (the cache is made when the process ends, so it holds the
 * functions the run used, not only the file's top level) is read back instead
 * (docs/performance.md, "The hooks").
 *
 * The cache lives in the user's data directory (never beside the bundle: a package or a
 * checkout must not carry one), named for the file's identity (inode, size, change time),
 * Node's version and the platform: a new install or a rebuilt bundle gets a cache of its own,
 * and older ones of that file are removed when it is written. V8 rejects a cache of another
 * build itself; any failure falls back to a plain require. Which cache is read and when one is
 * written is lib/core/code-cache-run.cjs, shared with the CLI launcher's (lib/cli/memtrust.cjs).
 */
import fs from 'node:fs';
import path from 'node:path';
import type vm from 'node:vm';
import { runWithCodeCache } from '../core/code-cache-run.cjs';

/** A short key of the folder a bundle is in: two installs (a plugin, a package) keep their own caches. */
function folderKey(dir: string): string {
  let h = 2166136261;
  for (let i = 0; i < dir.length; i++) h = Math.imul(h ^ dir.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The cache file for `file` in `cacheDir` ([prefix shared by its older caches, path]), or null when the file cannot be read. */
export function codeCachePath(file: string, cacheDir: string): { prefix: string; path: string; checks: string } | null {
  let st: fs.BigIntStats;
  try {
    st = fs.statSync(file, { bigint: true });
  } catch {
    return null;
  }
  const prefix = `${path.basename(file)}.${folderKey(path.dirname(path.resolve(file)))}.`;
  const id = `${st.ino}-${st.size}-${st.ctimeNs}-${process.version}-${process.platform}-${process.arch}`;
  return {
    prefix,
    path: path.join(cacheDir, `${prefix}${id}.v8`),
    checks: path.join(cacheDir, `${prefix}${id}.checks.v8`),
  };
}

/**
 * `file` (a bundle beside this one), run from its code cache; written at exit when missing or
 * rejected, and made again once by a run that checked a memory file (code-cache-run.cjs).
 */
export function requireWithCodeCache(file: string, cacheDir: string): unknown {
  const cache = codeCachePath(file, cacheDir);
  if (cache === null) return require(file);
  // Not node:module's Module and createRequire: loading that module costs more than the rest of this.
  // The file is a bundle beside this one, so this bundle's require resolves what it requires (built-ins,
  // ./yaml.cjs) alike; a bundle reads nothing of `module` but `exports`.
  const ran = runWithCodeCache(
    file,
    cache,
    (run) => {
      const mod = { exports: {} };
      run.call(mod.exports, mod.exports, require, mod, file, path.dirname(file));
      return mod.exports;
    },
    (cacheFile, script) => writeCache(script, cache.prefix, cacheFile),
  );
  return ran === null ? require(file) : ran.exports;
}

function writeCache(script: vm.Script, prefix: string, cacheFile: string): void {
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    const dir = path.dirname(cacheFile);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // The file first: where none can be made (a read-only data directory), no run pays for serialising.
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeFileSync(fd, script.createCachedData());
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, cacheFile);
    // Caches of this file from an older build or another Node: not read again.
    for (const old of fs.readdirSync(dir))
      if (old.startsWith(prefix) && old.endsWith('.v8') && path.join(dir, old) !== cacheFile)
        fs.rmSync(path.join(dir, old), { force: true });
  } catch {
    // no cache this time: the next run compiles as usual
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // there is no folder to leave it in
    }
  }
}
