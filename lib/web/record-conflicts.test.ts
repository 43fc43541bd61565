import { describe, expect, it } from 'vitest';
import { pairConflicts, partnersOf } from './record-conflicts';

const r = (source: string, key: string, conflictsWith: unknown) => ({
  id: `${source}:${key}`,
  key,
  source,
  detail: { conflictsWith },
});

describe('contradiction pairs', () => {
  it('pairs two records naming each other once, ordered by id', () => {
    const a = r('s1', 'mem_b', ['mem_a']);
    const b = r('s1', 'mem_a', ['mem_b']);
    expect(pairConflicts([a, b]).map(([x, y]) => [x.id, y.id])).toEqual([['s1:mem_a', 's1:mem_b']]);
  });
  it('resolves a key within the same root first, a full id anywhere, and skips itself and unknown names', () => {
    const a = r('s1', 'mem_a', ['mem_x', 's2:mem_a', 'mem_a', 'gone']);
    const x1 = r('s1', 'mem_x', []);
    const x2 = r('s2', 'mem_x', []);
    const other = r('s2', 'mem_a', []);
    expect(partnersOf(a, [x2, x1, other, a]).map((p) => p.id)).toEqual(['s1:mem_x', 's2:mem_a']);
  });
  it('asks the lookup for a name outside the flagged list', () => {
    const a = r('s1', 'mem_a', ['mem_b']);
    const b = r('s1', 'mem_b', []);
    const asked: string[] = [];
    const pairs = pairConflicts([a], (name, source) => {
      asked.push(`${source}/${name}`);
      return name === 'mem_b' ? b : null;
    });
    expect(asked).toEqual(['s1/mem_b']);
    expect(pairs).toHaveLength(1);
  });
  it('reads a single name written as a string, and no name at all', () => {
    expect(partnersOf(r('s', 'a', 'b'), [r('s', 'b', [])]).map((p) => p.key)).toEqual(['b']);
    expect(pairConflicts([r('s', 'a', null)])).toEqual([]);
  });
});
