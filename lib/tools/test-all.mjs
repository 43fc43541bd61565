#!/usr/bin/env node
// `npm test`: lint and format check (Biome), typecheck, unit/integration tests (Vitest),
// then the dashboard build and the browser tests (Playwright). Prints one closing line
// `N passed, N failed` summing every suite (CI reads that line) and exits non-zero on any failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
process.chdir(dir);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', MEMTRUST_PROJECT_DIR: dir };
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-test-'));
const bin = (name) => path.join(dir, 'node_modules', '.bin', name);
const only = process.argv.slice(2); // e.g. `npm test -- lint`, `-- unit` or `-- e2e`
const want = (s) => only.length === 0 || only.includes(s);

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

if (want('unit')) {
  const report = path.join(out, 'vitest.json');
  const code = run('unit and integration tests (vitest)', bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  try {
    const j = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += j.numPassedTests;
    failed += j.numFailedTests;
    // A suite that fails to load has no failed tests but must still fail the run.
    if (code !== 0 && j.numFailedTests === 0) broken = true;
  } catch {
    console.error('vitest wrote no report');
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

if (broken && failed === 0) failed = 1;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
