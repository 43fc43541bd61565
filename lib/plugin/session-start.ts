/**
 * Plugin hook entry (hooks/hooks.json, SessionStart): the session text, bundled into
 * dist/hooks/session-start.cjs. Same command as `memtrust context --format hook`; the
 * index it may use as a cache is not loaded here, so every file is read (docs/install.md).
 */
import { main } from '../cli/context-main';
import { hookIo } from '../cli/io';
import { pluginEnv, settle } from './entry';

pluginEnv();
// The answer straight to fd 1, as the guard's: process.stdout for a pipe loads the stream modules.
settle(main(['context', '--format', 'hook'], hookIo));
