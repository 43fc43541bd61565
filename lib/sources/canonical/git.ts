/**
 * The project's git history, read ONCE per store read: one `git log --name-only`
 * walk from HEAD, turned into an index of commits, ancestry and touched paths. Every
 * entry's "N commits since <sha>, M touch its target" is answered from that index,
 * never by a git call per entry (docs/canonical-layout.md, "Staleness").
 * The two other git calls (`ls-files`, `check-ignore --stdin`) run at most once each.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { globToRegExp, isGlob } from './glob';

export interface Commit {
  hash: string;
  parents: string[];
  files: string[];
}

export interface GitData {
  /** Newest first, as `git log` prints them; commits[0] is HEAD. */
  commits: Commit[];
  /** The walk stopped at its limit; older SHAs are "more than N commits" old. */
  truncated: boolean;
}

const SEP = '\x01';

export const WALK_ARGS = ['log', '-z', '--no-renames', '--name-only', `--format=${SEP}%H %P`, 'HEAD'];

/** Parses the output of `git log` run with WALK_ARGS. Pure. */
export function parseGitLog(text: string, maxCommits = Infinity): GitData {
  const commits: Commit[] = [];
  for (const chunk of text.split(SEP)) {
    if (!chunk) continue;
    const nul = chunk.indexOf('\0');
    const header = (nul === -1 ? chunk : chunk.slice(0, nul)).trim();
    const [hash, ...parents] = header.split(' ').filter(Boolean);
    if (!hash) continue;
    const files =
      nul === -1
        ? []
        : chunk
            .slice(nul + 1)
            .split('\0')
            .map((f) => f.replace(/^\n/, ''))
            .filter(Boolean);
    commits.push({ hash, parents, files });
    if (commits.length >= maxCommits) return { commits, truncated: true };
  }
  return { commits, truncated: false };
}

function git(cwd: string, args: string[], input?: string): string | null {
  try {
    return execFileSync('git', ['-C', cwd, '-c', 'core.quotePath=false', ...args], {
      encoding: 'utf8',
      input,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'],
      maxBuffer: 512 * 1024 * 1024,
      timeout: 60_000,
    });
  } catch (e) {
    // check-ignore exits 1 when nothing is ignored; its stdout is still the answer.
    const out = (e as { stdout?: unknown }).stdout;
    return typeof out === 'string' && args[0] === 'check-ignore' ? out : null;
  }
}

/** The nearest folder at or above `dir` holding `.git` (folder or file), else null. */
export function findCheckout(dir: string): string | null {
  let cur = path.resolve(dir);
  for (;;) {
    if (fs.existsSync(path.join(cur, '.git'))) return cur;
    const up = path.dirname(cur);
    if (up === cur) return null;
    cur = up;
  }
}

/** The one history walk. null when the checkout has no commits or git is unusable. */
export function walkGit(checkout: string, maxCommits = 50_000): GitData | null {
  const out = git(checkout, [...WALK_ARGS.slice(0, -1), `--max-count=${maxCommits}`, 'HEAD']);
  if (out === null) return null;
  const data = parseGitLog(out);
  return data.commits.length ? { commits: data.commits, truncated: data.commits.length >= maxCommits } : null;
}

