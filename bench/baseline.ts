/**
 * The validators as of an earlier commit, for side-by-side runs: extracted with
 * `git archive` into bench/.out/baseline-<commit> (gitignored) and imported from there.
 * Used by bench/credentials.ts (throughput) and bench/equivalence.ts (same findings).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { OwnerIdentity, Verdict } from '../lib/validators/types';
import { PROJECT_DIR } from './common';

export type Checks = {
  secret: (b: Buffer, o: OwnerIdentity) => Verdict;
  injection: (b: Buffer) => Verdict;
  validate: (b: Buffer, name: string) => Verdict;
  /** How the product runs secret + injection on one file, where it has one entry point for both. */
  secretAndInjection?: (b: Buffer, o: OwnerIdentity) => unknown;
  /** How the product runs all three on one file (validators/run.ts), where it has that entry point. */
  allChecks?: (b: Buffer, name: string, o: OwnerIdentity) => unknown;
};

export function checkCommit(commit: string): string {
  if (!/^[0-9a-f]{7,40}$/.test(commit)) {
    process.stderr.write(`--baseline must be a commit id: ${commit}\n`);
    process.exit(64);
  }
  return commit;
}

/** The baseline's source tree (extracted once). */
export function baselineDir(commit: string): string {
  const dir = path.join(PROJECT_DIR, 'bench', '.out', `baseline-${commit}`);
  if (!fs.existsSync(path.join(dir, 'lib', 'validators', 'secrets.ts'))) {
    fs.mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', commit, 'lib', 'db', 'package.json'], {
      cwd: PROJECT_DIR,
      maxBuffer: 256 * 1024 * 1024,
    });
    // Sources only: test files under bench/.out would be picked up by vitest's bench/** pattern.
    execFileSync('tar', ['-x', '-C', dir, '--exclude=*.test.ts', '--exclude=*.spec.ts', '--exclude=*.test.tsx'], {
      input: tar,
    });
  }
  return dir;
}

export async function loadValidators(commit: string): Promise<Checks> {
  const dir = baselineDir(commit);
  const s = (await import(path.join(dir, 'lib', 'validators', 'secrets.ts'))) as { secretCheck: Checks['secret'] };
  const i = (await import(path.join(dir, 'lib', 'validators', 'injection.ts'))) as {
    injectionCheck: Checks['injection'];
  };
  const v = (await import(path.join(dir, 'lib', 'validators', 'validate.ts'))) as { validate: Checks['validate'] };
  return { secret: s.secretCheck, injection: i.injectionCheck, validate: v.validate };
}

/**
 * The validators of a source tree (this project's, or a baseline's) as the product runs them:
 * bundled by esbuild with the CLI launcher's options (lib/cli/memtrust.cjs), not through tsx,
 * whose `keepNames` adds a helper call to every named closure a function creates.
 */
export function loadBundledValidators(commit: string | 'today'): Checks {
  const dir = commit === 'today' ? PROJECT_DIR : baselineDir(commit);
  const out = path.join(PROJECT_DIR, 'bench', '.out', `validators-${commit}-${process.pid}.cjs`);
  const v = path.join(dir, 'lib', 'validators');
  // The entry points a tree has: an older one may lack the shared one for both scanners.
  const both = path.join(v, 'secret-and-injection.ts');
  const hasBoth = fs.existsSync(both);
  const hasAll = /export function runAllChecks/.test(fs.readFileSync(path.join(v, 'run.ts'), 'utf8'));
  const esbuild = require('esbuild') as typeof import('esbuild');
  esbuild.buildSync({
    stdin: {
      contents: [
        `export { secretCheck } from ${JSON.stringify(path.join(v, 'secrets.ts'))};`,
        `export { injectionCheck } from ${JSON.stringify(path.join(v, 'injection.ts'))};`,
        `export { validate } from ${JSON.stringify(path.join(v, 'validate.ts'))};`,
        hasBoth ? `export { runSecretAndInjection } from ${JSON.stringify(both)};` : '',
        hasAll ? `export { runAllChecks } from ${JSON.stringify(path.join(v, 'run.ts'))};` : '',
      ].join('\n'),
      resolveDir: dir,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: out,
    logLevel: 'silent',
  });
  try {
    const m = require(out) as {
      secretCheck: Checks['secret'];
      injectionCheck: Checks['injection'];
      validate: Checks['validate'];
      runSecretAndInjection?: Checks['secretAndInjection'];
      runAllChecks?: Checks['allChecks'];
    };
    return {
      secret: m.secretCheck,
      injection: m.injectionCheck,
      validate: m.validate,
      secretAndInjection: m.runSecretAndInjection,
      allChecks: m.runAllChecks,
    };
  } finally {
    fs.rmSync(out, { force: true });
  }
}
