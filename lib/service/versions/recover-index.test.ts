/**
 * Where a recovered memory's MEMORY.md line goes back (recover.ts `withIndexLines`): in its
 * old place between the links that surrounded it, with the file's own line endings, every
 * other row byte for byte; never twice.
 */
import { describe, expect, it } from 'vitest';
import { withIndexLines } from './recover';

const line = (f: string, prev: string | null = null, next: string | null = null, pos = 0) => ({
  filename: f,
  line: `- [${f}](${f}) — back`,
  pos,
  before: prev === null ? [] : [prev],
  after: next === null ? [] : [next],
});

describe('withIndexLines', () => {
  it('puts a line back after the link that preceded it then', () => {
    const idx = '# Index\n- [a](a.md)\n- [c](c.md)\n\nNotes.\n';
    expect(withIndexLines(idx, [line('b.md', '- [a](a.md)', '- [c](c.md)')])).toEqual({
      text: '# Index\n- [a](a.md)\n- [b.md](b.md) — back\n- [c](c.md)\n\nNotes.\n',
      added: 1,
    });
  });

  it('before the link that followed it when the one before is gone, else after the last link', () => {
    const idx = '# Index\n- [c](c.md)\n- [d](d.md)\n';
    expect(withIndexLines(idx, [line('b.md', '- [a](a.md)', '- [c](c.md)')]).text).toBe(
      '# Index\n- [b.md](b.md) — back\n- [c](c.md)\n- [d](d.md)\n',
    );
    expect(withIndexLines(idx, [line('z.md', '- [y](y.md)', null)]).text).toBe(
      '# Index\n- [c](c.md)\n- [d](d.md)\n- [z.md](z.md) — back\n',
    );
  });

  it('lines that were next to each other go back in their old order, each after the one before', () => {
    // The old index: a, b, c, d, e; b, c and d were lost together.
    const old = [
      '- [a](a.md)',
      '- [b.md](b.md) — back',
      '- [c.md](c.md) — back',
      '- [d.md](d.md) — back',
      '- [e](e.md)',
    ];
    const lost = (i: number, f: string) => ({
      filename: f,
      line: old[i]!,
      pos: i,
      before: old.slice(0, i).reverse(),
      after: old.slice(i + 1),
    });
    const idx = '# Index\n- [a](a.md)\n- [e](e.md)\n';
    // Handed over in any order, they come back as they were.
    expect(withIndexLines(idx, [lost(2, 'c.md'), lost(3, 'd.md'), lost(1, 'b.md')]).text).toBe(
      `# Index\n${old.join('\n')}\n`,
    );
  });

  it('keeps CRLF rows as they are and writes the new one the same way', () => {
    const idx = '# Index\r\n- [a](a.md)\r\n';
    expect(withIndexLines(idx, [line('b.md', '- [a](a.md)')]).text).toBe(
      '# Index\r\n- [a](a.md)\r\n- [b.md](b.md) — back\r\n',
    );
  });

  it('an index with no link, an empty one, and a file it lists already', () => {
    expect(withIndexLines('# Index\n', [line('b.md')]).text).toBe('# Index\n- [b.md](b.md) — back\n');
    expect(withIndexLines('', [line('b.md')]).text).toBe('- [b.md](b.md) — back\n');
    expect(withIndexLines('- [B](b.md)\n', [line('b.md')])).toEqual({ text: '- [B](b.md)\n', added: 0 });
  });
});
