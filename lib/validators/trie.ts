/**
 * The trie both Aho–Corasick automata start from (word-automaton.ts fills every transition,
 * lazy-automaton.ts makes them when first taken): per state its children by column, and the
 * sequences (their indices) that end there. State 0 is the start.
 */
export interface Trie {
  children: Array<Map<number, number>>;
  own: number[][];
}

/** `seqs`: each a sequence of columns (column 0 is no character of any sequence). */
export function trieOf(seqs: readonly ArrayLike<number>[]): Trie {
  const children: Array<Map<number, number>> = [new Map()];
  const own: number[][] = [[]];
  seqs.forEach((seq, k) => {
    let s = 0;
    for (let i = 0; i < seq.length; i++) {
      const col = seq[i]!;
      let next = children[s]!.get(col);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        own.push([]);
        children[s]!.set(col, next);
      }
      s = next;
    }
    own[s]!.push(k);
  });
  return { children, own };
}
