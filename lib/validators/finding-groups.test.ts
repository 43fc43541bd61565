import { describe, expect, it } from 'vitest';
import { groupFindings, lineList } from './finding-groups';

const ip = (line: number) => ({
  check: 'secret',
  code: 'secret.private-ip',
  label: 'SECRET-DETECTED',
  class: 'personal' as const,
  line,
  message: 'private IPv4 address ⟦personal #1 · 10 chars⟧',
});

describe('groupFindings', () => {
  it('the same code and message on many lines is one group with its count and sorted lines', () => {
    const groups = groupFindings([
      ip(14),
      { check: 'validate', code: 'fm.missing', label: 'FAIL-STRUCT', line: 1, message: 'missing field: name' },
      ip(3),
      ip(9),
      ip(9),
      { check: 'validate', code: 'fm.missing', label: 'FAIL-STRUCT', line: 1, message: 'missing field: type' },
    ]);
    expect(groups.map((g) => [g.label, g.messages[0], g.count, g.lines])).toEqual([
      ['FAIL-STRUCT', 'missing field: name', 1, [1]],
      ['FAIL-STRUCT', 'missing field: type', 1, [1]],
      ['SECRET-DETECTED', 'private IPv4 address ⟦personal #1 · 10 chars⟧', 4, [3, 9, 14]],
    ]);
    expect(groups[2]).toMatchObject({ check: 'secret', cls: 'personal' });
  });

  it('lists at most twelve lines, then how many more', () => {
    expect(lineList([1, 2, 3])).toBe('1, 2, 3');
    expect(lineList(Array.from({ length: 15 }, (_, i) => i + 1))).toBe(
      '1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 3 more',
    );
  });
});
