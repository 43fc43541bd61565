import { describe, expect, it } from 'vitest';
import { parseInboxParams, inboxHref } from './inbox-url';
import { parseTableParams, withParams } from './url-state';

describe('table URL state (one parser, one href builder for every table)', () => {
  it('takes the first of a repeated parameter, drops empty, unknown and malformed ones', () => {
    expect(parseTableParams({ q: ['deploy', 'other'], type: 'nope', page: '0', sort: '', extra: 'x' })).toEqual({
      q: 'deploy',
    });
    expect(parseInboxParams({ size: '7', sel: 'root:a.md', age: 'bogus' })).toEqual({ sel: 'root:a.md' });
  });
  it('builds the same view with a value changed or removed, and a bare path when nothing is left', () => {
    const p = parseTableParams({ q: 'a b', page: '2' });
    expect(withParams('/tiers/all', p, { page: undefined, type: 'user' })).toBe('/tiers/all?q=a+b&type=user');
    expect(withParams('/tiers/all', p, { q: '', page: undefined })).toBe('/tiers/all');
    expect(inboxHref(parseInboxParams({ queue: 'due' }), { sel: 'r:x.md' })).toBe('/review?queue=due&sel=r%3Ax.md');
  });
});
