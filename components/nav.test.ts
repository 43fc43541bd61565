import { describe, expect, it } from 'vitest';
import { navCurrent } from './nav';

describe('navCurrent', () => {
  it('marks the entry a page belongs to, and the overview only at /', () => {
    expect(navCurrent('/')).toBe('/');
    expect(navCurrent('/tiers/inferred')).toBe('/tiers/inferred');
    expect(navCurrent('/audit/charts')).toBe('/audit');
    expect(navCurrent('/batches/20261129-abc')).toBe('/batches');
    expect(navCurrent('/records/staleness')).toBe('/records');
  });
  it('marks nothing for pages reached from many places, and no prefix that is not a parent', () => {
    expect(navCurrent('/memories/abc')).toBeNull();
    expect(navCurrent('/reviewer')).toBeNull();
    expect(navCurrent('/tiers/verifiedx')).toBeNull();
  });
});
