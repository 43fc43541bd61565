/**
 * Plugin hook entry (hooks/hooks.json, PreToolUse), dist/hooks/pre-write.cjs: a few lines
 * that run the guard's bundle (pre-write-main.ts) through V8's code cache, so no write, a
 * memory's or another file's, compiles it again (docs/install.md, "Why the hooks are
 * committed bundles").
 */
import { runCached } from './cached-main';

runCached('pre-write-main.cjs');
