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
};

export function checkCommit(commit: string): string {
  if (!/^[0-9a-f]{7,40}$/.test(commit)) {
    process.stderr.write(`--baseline must be a commit id: ${commit}\n`);
    process.exit(64);
  }
  return commit;
}

export async function loadValidators(commit: string): Promise<Checks> {
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
  const s = (await import(path.join(dir, 'lib', 'validators', 'secrets.ts'))) as { secretCheck: Checks['secret'] };
  const i = (await import(path.join(dir, 'lib', 'validators', 'injection.ts'))) as {
    injectionCheck: Checks['injection'];
  };
  const v = (await import(path.join(dir, 'lib', 'validators', 'validate.ts'))) as { validate: Checks['validate'] };
  return { secret: s.secretCheck, injection: i.injectionCheck, validate: v.validate };
}
