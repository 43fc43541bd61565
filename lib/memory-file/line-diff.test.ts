import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff';

const show = (a: string, b: string) =>
  lineDiff(a, b).map((r) => `${r.op === 'same' ? ' ' : r.op === 'added' ? '+' : '-'}${r.text}`);

describe('lineDiff', () => {
  it('keeps the common lines and shows a replaced line old, then new', () => {
    expect(show('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n')).toEqual([' a', '-b', '+B', ' c', ' d', '+e']);
  });

  it('numbers lines in each text', () => {
    const rows = lineDiff('x\ny\n', 'w\nx\ny\n');
    expect(rows).toEqual([
      { op: 'added', text: 'w', a: null, b: 1 },
      { op: 'same', text: 'x', a: 1, b: 2 },
      { op: 'same', text: 'y', a: 2, b: 3 },
    ]);
  });

  it('a deleted or an empty text', () => {
    expect(show('a\nb\n', '')).toEqual(['-a', '-b']);
    expect(show('', 'a\n')).toEqual(['+a']);
    expect(show('same\n', 'same\n')).toEqual([' same']);
  });

  it('finds the longest common run in a reordered middle', () => {
    expect(show('h\n1\n2\n3\nt\n', 'h\n3\n1\n2\nt\n')).toEqual([' h', '+3', ' 1', ' 2', '-3', ' t']);
  });
});
