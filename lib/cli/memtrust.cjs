#!/usr/bin/env node
'use strict';
// Launcher: works right after `npm ci` with no build step. The first run bundles
// the TypeScript CLI into one file with esbuild (≈0.5 s, cached under
// node_modules/.cache/memtrust, rebuilt when a source changes); later runs load
// that single file, which keeps `memtrust validate FILE` well under 300 ms.
// If bundling is impossible (read-only install), tsx runs the sources directly.
const fs = require('node:fs');
const path = require('node:path');

const dir = path.resolve(__dirname, '..', '..');
process.env.MEMTRUST_PROJECT_DIR ||= dir;

// `memtrust list | head` closes the pipe early: that is not an error. Not for `context`: its
// output goes through lib/cli/io.ts, which handles that itself, and the SessionStart hook writes
// to fd 1 without process.stdout, whose making for a pipe loads the stream modules.
if (process.argv[2] !== 'context')
  process.stdout.on('error', (e) => {
    if (e && e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });

function fail(what, err) {
  process.stderr.write(`memtrust: ${what}: ${err?.message ? err.message.split('\n')[0] : String(err)}\n`);
  process.exit(1);
}

/** The lockfile's mtime; an installed package ships none, so its package.json's (docs/install.md). */
function lockStamp() {
  for (const f of ['package-lock.json', 'package.json']) {
    try {
      return Math.floor(fs.statSync(path.join(dir, f)).mtimeMs);
    } catch {
      // next candidate
    }
  }
  return 0;
}

/** Newest mtime under the CLI's source folders: the cache key of the bundle. */
function sourceStamp() {
  let max = 0;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) max = Math.max(max, fs.statSync(p).mtimeMs);
    }
  };
  walk(path.join(dir, 'lib'));
  walk(path.join(dir, 'db'));
  return `${Math.floor(max)}-${lockStamp()}`;
}

// Installed as a package (`npm i -g memtrust`): this copy lives in a node_modules folder.
const installed = dir.split(path.sep).includes('node_modules');

const argv0 = process.argv[2];
if (argv0 === '--version' || argv0 === '-v' || argv0 === 'version') {
  process.stdout.write(`${require('../../package.json').version}\n`);
  process.exit(0);
}
/** `memtrust serve|dashboard [--port N]`: the same start as `npm start`, on --port or PORT (default 3000). */
function serveDashboard() {
  // The dashboard (docs/install.md): the same start as `npm start`, on --port or PORT (default 3000).
  const rest = process.argv.slice(3);
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const port = a === '--port' ? rest[++i] : a.startsWith('--port=') ? a.slice(7) : undefined;
    if (port !== undefined) process.env.PORT = port;
    else {
      process.stderr.write(`memtrust ${argv0}: unexpected argument: ${a} (usage: memtrust ${argv0} [--port N])\n`);
      process.exit(64);
    }
  }
  if (installed) {
    // A package ships its dashboard built and has no build tools: never rebuild it.
    if (!fs.existsSync(path.join(dir, '.next', 'BUILD_ID')))
      fail('could not start the dashboard', new Error(`${dir} has no built dashboard (.next); reinstall the package`));
    process.env.MEMTRUST_NO_BUILD = '1';
  }
  import(require('node:url').pathToFileURL(path.join(dir, 'lib', 'server', 'start.mjs')).href).catch((err) =>
    fail('could not start the dashboard', err),
  );
}
const serving = argv0 === 'serve' || argv0 === 'dashboard';
if (serving) serveDashboard();

// An installed package runs the guard from its built bundles, the plugin's (docs/install.md,
// "Figures"): a write outside the memory roots then loads no validator. A clone builds its own
// (below), as dist/ may be older than the sources there.
const builtGuard =
  installed && process.argv[2] === 'hook' && process.argv[3] === 'pre-write' && process.argv.length === 4
    ? path.join(dir, 'dist', 'hooks', 'pre-write.cjs')
    : null;

