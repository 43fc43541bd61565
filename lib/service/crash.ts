/**
 * Test-only crash injection: when MEMTRUST_CRASH_AT names a step, the process
 * kills itself with SIGKILL right there (no cleanup, no flush), so tests can
 * prove recovery from every point of a transition. Inert without the variable.
 */
export const CRASH_STEPS = [
  'after-journal',
  'after-temp-write',
  'after-link',
  'after-temp-unlink',
  'after-source-unlink',
  'after-index-file',
  'after-audit',
  'after-db',
] as const;
export type CrashStep = (typeof CRASH_STEPS)[number];

export function crashPoint(step: CrashStep): void {
  if (process.env.MEMTRUST_CRASH_AT === step) process.kill(process.pid, 'SIGKILL');
}
