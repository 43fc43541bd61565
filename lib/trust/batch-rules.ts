/**
 * When a batch needs explicit confirmation (docs/batches.md "Confirmation"): demoting or
 * moving more than 10 files, more than a quarter of one root's memories, or rewriting more
 * than 10 files in place (a back-fill), is never done on a single keystroke.
 */

export const CONFIRM_ABOVE_FILES = 10;

export interface RootShare {
  root: string;
  /** Files of this root the batch would demote or move. */
  moving: number;
  /** Memories in the root's live folder (what a session can load). */
  memories: number;
}

export interface Confirmation {
  needed: boolean;
  /** The number the user must confirm (typed in the dashboard): every file the batch moves. */
  count: number;
  /** Why confirmation is needed, one sentence; null when it is not. */
  reason: string | null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * `rewriting`: files the batch rewrites in place, moved or not (a back-fill stamps every file
 * it plans); above 10 the user confirms that number.
 */
export function confirmationFor(roots: readonly RootShare[], rewriting = 0): Confirmation {
  if (rewriting > CONFIRM_ABOVE_FILES) {
    return {
      needed: true,
      count: rewriting,
      reason: `it would rewrite ${plural(rewriting, 'file', 'files')} (more than ${CONFIRM_ABOVE_FILES})`,
    };
  }
  const count = roots.reduce((n, r) => n + r.moving, 0);
  if (count > CONFIRM_ABOVE_FILES) {
    return {
      needed: true,
      count,
      reason: `it would demote or move ${plural(count, 'file', 'files')} (more than ${CONFIRM_ABOVE_FILES})`,
    };
  }
  // "More than a quarter": 3 of 10 needs confirmation, 2 of 8 does not.
  const heavy = roots.find((r) => r.moving > 0 && r.moving * 4 > r.memories);
  if (heavy) {
    return {
      needed: true,
      count,
      reason: `it would demote or move ${heavy.moving} of the ${plural(heavy.memories, 'memory', 'memories')} in ${heavy.root} (more than a quarter)`,
    };
  }
  return { needed: false, count, reason: null };
}
