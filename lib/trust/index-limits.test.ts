import { describe, expect, it } from 'vitest';
import { applyIndexLimits, indexView, indexViewByCut, INDEX_WARNING } from './index-limits';

const bytes = (s: string) => new TextEncoder().encode(s).length;
const lines = (n: number, body = (i: number) => `- [Memory ${i}](user_${i}.md) — hook`) =>
  Array.from({ length: n }, (_, i) => `${body(i + 1)}\n`).join('');

describe('applyIndexLimits by lines', () => {
  it.each([199, 200])('%i lines are loaded whole', (n) => {
    const text = lines(n);
    expect(applyIndexLimits(text)).toMatchObject({ text, truncated: false, by: [], keptLines: n, totalLines: n });
  });

  it('201 lines: line 201 is cut and named', () => {
    const text = lines(201);
    const r = applyIndexLimits(text);
    expect(r.truncated).toBe(true);
    expect(r.by).toEqual(['lines']);
    expect(r.keptLines).toBe(200);
    const kept = lines(200);
    const cut = bytes(text) - bytes(kept);
    expect(r.text).toBe(
      `${kept}\n${INDEX_WARNING}\n> Not loaded: line 201 (${cut} of ${bytes(text).toLocaleString('en-US')} bytes), over the 200-line limit.\n`,
    );
  });

  it('names a range of lines', () => {
    expect(applyIndexLimits(lines(250)).text).toContain('> Not loaded: lines 201–250 (');
  });

  it('a final line without newline still counts as a line', () => {
    const text = `${lines(200)}last`;
    expect(applyIndexLimits(text)).toMatchObject({ truncated: true, totalLines: 201, keptLines: 200 });
  });

  it('empty text is untouched', () => {
    expect(applyIndexLimits('')).toMatchObject({ text: '', truncated: false, totalLines: 0 });
  });
});

describe('applyIndexLimits by bytes', () => {
  it('exactly 25,000 bytes is loaded whole', () => {
    const text = `${'a'.repeat(24_999)}\n`;
    expect(applyIndexLimits(text).truncated).toBe(false);
  });

  it('cuts at the last newline before the limit', () => {
    const text = lines(10, () => 'x'.repeat(3000)); // 10 × 3001 bytes
    const r = applyIndexLimits(text);
    expect(r).toMatchObject({ truncated: true, by: ['bytes'], keptLines: 8, keptBytes: 8 * 3001, totalBytes: 30_010 });
    expect(r.text.startsWith(lines(8, () => 'x'.repeat(3000)))).toBe(true);
    expect(r.text).toContain('> Not loaded: lines 9–10 (6,002 of 30,010 bytes), over the 25,000-byte limit.');
  });

  it('a newline ending exactly at byte 25,000 is kept', () => {
    const text = `${'a'.repeat(24_999)}\n${'b'.repeat(10)}\n`;
    expect(applyIndexLimits(text)).toMatchObject({ keptBytes: 25_000, keptLines: 1 });
  });

  it('multibyte lines are cut on a line boundary', () => {
    const text = lines(10, () => '€'.repeat(1000)); // 3001 bytes a line
    const r = applyIndexLimits(text);
    expect(r.keptBytes).toBe(8 * 3001);
    expect(r.text).not.toContain('\uFFFD');
  });

  it('one giant line is cut on a character boundary, never mid-character', () => {
    const text = '€'.repeat(10_000); // 30,000 bytes, no newline
    const r = applyIndexLimits(text);
    expect(r.keptBytes).toBe(24_999); // 8,333 whole characters
    expect(r.text.startsWith(`${'€'.repeat(8333)}\n\n${INDEX_WARNING}`)).toBe(true);
    expect(r.text).not.toContain('\uFFFD');
    expect(r.text).toContain('> Not loaded: the rest of line 1 and everything after it (5,001 of 30,000 bytes)');
  });

  it.each(['😀', 'é', '€', 'a'])('kept part never exceeds 25,000 bytes (%s)', (ch) => {
    const r = applyIndexLimits(lines(300, (i) => ch.repeat(50 + (i % 97))));
    const kept = r.text.slice(0, r.text.indexOf(INDEX_WARNING));
    expect(bytes(kept.trimEnd())).toBeLessThanOrEqual(25_000);
    expect(r.text).not.toContain('\uFFFD');
  });

  it('both limits at once are named together', () => {
    const r = applyIndexLimits(lines(300, () => 'y'.repeat(199)));
    expect(r.by).toEqual(['lines', 'bytes']);
    expect(r.keptLines).toBe(125);
    expect(r.text).toContain('over the 200-line and 25,000-byte limits.');
  });
});

describe('indexView', () => {
  // A seeded generator (no Math.random): the same texts at every run.
  const rng = (seed: number) => () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const pieces = [
    '- [Note](user_a.md) — hook',
    '# Heading',
    'plain prose',
    'é',
    '日本語',
    '😀',
    '\uD800',
    'x'.repeat(90),
  ];
  const randomIndex = (next: () => number) => {
    const n = Math.floor(next() * 400);
    let text = '';
    for (let i = 0; i < n; i++) {
      const k = 1 + Math.floor(next() * 4);
      for (let j = 0; j < k; j++) text += pieces[Math.floor(next() * pieces.length)]!.replace('user_a', `user_${i}`);
      text += next() < 0.1 ? '\r\n' : '\n';
    }
    return next() < 0.3 ? text.replace(/\n$/, '') : text;
  };

  it('is the view the cut text gives, by lines, by bytes, both and neither', () => {
    const next = rng(7);
    const seen = new Set<string>();
    for (let t = 0; t < 150; t++) {
      const text = randomIndex(next);
      // Small limits too, down to a byte cut inside the first line (the `partial` line).
      const maxLines = t % 3 === 0 ? 200 : 1 + Math.floor(next() * 250);
      const maxBytes = t % 3 === 0 ? 25_000 : 1 + Math.floor(next() * (t % 3 === 1 ? 150 : 9_000));
      const fast = indexView(text, maxLines, maxBytes);
      expect(fast).toEqual(indexViewByCut(text, maxLines, maxBytes));
      seen.add(fast.limits.by.join('+') || 'none');
      if (fast.lines.some((l) => l.state === 'partial')) seen.add('partial');
    }
    expect([...seen].sort()).toEqual(['bytes', 'lines', 'lines+bytes', 'none', 'partial']);
  });

  it('names the files of the lines past the cut, never loaded', () => {
    const v = indexView(lines(250));
    expect(v.limits).toMatchObject({ truncated: true, by: ['lines'], keptLines: 200, totalLines: 250 });
    expect(v.firstCutLine).toBe(201);
    expect(v.lines[199]).toMatchObject({ n: 200, state: 'loaded', file: 'user_200.md', fileLoaded: true });
    expect(v.lines[200]).toMatchObject({ n: 201, state: 'cut', file: 'user_201.md', fileLoaded: false });
  });
});
