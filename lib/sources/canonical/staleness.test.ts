import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitIndex, parseGitLog, WALK_ARGS } from './git';
import { globToRegExp, staticPrefix } from './glob';
import { readFrontmatter, headingKey, listValue } from './parse';
import { splitLines } from './lines';
import { staleness, type StalenessInput } from './staleness';
import { targetSpec } from './target';

const NOW = new Date('2026-11-23T12:00:00Z');
const h = (n: number) => `${n.toString(16).padStart(4, '0')}c0ffee`.padEnd(40, '0');

/** A history as `git log` prints it with WALK_ARGS (newest first). */
function logText(commits: { hash: string; parents: string[]; files: string[] }[]): string {
  return commits
    .map((c) => `\x01${[c.hash, ...c.parents].join(' ')}\0\n${c.files.map((f) => `${f}\0`).join('')}`)
    .join('');
}

/**
 * main: 1 ← 2 ← 3 ← 6(merge of 3 and 5) ← 7 (HEAD); side: 2 ← 4 ← 5.
 * Commits since 4 (4..HEAD) are 3, 6, 7 and… not 2/4; 5 is reachable from 4? No: 5's parent is 4,
 * so 5 is not an ancestor of 4 and counts. 4..HEAD = {3, 5, 6, 7}.
 */
const history = [
  { hash: h(7), parents: [h(6)], files: ['src/a.ts'] },
  { hash: h(6), parents: [h(3), h(5)], files: [] },
  { hash: h(5), parents: [h(4)], files: ['src/b.ts', 'docs/x.md'] },
  { hash: h(4), parents: [h(2)], files: ['src/a.ts'] },
  { hash: h(3), parents: [h(2)], files: ['lib/deep/c.ts'] },
  { hash: h(2), parents: [h(1)], files: ['src/a.ts'] },
  { hash: h(1), parents: [], files: ['README.md'] },
];

const base: StalenessInput = {
  category: 'landmarks',
  closed: null,
  verifiedSha: null,
  verifiedDate: null,
  targetPaths: [],
};

describe('git index (one walk)', () => {
  it('parses the walk output, including commits without files', () => {
    expect(WALK_ARGS).toContain('--name-only');
    const data = parseGitLog(logText(history));
    expect(data.commits).toEqual(history);
    expect(parseGitLog(logText(history), 3)).toMatchObject({ truncated: true, commits: history.slice(0, 3) });
  });

  it('counts X..HEAD across a merge and the commits touching a target', () => {
    const g = new GitIndex(parseGitLog(logText(history)));
    expect(g.commitsSince(g.resolve(h(4).slice(0, 7)) as number)).toBe(4);
    expect(g.commitsSince(g.resolve(h(1)) as number)).toBe(6);
    expect(g.commitsSince(0)).toBe(0);
    expect(g.touchingSince(g.resolve(h(2)) as number, ['src/a.ts'])).toBe(2); // 4 and 7
    expect(g.touchingSince(g.resolve(h(2)) as number, ['src/**'])).toBe(3); // 4, 5, 7
    expect(g.touchingSince(g.resolve(h(1)) as number, ['lib'])).toBe(1); // a folder
    expect(g.resolve('0123456')).toBeNull();
    const twin = new GitIndex({
      commits: [
        { hash: 'abcd1'.padEnd(40, '0'), parents: [], files: [] },
        { hash: 'abcd2'.padEnd(40, '0'), parents: [], files: [] },
      ],
      truncated: false,
    });
    expect(twin.resolve('abcd')).toBe('ambiguous');
    expect(twin.resolve('abcd2')).toBe(1);
  });

  it('staleness names the count, the touching commits and the missing commit', () => {
    const g = new GitIndex(parseGitLog(logText(history)));
    expect(staleness({ ...base, verifiedSha: h(2).slice(0, 9), targetPaths: ['src/a.ts'] }, g, NOW)).toEqual({
      stale: false,
      basis: 'commits',
      commits: 5,
      touching: 2,
      reason: `5 commits since ${h(2).slice(0, 7)}, 2 touch its target`,
    });
    expect(staleness({ ...base, verifiedSha: '1234567' }, g, NOW)).toMatchObject({
      stale: true,
      reason: 'verified at a commit this checkout does not have (1234567)',
    });
    expect(staleness({ ...base, category: 'decisions', verifiedSha: '1234567' }, g, NOW)).toMatchObject({
      stale: false,
      basis: 'exempt',
    });
  });

  it('30 commits is stale, 29 is not', () => {
    const line = Array.from({ length: 31 }, (_, i) => ({
      hash: h(100 + i),
      parents: i === 30 ? [] : [h(101 + i)],
      files: [],
    }));
    const g = new GitIndex(parseGitLog(logText(line)));
    expect(staleness({ ...base, verifiedSha: h(130) }, g, NOW)).toMatchObject({ stale: true, commits: 30 });
    expect(staleness({ ...base, verifiedSha: h(129) }, g, NOW)).toMatchObject({ stale: false, commits: 29 });
  });

  it('a truncated walk calls an older SHA "more than N commits"', () => {
    const g = new GitIndex(parseGitLog(logText(history), 3));
    expect(staleness({ ...base, verifiedSha: h(1) }, g, NOW)).toMatchObject({
      stale: true,
      reason: `more than 3 commits since ${h(1).slice(0, 7)} (older than the history read)`,
    });
  });
});

