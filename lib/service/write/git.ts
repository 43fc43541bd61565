/**
 * Inside a git work tree a move is recorded as a rename, as `git mv` would
 * (docs/trust-model.md): the old path leaves the index and the new one enters it. The
 * files were already moved durably; git bookkeeping failing never undoes that.
 */
import { execFileSync } from 'node:child_process';

function git(root: string, args: string[]): string | null {
  try {
    return execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    });
  } catch {
    return null;
  }
}

/** Whether a root sits in a git work tree; asked once per root and process. */
const inWorkTree = new Map<string, boolean>();

export function recordGitRename(root: string, src: string, dst: string): void {
  if (!inWorkTree.has(root)) inWorkTree.set(root, git(root, ['rev-parse', '--is-inside-work-tree'])?.trim() === 'true');
  if (!inWorkTree.get(root)) return;
  // Only when the source was tracked: an untracked memory stays untracked.
  if (git(root, ['ls-files', '--error-unmatch', '--', src]) === null) return;
  git(root, ['rm', '--cached', '--quiet', '--', src]);
  git(root, ['add', '--', dst]);
}
