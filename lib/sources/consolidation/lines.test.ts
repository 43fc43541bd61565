import { describe, expect, it } from 'vitest';
import type { ReplaceLines } from '../record';
import { applyLineEdits, lineAt } from './lines';

const b = Buffer.from('a\r\nbb\n\nccc');
const edit = (line: number, count: number, expect: string, bytes: string): ReplaceLines => ({
  kind: 'replace-lines',
  file: 'f',
  line,
  count,
  expect: Buffer.from(expect),
  bytes: Buffer.from(bytes),
});

describe('lineAt', () => {
  it('spans with their own endings, a last line without one, null past the end', () => {
    expect(lineAt(b, 1)).toEqual({ start: 0, contentEnd: 1, end: 3, eol: '\r\n' });
    expect(lineAt(b, 2)).toEqual({ start: 3, contentEnd: 5, end: 6, eol: '\n' });
    expect(lineAt(b, 3)).toEqual({ start: 6, contentEnd: 6, end: 7, eol: '\n' });
    expect(lineAt(b, 4)).toEqual({ start: 7, contentEnd: 10, end: 10, eol: '' });
    expect(lineAt(b, 5)).toBeNull();
    expect(lineAt(b, 0)).toBeNull();
    expect(lineAt(Buffer.from('x\n'), 2)).toBeNull();
  });
});

describe('applyLineEdits', () => {
  it('replaces one or several lines, bottom-up, checking expect', () => {
    expect(applyLineEdits(b, [edit(1, 1, 'a\r\n', 'A\r\n'), edit(4, 1, 'ccc', 'C')]).toString()).toBe('A\r\nbb\n\nC');
    expect(applyLineEdits(b, [edit(2, 2, 'bb\n\n', 'x\n')]).toString()).toBe('a\r\nx\nccc');
    expect(applyLineEdits(b, [edit(2, 0, '', 'new\n')]).toString()).toBe('a\r\nnew\nbb\n\nccc');
  });

  it('throws when the bytes moved or the line is past the end', () => {
    expect(() => applyLineEdits(b, [edit(2, 1, 'bX\n', 'y\n')])).toThrow(/line 2 changed/);
    expect(() => applyLineEdits(b, [edit(9, 1, '', 'y\n')])).toThrow(/past the end/);
    expect(() => applyLineEdits(b, [edit(4, 2, 'ccc', 'y')])).toThrow(/line 5 is past the end/);
  });
});