/** Tracked plus untracked-but-not-ignored files of the working tree (for globs). */
export function listFiles(checkout: string): string[] | null {
  const out = git(checkout, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  return out === null ? null : out.split('\0').filter(Boolean);
}

/** Which of `paths` the project ignores: one `git check-ignore --stdin` call. */
export function ignoredPaths(checkout: string, paths: string[]): Set<string> {
  if (paths.length === 0) return new Set();
  const out = git(checkout, ['check-ignore', '-z', '--stdin'], `${paths.join('\0')}\0`);
  return new Set((out ?? '').split('\0').filter(Boolean));
}

/**
 * Answers ancestry and touch questions from one walk. Pure once built.
 * "Commits since X" is git's `X..HEAD`: reachable from HEAD but not from X.
 */
export class GitIndex {
  readonly commits: Commit[];
  readonly truncated: boolean;
  private readonly pos = new Map<string, number>();
  private readonly sorted: string[];
  private readonly byPath = new Map<string, number[]>();
  private uniquePaths: string[] | null = null;
  private readonly ancestors = new Map<number, { mark: Uint8Array; count: number }>();
  private parentIdx: number[][] | null = null;
  private readonly matchCache = new Map<string, number[]>();

  constructor(data: GitData) {
    this.commits = data.commits;
    this.truncated = data.truncated;
    data.commits.forEach((c, i) => {
      this.pos.set(c.hash, i);
      for (const f of c.files) {
        const list = this.byPath.get(f);
        if (list) list.push(i);
        else this.byPath.set(f, [i]);
      }
    });
    this.sorted = [...this.pos.keys()].sort();
  }

  get head(): string {
    return this.commits[0]!.hash;
  }

  /** Index of the commit a (short) SHA names: a number, 'ambiguous', or null (not in the walk). */
  resolve(sha: string): number | 'ambiguous' | null {
    const s = sha.toLowerCase();
    if (!/^[0-9a-f]{4,40}$/.test(s)) return null;
    const exact = this.pos.get(s);
    if (exact !== undefined) return exact;
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! < s) lo = mid + 1;
      else hi = mid;
    }
    const a = this.sorted[lo];
    if (!a?.startsWith(s)) return null;
    if (this.sorted[lo + 1]?.startsWith(s)) return 'ambiguous';
    return this.pos.get(a)!;
  }

  /** Marks of the commits reachable from commit `i` (itself included), and how many. */
  private reach(i: number): { mark: Uint8Array; count: number } {
    const hit = this.ancestors.get(i);
    if (hit) return hit;
    this.parentIdx ??= this.commits.map((c) =>
      c.parents.map((p) => this.pos.get(p)).filter((j): j is number => j !== undefined),
    );
    const parents = this.parentIdx;
    const mark = new Uint8Array(this.commits.length);
    const stack = [i];
    mark[i] = 1;
    let count = 1;
    while (stack.length) {
      for (const j of parents[stack.pop()!]!) {
        if (!mark[j]) {
          mark[j] = 1;
          count++;
          stack.push(j);
        }
      }
    }
    const out = { mark, count };
    this.ancestors.set(i, out);
    return out;
  }

  /** Number of commits in `<commit i>..HEAD` (every walked commit is reachable from HEAD). */
  commitsSince(i: number): number {
    return this.commits.length - this.reach(i).count;
  }

  /** Commits (indices) that touched a path, a folder below it, or a glob's matches. */
  touchingPattern(pattern: string): number[] {
    const hit = this.matchCache.get(pattern);
    if (hit) return hit;
    const p = pattern.replace(/^\.\//, '').replace(/\/$/, '');
    let out: number[];
    if (!isGlob(p) && this.byPath.has(p)) out = this.byPath.get(p)!;
    else {
      this.uniquePaths ??= [...this.byPath.keys()];
      const re = isGlob(p) ? globToRegExp(p) : null;
      const set = new Set<number>();
      for (const f of this.uniquePaths) {
        if (re ? re.test(f) : f.startsWith(`${p}/`)) for (const i of this.byPath.get(f)!) set.add(i);
      }
      out = [...set];
    }
    this.matchCache.set(pattern, out);
    return out;
  }

  /** How many commits of `<commit i>..HEAD` touch any of `patterns`. */
  touchingSince(i: number, patterns: string[]): number {
    if (!patterns.length) return 0;
    const { mark } = this.reach(i);
    const seen = new Set<number>();
    for (const p of patterns) for (const c of this.touchingPattern(p)) if (!mark[c]) seen.add(c);
    return seen.size;
  }
}