describe('staleness by date', () => {
  it('90 days since the verified date is stale, 89 is not; no date is never stale', () => {
    expect(staleness({ ...base, verifiedDate: '2026-08-25' }, null, NOW)).toMatchObject({
      stale: true,
      days: 90,
      reason: '90 days since 2026-08-25 (stale at 90)',
    });
    expect(staleness({ ...base, verifiedDate: '2026-08-26' }, null, NOW)).toMatchObject({ stale: false, days: 89 });
    expect(staleness({ ...base, verifiedDate: '2026-08-26  # note' }, null, NOW)).toMatchObject({ days: 89 });
    expect(staleness(base, null, NOW)).toMatchObject({ stale: false, basis: 'none' });
    expect(staleness({ ...base, category: 'backlog', verifiedDate: '2020-01-01' }, null, NOW)).toMatchObject({
      stale: false,
      basis: 'exempt',
    });
    // A SHA without a history to count in (not a git checkout) falls back to the date.
    expect(staleness({ ...base, verifiedSha: 'abcdef1', verifiedDate: '2026-01-01' }, null, NOW)).toMatchObject({
      basis: 'date',
      stale: true,
    });
    expect(
      staleness({ ...base, closed: 'superseded-at 2026-01-01', verifiedDate: '2020-01-01' }, null, NOW),
    ).toMatchObject({ stale: false, basis: 'closed' });
  });
});

describe('parsing helpers', () => {
  it('frontmatter is read per line, values verbatim, like the project reads it', () => {
    const fm = readFrontmatter(
      splitLines(
        Buffer.from(
          '---\nkey: @scope/pkg@1.2\nclaim: "a": b: c\n# comment\nscope: [a, b]\nempty:\n  indented: kept\nnot a field\n---\nbody\n',
        ),
      ),
    );
    expect(fm?.fields).toEqual([
      { name: 'key', value: '@scope/pkg@1.2', line: 2 },
      { name: 'claim', value: '"a": b: c', line: 3 },
      { name: 'scope', value: '[a, b]', line: 5 },
      { name: 'empty', value: '', line: 6 },
      { name: 'indented', value: 'kept', line: 7 },
    ]);
    expect(fm?.close).toBe(9);
    expect(readFrontmatter(splitLines(Buffer.from('---\nkey: x\nno close\n')))).toBeNull();
    expect(listValue('[a, `b`]')).toEqual(['a', 'b']);
    expect(listValue('src/**, docs/x.md')).toEqual(['src/**', 'docs/x.md']);
  });

  it('flat heading keys', () => {
    expect(headingKey('Q-002 \u2014 Is it? \u2014 really')).toEqual({ key: 'Q-002', closedOn: null });
    expect(headingKey('Q-005 \u2014 CLOSED 2026-05-16')).toEqual({ key: 'Q-005', closedOn: '2026-05-16' });
    expect(headingKey('Q-006 -- CLOSED 2026-05-17')).toEqual({ key: 'Q-006', closedOn: '2026-05-17' });
    expect(headingKey('src/a.ts:1')).toEqual({ key: 'src/a.ts:1', closedOn: null });
  });

  it('globs and targets', () => {
    expect(globToRegExp('src/**').test('src/a/b.ts')).toBe(true);
    expect(globToRegExp('src/**/*.ts').test('src/a.ts')).toBe(true);
    expect(globToRegExp('src/*.ts').test('src/a/b.ts')).toBe(false);
    expect(globToRegExp('docs/{a,b}.md').test('docs/b.md')).toBe(true);
    expect(staticPrefix('.claude/skills/**/x')).toBe('.claude/skills');
    expect(targetSpec('src/auth/session.ts:42 (rotateOnRefresh)', 'target')).toEqual({
      pathLine: { path: 'src/auth/session.ts', line: 42, symbol: 'rotateOnRefresh' },
      paths: ['src/auth/session.ts'],
    });
    expect(targetSpec('`bin/cli.js:1`', 'key').pathLine).toMatchObject({ path: 'bin/cli.js', line: 1 });
    expect(targetSpec('a, `b/c.md`, docs/**', 'governs').paths).toEqual(['b/c.md', 'docs/**']);
    expect(targetSpec('the whole thing', 'target')).toEqual({ pathLine: null, paths: [] });
  });
});

describe('purity', () => {
  it('planning, parsing and staleness touch no disk, process or clock', () => {
    for (const f of ['plan.ts', 'parse.ts', 'lines.ts', 'glob.ts', 'target.ts', 'staleness.ts', 'types.ts']) {
      const src = fs.readFileSync(path.join(__dirname, f), 'utf8');
      expect({ f, bad: /from 'node:(fs|child_process|os)'|new Date\(\)|Date\.now\(/.test(src) }).toEqual({
        f,
        bad: false,
      });
    }
  });
});
