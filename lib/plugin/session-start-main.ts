/**
 * The plugin's SessionStart hook (hooks/hooks.json): the session text, bundled into
 * dist/hooks/session-start-main.cjs, which dist/hooks/session-start.cjs loads through V8's
 * code cache (session-start.ts). Same command as `memtrust context --format hook`; the
 * index it may use as a cache is not loaded here, so every file is read (docs/install.md).
 */
import { main } from '../cli/context-main';
import { hookIo } from '../cli/io';
import { pluginEnv, settle } from './entry';

pluginEnv();
// The answer straight to fd 1, as the guard's: process.stdout for a pipe loads the stream modules.
settle(main(['context', '--format', 'hook'], hookIo));