// `hook pre-write` runs on every assistant write, `context` at every session start, and the
// three validators once per file or folder from scripts: each gets its own small bundle
// (docs/hooks.md, docs/session-context.md, docs/validators.md).
const argv = process.argv.slice(2);
const CHECKS = ['validate', 'secret-check', 'injection-check'];
const ENTRY =
  argv[0] === 'hook' && argv[1] === 'pre-write'
    ? { name: 'hook', file: 'hook-main.ts' }
    : argv[0] === 'context'
      ? { name: 'context', file: 'context-main.ts' }
      : CHECKS.includes(argv[0])
        ? { name: 'check', file: 'check-main.ts' }
        : { name: 'cli', file: 'main.ts' };

function loadBundled(entry = ENTRY) {
  const cacheDir = path.join(dir, 'node_modules', '.cache', 'memtrust');
  const out = path.join(cacheDir, `${entry.name}-${sourceStamp()}.cjs`);
  if (!fs.existsSync(out)) {
    const esbuild = require('esbuild');
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${out}.${process.pid}.tmp`;
    esbuild.buildSync({
      entryPoints: [path.join(__dirname, entry.file)],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: tmp,
      // Native addon and Next stay outside; the CLI never loads Next.
      external: ['better-sqlite3', 'next', 'server-only'],
      logLevel: 'silent',
    });
    fs.renameSync(tmp, out);
    for (const old of fs.readdirSync(cacheDir))
      if (old.startsWith(`${entry.name}-`) && path.join(cacheDir, old) !== out && !old.endsWith('.tmp'))
        fs.rmSync(path.join(cacheDir, old), { force: true });
  }
  return require(out);
}

/**
 * Loads a bundle through V8's code cache, kept beside it as `.v8` (and `.checks.v8`, made again
 * by a run that checked a memory file): the functions it compiled are not compiled again at the
 * next start. The rule is the plugin's (lib/core/code-cache-run.cjs); any failure falls back to require.
 */
function requireWithCodeCache(file) {
  const Module = require('node:module');
  const { runWithCodeCache } = require('../core/code-cache-run.cjs');
  const ran = runWithCodeCache(
    file,
    { path: `${file}.v8`, checks: `${file}.checks.v8` },
    (run) => {
      const mod = new Module(file, module);
      mod.filename = file;
      mod.paths = Module._nodeModulePaths(path.dirname(file));
      run.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
      mod.loaded = true;
      return mod.exports;
    },
    (cacheFile, script, checks) => {
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
        if (checks) fs.rmSync(`${file}.v8`, { force: true });
      } catch {
        // no cache this time: the next start compiles as usual
      }
    },
  );
  return ran === null ? require(file) : ran.exports;
}

/**
 * The small bundles' cache key comes from the files they were built from (esbuild's
 * metafile, kept beside them), not from a walk of every source: about 50–170 stats instead
 * of a readdir of lib/ and db/ on each assistant write or session start.
 */
function loadEntryBundle(entry = ENTRY) {
  const cacheDir = path.join(dir, 'node_modules', '.cache', 'memtrust');
  const manifest = path.join(cacheDir, `${entry.name}-manifest.json`);
  const lock = lockStamp();
  // The inputs are relative paths from esbuild's metafile: joined by hand, path.join normalising
  // each of about 170 on a cold engine was a tenth of the SessionStart hook's launcher.
  const stampOf = (inputs) =>
    `${Math.floor(Math.max(0, ...inputs.map((f) => fs.statSync(`${dir}${path.sep}${f}`).mtimeMs)))}-${lock}`;
  try {
    const m = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    if (m.stamp === stampOf(m.inputs)) return requireWithCodeCache(path.join(cacheDir, m.out));
  } catch {
    // no manifest yet, an input is gone, or the bundle is missing: build it
  }
  const esbuild = require('esbuild');
  fs.mkdirSync(cacheDir, { recursive: true });
  const out = `${entry.name}-${process.pid}-${Date.now()}.cjs`;
  const tmp = path.join(cacheDir, `${out}.tmp`);
  const r = esbuild.buildSync({
    entryPoints: [path.join(__dirname, entry.file)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: tmp,
    metafile: true,
    // The hooks' bundles leave out `yaml` as the plugin's do (lib/tools/build-hooks.mjs): most
    // frontmatter never needs it (lib/memory-file/yaml-lazy.ts), and inline it was 117 KiB of the
    // session start's 405 KiB read and loaded at every start. Required from node_modules when needed.
    external: ['better-sqlite3', 'next', 'server-only', ...(entry.name === 'check' ? [] : ['yaml'])],
    logLevel: 'silent',
    absWorkingDir: dir,
  });
  if (entry.name === 'context') {
    // The SessionStart hook runs at every session start: built as the plugin's is
    // (lib/tools/build-hooks.mjs), minified, one copy of each built-in, and node:crypto,
    // node:child_process, node:zlib and better-sqlite3 required on first use — an unchanged
    // project opens no index (docs/session-context.md, "The hook keeps its checks").
    const { builtinsOnce } = require('../tools/builtins-once.cjs');
    const min = esbuild.transformSync(builtinsOnce(fs.readFileSync(tmp, 'utf8'), ['better-sqlite3']), {
      minify: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      legalComments: 'none',
    });
    fs.writeFileSync(tmp, min.code);
  }
  if (entry.name !== 'check') {
    // A hook's bundle ASCII only where TypeScript is installed (a clone), as the plugin's (lib/tools/ascii-source.cjs).
    const ascii = require('../tools/ascii-source.cjs').asciiSource(fs.readFileSync(tmp, 'utf8'));
    if (ascii !== null) fs.writeFileSync(tmp, ascii);
  }
  fs.renameSync(tmp, path.join(cacheDir, out));
  // How it is built is an input too: this launcher and the pass over the text.
  const inputs = [
    ...Object.keys(r.metafile.inputs).filter((f) => !f.startsWith('node_modules/') && !path.isAbsolute(f)),
    'lib/cli/memtrust.cjs',
    'lib/tools/builtins-once.cjs',
    'lib/tools/ascii-source.cjs',
  ];
  const mtmp = `${manifest}.${process.pid}.tmp`;
  fs.writeFileSync(mtmp, JSON.stringify({ out, stamp: stampOf(inputs), inputs }));
  fs.renameSync(mtmp, manifest);
  // Old bundles (and their code caches) go, but not one another process may have just built and is about to load.
  for (const old of fs.readdirSync(cacheDir)) {
    const p = path.join(cacheDir, old);
    if (
      old.startsWith(`${entry.name}-`) &&
      (old.endsWith('.cjs') || old.endsWith('.v8')) &&
      !old.startsWith(out) &&
      Date.now() - fs.statSync(p).mtimeMs > 60_000
    )
      fs.rmSync(p, { force: true });
  }
  return requireWithCodeCache(path.join(cacheDir, out));
}

/**
 * `context --format hook` (the SessionStart hook) without `--project`: the kept session text when
 * nothing it read changed, from a bundle of its own (lib/cli/session-text-entry.ts;
 * docs/session-context.md, "The kept text"). Never in the way: any failure runs the hook as before.
 */
const keptText =
  ENTRY.name === 'context' &&
  (argv.includes('--format=hook') || argv.some((a, i) => a === '--format' && argv[i + 1] === 'hook')) &&
  !argv.some((a) => a === '--project' || a.startsWith('--project='));

async function run() {
  if (keptText) {
    try {
      const { startContextHook } = loadEntryBundle({ name: 'session-text', file: 'session-text-entry.ts' });
      if ((await startContextHook(argv)).served) return 0;
    } catch {
      // the hook as before
    }
  }
  let main;
  try {
    ({ main } = ENTRY.name === 'cli' ? loadBundled() : loadEntryBundle());
  } catch {
    try {
      require('tsx/cjs/api').register();
      ({ main } = require(`./${ENTRY.file}`));
    } catch (err) {
      fail('could not start', err);
    }
  }
  return main(argv);
}

if (builtGuard && fs.existsSync(builtGuard)) require(builtGuard);
else if (!serving)
  run().then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      // Last resort: never a stack trace for the user (MEMTRUST_DEBUG=1 shows it).
      process.stderr.write(`memtrust: unexpected error: ${err?.message ? err.message : String(err)}\n`);
      if (process.env.MEMTRUST_DEBUG) process.stderr.write(`${String(err?.stack)}\n`);
      process.exitCode = 1;
    },
  );
