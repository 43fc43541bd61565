import { describe, expect, it } from 'vitest';
import {
  addDays,
  isoNow,
  monthOf,
  parseDate,
  parseDateTime,
  parseTimestamp,
  startOfUtcDay,
  today,
  utcDaysBetween,
} from './dates';

describe('parseDate', () => {
  it.each([
    ['2026-05-01', '2026-05-01T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29', '2000-02-29T00:00:00.000Z'],
    ['2026-12-31', '2026-12-31T00:00:00.000Z'],
  ])('accepts %s', (text, iso) => {
    expect(parseDate(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '2026-02-30',
    '2025-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-1-01',
    '26-01-01',
    ' 2026-01-01',
    '2026-01-01 ',
    '2026/01/01',
    '2026-01-01T00:00:00Z',
    '',
    'today',
  ])('rejects %j', (text) => {
    expect(parseDate(text)).toBeNull();
  });

  it('keeps years below 100 as written (no 19xx mapping)', () => {
    expect(parseDate('0050-01-01')?.getUTCFullYear()).toBe(50);
  });
});

describe('parseDateTime', () => {
  it('accepts the one UTC form', () => {
    expect(parseDateTime('2026-04-15T09:30:00Z')?.toISOString()).toBe('2026-04-15T09:30:00.000Z');
    expect(parseDateTime('2026-04-15T23:59:59Z')?.toISOString()).toBe('2026-04-15T23:59:59.000Z');
  });

  it.each([
    '2026-02-30T10:00:00Z',
    '2026-04-15T24:00:00Z',
    '2026-04-15T10:60:00Z',
    '2026-04-15T10:00:60Z',
    '2026-04-15T09:30:00',
    '2026-04-15T09:30:00+00:00',
    '2026-04-15T09:30:00.000Z',
    '2026-04-15 09:30:00Z',
    '2026-04-15T09:30Z',
    '2026-04-15t09:30:00z',
  ])('rejects %j', (text) => {
    expect(parseDateTime(text)).toBeNull();
  });
});

describe('parseTimestamp', () => {
  it('tells the two forms apart', () => {
    expect(parseTimestamp('2026-05-01')?.kind).toBe('date');
    expect(parseTimestamp('2026-05-01T10:00:00Z')?.kind).toBe('datetime');
    expect(parseTimestamp(undefined)).toBeNull();
    expect(parseTimestamp('2026-02-30')).toBeNull();
  });
});

describe('formatting', () => {
  it('isoNow drops milliseconds and uses UTC', () => {
    expect(isoNow(new Date('2026-05-01T09:30:05.999Z'))).toBe('2026-05-01T09:30:05Z');
    expect(isoNow(new Date('2026-05-01T23:30:00-05:00'))).toBe('2026-05-02T04:30:00Z');
  });

  it('today is the UTC date', () => {
    expect(today(new Date('2026-05-01T23:59:59Z'))).toBe('2026-05-01');
    expect(today(new Date('2026-05-01T20:00:00-05:00'))).toBe('2026-05-02');
  });

  it('monthOf gives YYYY-MM', () => {
    expect(monthOf(new Date('2026-01-31T23:59:59Z'))).toBe('2026-01');
  });

  it('throws on an invalid Date (a bug, not an expected failure)', () => {
    expect(() => today(new Date('nope'))).toThrow(RangeError);
  });
});

describe('utcDaysBetween', () => {
  it.each([
    ['2026-05-01T00:00:00Z', '2026-05-01T23:59:59Z', 0],
    ['2026-05-01T23:59:59Z', '2026-05-02T00:00:00Z', 1],
    ['2026-05-01T12:00:00Z', '2026-05-08T11:00:00Z', 7],
    ['2026-05-08T00:00:00Z', '2026-05-01T00:00:00Z', -7],
    ['2024-02-28T00:00:00Z', '2024-03-01T00:00:00Z', 2],
  ])('%s → %s = %i', (a, b, n) => {
    expect(utcDaysBetween(new Date(a), new Date(b))).toBe(n);
  });

  it('addDays and startOfUtcDay are exact', () => {
    expect(addDays(new Date('2026-05-01T09:30:00Z'), 7).toISOString()).toBe('2026-05-08T09:30:00.000Z');
    expect(startOfUtcDay(new Date('2026-05-01T09:30:00Z')).toISOString()).toBe('2026-05-01T00:00:00.000Z');
  });
});
