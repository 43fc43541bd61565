/**
 * Work made of steps: a generator that pauses (`yield`) where a caller may let other work run.
 * The dashboard's first scan runs one step at a time between requests (lib/server/first-scan.ts,
 * docs/freshness.md "The dashboard's first scan"); every other caller runs it to its end.
 */
export type Steps<T> = Generator<void, T>;

/** Runs the steps to their end, at once. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
