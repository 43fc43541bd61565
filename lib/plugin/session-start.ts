/**
 * Plugin hook entry (hooks/hooks.json, SessionStart): the session text, bundled into
 * dist/hooks/session-start.cjs. Same command as `memtrust context --format hook`; the
 * index it may use as a cache is not loaded here, so every file is read (docs/install.md).
 */
import { main } from '../cli/context-main';
import { pluginEnv, settle } from './entry';

pluginEnv();
settle(main(['context', '--format', 'hook']));
