/**
 * What a hook's run tells the loader of its bundle (lib/plugin/code-cache.ts,
 * lib/cli/memtrust.cjs): it checked a memory file on the spot, so it compiled the validators.
 * A code cache made by a run that checked none (an unchanged project) lacks them, and every
 * later session start after a change compiled them again, about 40 M instructions
 * (docs/performance.md, "The hooks"). Told this, the loader makes the cache again, once, from
 * such a run, under the name `….checks.v8`, which it reads first. The bundles of one process
 * share it through the global symbol registry (the entry and its main are two bundles).
 */
/** The key is the loaders' (code-cache-run.cjs, which cannot import this file; code-cache.test.ts holds the two to one symbol). */
export const CHECKS_RAN = Symbol.for('memtrust.code-cache.checks');

/** Marks this run as one that checked a memory file. */
export function markChecksRan(): void {
  (globalThis as Record<symbol, unknown>)[CHECKS_RAN] = true;
}

/** Did this run check a memory file? */
export function checksRan(): boolean {
  return (globalThis as Record<symbol, unknown>)[CHECKS_RAN] === true;
}
