/**
 * The time bound of the hostile-input tests (1 MiB single lines, anchor bombs): they
 * guard against super-linear work, which on such inputs takes minutes, not against a
 * slow machine. Linear work takes well under a second here; the bound leaves room for
 * a loaded machine (CI beside other jobs) so only a real blow-up fails.
 */
export const BOUNDED_MS = 5_000;
