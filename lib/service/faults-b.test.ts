/**
 * Issue 19 item 3: the fault-injection suite, part b of 2 (docs/crash-safety.md,
 * "Fault-injection suite"). The rows live in fixtures/write-kinds.ts; this file takes
 * every other one (starting at 1) so the two parts run in parallel. Each write is
 * killed after each of its file-system calls, an editor saves a file there, and
 * both; after recovery every memory exists exactly once with its bytes and every
 * save is kept or the write refused. Prints how many points it covered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultSuite } from './fixtures/fault-harness';
import { WRITE_KINDS } from './fixtures/write-kinds';

faultSuite(
  'part b',
  WRITE_KINDS.filter((_, i) => i % 2 === 1),
  { describe, it, expect, beforeAll, afterAll },
);
