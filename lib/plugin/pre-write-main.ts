/**
 * The guard (hooks/hooks.json, PreToolUse), dist/hooks/pre-write-main.cjs, which
 * dist/hooks/pre-write.cjs loads through V8's code cache (cached-main.ts), as
 * SessionStart's: a plugin install runs it with no build step and no native module, and a
 * write does not compile its 30 KiB again (docs/install.md). Same code as
 * `memtrust hook pre-write`.
 */
import { main } from '../cli/hook-main';
import { pluginEnv, settle } from './entry';

pluginEnv();
settle(main(['hook', 'pre-write']));
