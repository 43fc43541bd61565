import { describe, expect, it } from 'vitest';
import { parseAsOf } from './as-of-param';
import { parseTime } from '../cli/commands/list-as-of';

describe('the "as of" time', () => {
  it('reads a zoned time, a zone-less date-time as UTC, a bare date as the end of that day', () => {
    expect(parseAsOf('2026-11-21T18:30:00Z')?.toISOString()).toBe('2026-11-21T18:30:00.000Z');
    expect(parseAsOf('2026-11-21T18:30+02:00')?.toISOString()).toBe('2026-11-21T16:30:00.000Z');
    expect(parseAsOf('2026-11-21T18:30')?.toISOString()).toBe('2026-11-21T18:30:00.000Z');
    expect(parseAsOf('2026-11-21')?.toISOString()).toBe('2026-11-21T23:59:59.999Z');
  });

  it('anything else is no time: null for a page, a usage error naming it for the CLI', () => {
    for (const bad of [undefined, '', 'yesterday', '2026-13-45', '21/11/2026', 'x'.repeat(60)])
      expect(parseAsOf(bad)).toBeNull();
    expect(() => parseTime('yesterday')).toThrow(/expected an ISO 8601 time.*"yesterday"/);
  });
});
