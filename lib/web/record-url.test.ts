import { describe, expect, it } from 'vitest';
import { parseRecordParams, recordHref, recordsHref, toRecordFilter } from './record-url';

describe('record table URL state', () => {
  it('keeps known filters and drops malformed ones', () => {
    const p = parseRecordParams({
      q: 'deploy',
      layout: 'consolidation',
      tier: 'nope',
      flag: 'conflict',
      page: '3',
      extra: 'x',
    });
    expect(p).toEqual({ q: 'deploy', layout: 'consolidation', flag: 'conflict', page: 3 });
    expect(toRecordFilter(p)).toMatchObject({
      layout: 'consolidation',
      flag: 'conflict',
      q: 'deploy',
      offset: 100,
      limit: 50,
    });
  });
  it("speaks the inbox's words: a queue names its record flag, class and kind pass through", () => {
    const p = parseRecordParams({ queue: 'contradictions', cls: 'personal', kind: 'secret.private-ip' });
    expect(toRecordFilter(p)).toMatchObject({ flag: 'conflict', cls: 'personal', kind: 'secret.private-ip' });
    expect(toRecordFilter(parseRecordParams({ queue: 'candidate' })).flag).toBe('inbox');
    expect(toRecordFilter(parseRecordParams({ queue: 'stale' })).flag).toBe('stale');
    // A memory-only queue is no record filter.
    expect(parseRecordParams({ queue: 'conflicts' }).queue).toBeUndefined();
  });
  it('round-trips through the URL and removes a cleared value', () => {
    const p = parseRecordParams({ layout: 'governed', q: 'a b' });
    const href = recordsHref(p, { page: 2, q: undefined });
    expect(href).toBe('/records?layout=governed&page=2');
    const back = parseRecordParams(Object.fromEntries(new URLSearchParams(href.split('?')[1])));
    expect(back).toEqual({ layout: 'governed', page: 2 });
  });
  it('encodes a record id holding a colon as one path segment', () => {
    expect(recordHref('team-1a2b3c:mem_9f/x')).toBe('/records/team-1a2b3c%3Amem_9f%2Fx');
    expect(decodeURIComponent(recordHref('s:k').slice('/records/'.length))).toBe('s:k');
  });
});
