/**
 * Plugin hook entry (hooks/hooks.json, PostToolUse): the stamp, bundled into
 * dist/hooks/post-write.cjs. It goes through the trust service's write path with files
 * only: no SQLite index (docs/install.md, "Hooks without the index").
 */
import type { Env } from '../core/config';
import { processIo } from '../cli/io';
import { postWrite } from '../cli/hook-post';
import { pluginEnv, settle } from './entry';

pluginEnv();
settle(
  postWrite(processIo, process.env as Env, { index: false }).catch((e: unknown) => {
    // Never a stack trace: the hook's answer is its exit code (docs/hooks.md).
    processIo.err(`memtrust hook post-write: internal error: ${(e as Error).message}`);
    return 1;
  }),
);
