/**
 * Plugin hook entry (hooks/hooks.json, PostToolUse): the stamp, bundled into
 * dist/hooks/post-write.cjs. It goes through the trust service's write path with files
 * only: no SQLite index (docs/install.md, "Hooks without the index").
 */
import path from 'node:path';
import type { Env } from '../core/config';
import { processIo } from '../cli/io';
import { postWrite } from '../cli/hook-post';
import { pluginEnv, settle } from './entry';

// What Claude Code gave: the session start the stamp prepares (text-refresh.ts) runs with that.
const given = { ...process.env };
pluginEnv();
settle(
  // The SessionStart entry beside this bundle (hooks/hooks.json runs it with no arguments).
  postWrite(processIo, process.env as Env, {
    index: false,
    sessionStart: [path.join(__dirname, 'session-start.cjs')],
    sessionEnv: given,
  }).catch((e: unknown) => {
    // Never a stack trace: the hook's answer is its exit code (docs/hooks.md).
    processIo.err(`memtrust hook post-write: internal error: ${(e as Error).message}`);
    return 1;
  }),
);
