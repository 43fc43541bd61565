/**
 * Tests only: the real `memtrust` CLI (lib/cli/main.ts) in its own process, with the test
 * record adapters registered first — the shipped registry has none until the layout
 * adapters land. Used by apply-cli.test.ts to run record commands, SIGKILL them
 * mid-batch (MEMTRUST_CRASH_AT) and recover in a later run.
 */
import { registerForTests } from '@/lib/sources/registry';
import { testLinesAdapter, testReadOnlyAdapter } from './test-adapter';
import { main } from '@/lib/cli/main';

registerForTests(testLinesAdapter);
registerForTests(testReadOnlyAdapter);
main(process.argv.slice(2)).then((code) => process.exit(code));
