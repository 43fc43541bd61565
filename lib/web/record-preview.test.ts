import { describe, expect, it } from 'vitest';
import { PREVIEW_LINE_CAP, changedSpan, previewHunks } from './record-preview';

const store = (status: string[]) => `${status.map((s, i) => `{"id":"mem_${i}","status":"${s}"}`).join('\n')}\n`;

describe('record action preview', () => {
  it('shows only the changed lines of a same-length rewrite, with their line numbers', () => {
    const before = store(['active', 'needs-review', 'active', 'needs-review']);
    const after = store(['active', 'active', 'active', 'expired']);
    const p = previewHunks({ file: 'team.memory.jsonl', before, after });
    expect(p.change).toBe('changed');
    expect(p.hunks).toEqual([
      {
        beforeLine: 2,
        afterLine: 2,
        removed: ['{"id":"mem_1","status":"needs-review"}'],
        added: ['{"id":"mem_1","status":"active"}'],
      },
      {
        beforeLine: 4,
        afterLine: 4,
        removed: ['{"id":"mem_3","status":"needs-review"}'],
        added: ['{"id":"mem_3","status":"expired"}'],
      },
    ]);
  });
  it('groups adjacent changed lines and shows a CRLF line end', () => {
    const p = previewHunks({ file: 'a.md', before: 'a\r\nb\r\nc\r\n', after: 'a\r\nB\r\nC\r\n' });
    expect(p.hunks).toEqual([{ beforeLine: 2, afterLine: 2, removed: ['b␍', 'c␍'], added: ['B␍', 'C␍'] }]);
  });
  it('shows inserted lines between the common head and tail, and new or removed files', () => {
    const p = previewHunks({
      file: 'x.md',
      before: '---\nkey: a\n---\nbody\n',
      after: '---\nkey: a\nquarantine-reason: old\n---\nbody\n',
    });
    expect(p.hunks).toEqual([{ beforeLine: 3, afterLine: 3, removed: [], added: ['quarantine-reason: old'] }]);
    expect(previewHunks({ file: 'q/x.md', before: '', after: 'one\n' }).change).toBe('created');
    expect(previewHunks({ file: 'x.md', before: 'one\n', after: '' }).change).toBe('removed');
  });
  it('passes every shown line through the mask and caps a huge change', () => {
    const p = previewHunks({ file: 'f', before: 'token=abc\n', after: 'token=xyz\n' }, (l) =>
      l.replace(/=.*/, '=⟦masked⟧'),
    );
    expect(p.hunks[0]).toMatchObject({ removed: ['token=⟦masked⟧'], added: ['token=⟦masked⟧'] });
    const big = previewHunks({
      file: 'f',
      before: '',
      after: Array.from({ length: 500 }, (_, i) => `l${i}`).join('\n'),
    });
    expect(big.hunks[0]!.added.length).toBe(PREVIEW_LINE_CAP);
    expect(big.omitted).toBe(500 - PREVIEW_LINE_CAP);
  });
});

describe('changed span of a line pair', () => {
  it('marks only the changed middle of a long line', () => {
    const a = '{"id":"mem_1","status":"needs-review","x":1}';
    const b = '{"id":"mem_1","status":"active","x":1}';
    const [pre, suf] = changedSpan(a, b);
    expect(a.slice(pre, a.length - suf)).toBe('needs-review');
    expect(b.slice(pre, b.length - suf)).toBe('active');
  });
  it('never cuts inside a mask', () => {
    const a = 'token ⟦credential #1 · 40 chars⟧ old';
    const b = 'token ⟦credential #1 · 41 chars⟧ old';
    const [pre, suf] = changedSpan(a, b);
    expect(a.slice(pre, a.length - suf)).toBe('⟦credential #1 · 40 chars⟧');
  });
});
