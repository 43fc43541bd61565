import { describe, expect, it } from 'vitest';
import { linesToKeep } from './prune';
import type { VersionLine } from './version-store';

const line = (rel: string, at: string, extra: Partial<VersionLine> = {}): VersionLine => ({
  v: 1,
  id: `s:${rel}`,
  root: '/r',
  rel,
  at,
  sha: `${rel}@${at}`,
  size: 1,
  ...extra,
});

describe('retention', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  it('keeps a current version however old, and a superseded one until `days` after its successor', () => {
    const lines = [
      line('a.md', '2025-01-01T00:00:00Z'), // superseded long ago: dropped
      line('a.md', '2026-01-01T00:00:00Z'), // superseded 2026-05-20: kept
      line('a.md', '2026-05-20T00:00:00Z'), // current
      line('b.md', '2024-01-01T00:00:00Z'), // current, old: kept
    ];
    expect(linesToKeep(lines, now, 90).map((l) => l.at)).toEqual([
      '2026-01-01T00:00:00Z',
      '2026-05-20T00:00:00Z',
      '2024-01-01T00:00:00Z',
    ]);
  });
  it('a deleted file keeps its last version `days` after the deletion, then loses it', () => {
    const lines = [
      line('c.md', '2025-01-01T00:00:00Z'),
      line('c.md', '2026-05-01T00:00:00Z', { gone: true, sha: null }),
    ];
    expect(linesToKeep(lines, now, 90)).toHaveLength(2);
    expect(linesToKeep(lines, now, 10)).toHaveLength(0);
  });
});
