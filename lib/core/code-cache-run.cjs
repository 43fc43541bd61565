'use strict';
/**
 * The one rule of the hooks' code caches, shared by their two loaders: the plugin's
 * (lib/plugin/code-cache.ts, caches in the data directory, named for the bundle's identity) and
 * the CLI launcher's (lib/cli/memtrust.cjs, caches beside its bundles). Plain CommonJS, so the
 * launcher, which runs before anything is built, requires it as it is, and esbuild bundles it
 * into the plugin's entries.
 *
 * A bundle runs from V8's code cache: `cache.checks` (made again once by a run that checked a
 * memory file, so it holds the validators: lib/core/code-cache-hint.ts) is read first, else
 * `cache.path` (made by the first run). At exit a cache is written when none was read or V8
 * rejected it (another Node), or when this run checked a memory file and the one read lacks
 * the validators (docs/performance.md, "The hooks"). Where and how it is written is the
 * caller's: `write(file, script, checks)`.
 */
const fs = require('node:fs');
const vm = require('node:vm');

/** The global symbol a run that checked a memory file sets (code-cache-hint.ts). */
const CHECKS_RAN = Symbol.for('memtrust.code-cache.checks');

/** Node's module wrapper (Module.wrap), so the cached function is the one require would compile. */
const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAP_TAIL = '\n});';

/**
 * Runs `file` through its code cache: `call` gets the compiled module wrapper and returns the
 * module's exports. Returns `{ exports }`, or null when the file could not be compiled this way
 * (the caller requires it instead).
 *
 * @param {string} file
 * @param {{ path: string, checks: string }} cache
 * @param {(wrapper: Function) => unknown} call
 * @param {(cacheFile: string, script: import('node:vm').Script, checks: boolean) => void} write
 * @returns {{ exports: unknown } | null}
 */
function runWithCodeCache(file, cache, call, write) {
  let cachedData;
  let withChecks = true;
  for (const f of [cache.checks, cache.path]) {
    try {
      cachedData = fs.readFileSync(f);
      break;
    } catch {
      withChecks = false;
    }
  }
  let script;
  try {
    script = new vm.Script(`${WRAP_HEAD}${fs.readFileSync(file, 'utf8')}${WRAP_TAIL}`, { filename: file, cachedData });
  } catch {
    return null;
  }
  const exports = call(script.runInThisContext());
  const made = cachedData === undefined || script.cachedDataRejected === true;
  if (made || !withChecks)
    process.once('exit', () => {
      const checks = globalThis[CHECKS_RAN] === true;
      if (made || checks) write(checks ? cache.checks : cache.path, script, checks);
    });
  return { exports };
}

module.exports = { CHECKS_RAN, runWithCodeCache };
