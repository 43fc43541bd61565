/**
 * An Aho–Corasick automaton over columns whose transitions are made when first taken
 * (docs/performance-validators.md, "Both scanners: fast paths"). Filling every transition up
 * front (as word-automaton.ts does for its few ASCII words) costs tens of milliseconds for the
 * secret check's words on a cold engine, which a hook checking one file would pay; made on
 * demand, a check pays for the transitions its text takes, and a long scan soon has them all.
 *
 * Used by secret-words.ts for the trigger words (trigger-automaton.ts) and the token hints
 * (hint-automaton.ts), and for the product of the two.
 */

import { trieOf } from './trie';

/** Not yet made, in a transition table. */
export const UNMADE = -1;

export class LazyAutomaton {
  readonly columns: number;
  /** Per state, the sequences (their indices) that end there, its own and those of its fall-backs. */
  readonly out: ReadonlyArray<readonly number[]>;
  private readonly children: Array<Map<number, number>>;
  private readonly fallBack: Int32Array;
  /** Per state × columns + column: the next state, or UNMADE. */
  private readonly delta: Int32Array;

  /** `seqs`: each a sequence of columns in [1, columns). */
  constructor(seqs: readonly (readonly number[])[], columns: number) {
    this.columns = columns;
    const { children, own } = trieOf(seqs);
    // Breadth first, so a state's fall-back (its longest proper suffix that is a state) is known first.
    const fallBack = new Int32Array(children.length);
    const out: number[][] = new Array(children.length);
    out[0] = [];
    const queue = [0];
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      for (const [col, child] of children[s]!) {
        let f = fallBack[s]!;
        while (s !== 0 && f !== 0 && !children[f]!.has(col)) f = fallBack[f]!;
        const to = s === 0 ? 0 : (children[f]!.get(col) ?? 0);
        fallBack[child] = to;
        out[child] = own[child]!.length === 0 ? out[to]! : [...own[child]!, ...out[to]!];
        queue.push(child);
      }
    }
    this.children = children;
    this.fallBack = fallBack;
    this.out = out;
    this.delta = new Int32Array(children.length * columns).fill(UNMADE);
  }

  /** The state after `state` on `col`: the child there, or else the fall-back's (column 0: the start). */
  next(state: number, col: number): number {
    const k = state * this.columns + col;
    const known = this.delta[k]!;
    if (known !== UNMADE) return known;
    const child = this.children[state]!.get(col);
    const to = child !== undefined ? child : state === 0 ? 0 : this.next(this.fallBack[state]!, col);
    this.delta[k] = to;
    return to;
  }
}
