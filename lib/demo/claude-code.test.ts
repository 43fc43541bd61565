import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateClaudeCodeFolder } from './index';
import { parseMemory } from './test-helpers';

const now = new Date('2026-11-22T12:00:00Z');
const INDEX_LINE = /^- \[([^\]]+)\]\(([^)]+\.md)\) — (.+)$/;

describe('generateClaudeCodeFolder', () => {
  it('builds flat memories plus a MEMORY.md index missing one or two files', () => {
    const c = generateClaudeCodeFolder({ n: 40, seed: 9, now });
    expect(c.auditLines).toEqual([]);
    expect(c.files).toHaveLength(41);
    const memories = c.files.filter((f) => f.relPath !== 'MEMORY.md');
    for (const f of memories) {
      expect(f.relPath).toMatch(/^(user|feedback|project|reference)_[a-z0-9_]+\.md$/);
      const { fm, closed } = parseMemory(f.content);
      expect(closed).toBe(true);
      expect(fm.name && fm.description && fm.type).toBeTruthy();
    }
    const parsed = memories.map((f) => parseMemory(f.content).fm);
    expect(parsed.filter((fm) => fm.originSessionId).length).toBeGreaterThan(20);
    expect(parsed.filter((fm) => fm.modified).length).toBeGreaterThan(5);
    const withTrust = parsed.filter((fm) => fm['trust-level']).length;
    expect(withTrust).toBeGreaterThan(0);
    expect(withTrust).toBeLessThan(memories.length / 4);

    const index = c.files.find((f) => f.relPath === 'MEMORY.md')!.content.toString('utf8');
    const lines = index.trimEnd().split('\n');
    expect(lines).toHaveLength(38);
    const listed = lines.map((l) => {
      const m = INDEX_LINE.exec(l);
      expect(m, l).not.toBeNull();
      return m![2]!;
    });
    const names = new Set(memories.map((f) => f.relPath));
    for (const l of listed) expect(names.has(l)).toBe(true);
    expect(c.unindexed).toHaveLength(2);
    for (const u of c.unindexed) expect(listed).not.toContain(u);
  });

  it('is deterministic and respects small n', () => {
    const a = generateClaudeCodeFolder({ n: 12, seed: 1, now });
    const b = generateClaudeCodeFolder({ n: 12, seed: 1, now });
    expect(a).toEqual(b);
    expect(generateClaudeCodeFolder({ n: 12, seed: 2, now })).not.toEqual(a);
    expect(a.unindexed).toHaveLength(1);
    expect(generateClaudeCodeFolder({ n: 0, seed: 1, now }).files).toEqual([]);
  });
});

describe('demo CLI', () => {
  it('writes a corpus into an empty directory', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-demo-cli-'));
    try {
      const out = execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          path.join(__dirname, 'cli.ts'),
          '--out',
          dir,
          '--n',
          '50',
          '--seed',
          '1',
          '--now',
          '2026-11-22T12:00:00Z',
        ],
        { encoding: 'utf8' },
      );
      expect(out).toMatch(/wrote 50 files/);
      const count = ['memories', 'quarantine', 'archive']
        .map((d) => path.join(dir, d))
        .filter((d) => fs.existsSync(d))
        .reduce(
          (n, d) => n + fs.readdirSync(d, { recursive: true }).filter((x) => String(x).endsWith('.md')).length,
          0,
        );
      expect(count).toBe(50);
      expect(fs.readdirSync(path.join(dir, '.memtrust', 'audit')).length).toBeGreaterThan(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
