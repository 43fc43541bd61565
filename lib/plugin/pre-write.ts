/**
 * Plugin hook entry (hooks/hooks.json, PreToolUse): the guard, bundled by
 * `npm run build:hooks` into dist/hooks/pre-write.cjs so a plugin install runs it with no
 * build step and no native module (docs/install.md). Same code as `memtrust hook pre-write`.
 */
import { main } from '../cli/hook-main';
import { pluginEnv, settle } from './entry';

pluginEnv();
settle(main(['hook', 'pre-write']));
