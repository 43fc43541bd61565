/**
 * Plugin hook entry (hooks/hooks.json, PostToolUse), dist/hooks/post-write.cjs: runs the
 * stamp's bundle (post-write-main.ts) through V8's code cache, so the hook that follows every
 * assistant write does not compile 350 KiB of JavaScript again (docs/install.md, "Why the
 * hooks are committed bundles").
 */
import { runCached } from './cached-main';

runCached('post-write-main.cjs');
