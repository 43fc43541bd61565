import { describe, expect, it } from 'vitest';
import { parseStalenessParams, stalenessHref, stalenessPage } from './staleness';

const row = (key: string, title: string, commits: number | null, days: number | null) => ({
  key,
  title,
  commits,
  days,
});

// 120 entries: commits 0..119 (every seventh without a figure), days falling as commits rise.
const rows = Array.from({ length: 120 }, (_, i) =>
  row(`decisions.d${String(i).padStart(3, '0')}`, `Decision ${119 - i}`, i % 7 === 3 ? null : i, 400 - i * 3),
);

describe('stalenessPage', () => {
  it('defaults to the most drifted first, 50 a page, rows without a figure last', () => {
    const p1 = stalenessPage(rows, {});
    expect(p1).toMatchObject({ page: 1, pages: 3, total: 120 });
    expect(p1.rows).toHaveLength(50);
    expect(p1.rows.slice(0, 3).map((r) => r.commits)).toEqual([119, 118, 117]);
    const p3 = stalenessPage(rows, { page: 3 });
    expect(p3.rows).toHaveLength(20);
    expect(p3.rows.at(-1)!.commits).toBeNull();
    // The least drifted first: still rows without a figure last.
    const asc = stalenessPage(rows, { dir: 'asc' });
    expect(asc.rows.slice(0, 2).map((r) => r.commits)).toEqual([0, 1]);
    expect(stalenessPage(rows, { dir: 'asc', page: 3 }).rows.at(-1)!.commits).toBeNull();
  });

  it('sorts by name (case-insensitive, A first) and by days, ties by key', () => {
    const names = stalenessPage([row('b', 'beta', 1, 1), row('a', 'Alpha', 1, 1), row('c', 'alpha', 5, 5)], {
      sort: 'name',
    }).rows.map((r) => r.key);
    expect(names).toEqual(['a', 'c', 'b']);
    const oldest = stalenessPage(rows, { sort: 'days' }).rows[0]!;
    expect(oldest.days).toBe(400);
    expect(stalenessPage(rows, { sort: 'name', dir: 'desc' }).rows[0]!.title).toBe('Decision 99');
  });

  it('a page past the end shows the last page', () => {
    expect(stalenessPage(rows, { page: 9 })).toMatchObject({ page: 3, pages: 3 });
    expect(stalenessPage([], {})).toMatchObject({ page: 1, pages: 1, total: 0, rows: [] });
  });
});

describe('the URL', () => {
  it('keeps sort, direction and page; drops what is malformed', () => {
    expect(parseStalenessParams({ sort: 'name', dir: 'desc', page: '2' })).toEqual({
      sort: 'name',
      dir: 'desc',
      page: 2,
    });
    expect(parseStalenessParams({ sort: 'size', dir: 'up', page: '-1' })).toEqual({});
    expect(stalenessHref({ sort: 'name', page: 2 }, { page: 3 })).toBe('/records/staleness?sort=name&page=3');
    expect(stalenessHref({ sort: 'days', page: 2 }, { sort: undefined, page: undefined })).toBe('/records/staleness');
  });
});
