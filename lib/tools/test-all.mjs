#!/usr/bin/env node
// `npm test`: lint and format check (Biome), typecheck, the dashboard build, unit/integration
// tests (Vitest), then the browser tests (Playwright). Prints one closing line
// `N passed, N failed` summing every suite (CI reads that line) and exits non-zero on any failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { countsOf, filesWithoutResults } from './vitest-report.mjs';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
process.chdir(dir);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', MEMTRUST_PROJECT_DIR: dir };
// Every test's temp folders (roots, SQLite files, the install tests' copies) on the RAM disk
// where there is one with room: the tests write and fsync a great deal, and on this machine's
// disk two workers ran no faster than one (docs/tooling.md, "What npm test runs"). Removed at
// the end, with whatever a test left behind.
const ramTmp = (() => {
  try {
    const st = fs.statfsSync('/dev/shm');
    if (st.bavail * st.bsize < 4 * 1024 ** 3) return null;
    return fs.mkdtempSync(path.join('/dev/shm', 'memtrust-test-tmp-'));
  } catch {
    return null;
  }
})();
if (ramTmp) env.TMPDIR = ramTmp;
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-test-'));
const bin = (name) => path.join(dir, 'node_modules', '.bin', name);
const only = process.argv.slice(2); // e.g. `npm test -- lint`, `-- unit` or `-- e2e`
const want = (s) => only.length === 0 || only.includes(s);

/** More files without results than this is no runner hiccup: the run fails instead. */
const RERUN_AT_MOST = 3;

let passed = 0;
let failed = 0;
let broken = false;

function run(title, cmd, args, extraEnv = {}) {
  console.log(`\n=== ${title}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...env, ...extraEnv } });
  return r.status ?? 1;
}

// First and fast (a few seconds): Biome's findings are printed and fail the run. Same
// command as `npm run lint`; docs/tooling.md says why Biome and which rules are off.
if (want('lint')) {
  const code = run('lint and format check (biome ci)', bin('biome'), [
    'ci',
    '--error-on-warnings',
    '--max-diagnostics=50',
    '.',
  ]);
  if (code === 0) passed += 1;
  else failed += 1;
}

if (want('typecheck')) {
  const code = run('typecheck (tsc --noEmit)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
  if (code === 0) passed += 1;
  else failed += 1;
}

// The dashboard build (when missing or older than a source), before Vitest: the package
// install test packs it (its prepack finds it current) and the browser tests' global setup
// finds it current too, so it is built once and never while Vitest's workers run. A failed
// build counts as a failed suite; a good one counts nothing (it is no test).
const installTests = process.env.MEMTRUST_SKIP_INSTALL_TESTS !== '1';
if (want('e2e') || (want('unit') && installTests)) {
  const code = run('dashboard build (next build, when missing or stale)', process.execPath, [
    path.join(dir, 'lib', 'tools', 'prepack.mjs'),
  ]);
  if (code !== 0) failed += 1;
}

if (want('unit')) {
  // The files Vitest should report on, listed before the run: a file missing from the report
  // is then seen rather than silently left out of the total.
  const listed = spawnSync(bin('vitest'), ['list', '--filesOnly', '--json'], { env, encoding: 'utf8' });
  let expected = [];
  try {
    expected = JSON.parse(listed.stdout).map((f) => f.file);
  } catch {
    console.error('vitest could not list the test files');
    broken = true;
  }
  const report = path.join(out, 'vitest.json');
  const code = run('unit and integration tests (vitest)', bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  try {
    const j = JSON.parse(fs.readFileSync(report, 'utf8'));
    const counts = countsOf(j);
    passed += counts.passed;
    failed += counts.failed;
    // A suite that fails to load has no failed tests but must still fail the run.
    if (code !== 0 && counts.failed === 0) broken = true;
    // Files the report holds no result for run again, alone, once (docs/tooling.md).
    const lost = filesWithoutResults(expected, j);
    if (lost.length > RERUN_AT_MOST) {
      console.error(
        `vitest reported no tests for ${lost.length} files: ${lost.map((f) => path.relative(dir, f)).join(', ')}`,
      );
      broken = true;
    } else {
      for (const file of lost) {
        const rel = path.relative(dir, file);
        const again = path.join(out, `vitest-again-${lost.indexOf(file)}.json`);
        const c = run(`vitest reported no tests for ${rel}: running it again alone`, bin('vitest'), [
          'run',
          rel,
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${again}`,
        ]);
        const r = JSON.parse(fs.readFileSync(again, 'utf8'));
        const n = countsOf(r);
        passed += n.passed;
        failed += n.failed;
        if (filesWithoutResults([file], r).length > 0 || (c !== 0 && n.failed === 0)) {
          console.error(`vitest reported no tests for ${rel} a second time`);
          broken = true;
        }
      }
    }
  } catch (e) {
    console.error(`vitest wrote no report (${e instanceof Error ? e.message : e})`);
    broken = true;
  }
}

if (want('e2e')) {
  const report = path.join(out, 'playwright.json');
  const code = run('browser tests (playwright)', bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
  });
  try {
    const s = JSON.parse(fs.readFileSync(report, 'utf8')).stats;
    passed += s.expected + (s.flaky ?? 0);
    failed += s.unexpected;
    if (code !== 0 && s.unexpected === 0) broken = true;
  } catch {
    console.error('playwright wrote no report');
    broken = true;
  }
}

if (ramTmp) fs.rmSync(ramTmp, { recursive: true, force: true });
if (broken && failed === 0) failed = 1;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
