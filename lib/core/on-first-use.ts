/**
 * A value made on the first call and kept for every later one.
 *
 * For regexes with Unicode property classes (`\p{L}`, `\p{N}`, `\p{Extended_Pictographic}`):
 * V8 parses a regex literal when the literal is evaluated, and each such class is built from
 * ICU's tables then (with the `i` flag, closed over case too), even in a process that never
 * runs the regex. The guard's check of a clean memory runs none of them, so they are made on
 * first use instead of at module load (docs/performance.md, "The hooks"). The function returns
 * the same object every time: a global regex keeps its `lastIndex` as a module-level one would.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => {
    if (value === undefined) value = make();
    return value;
  };
}
