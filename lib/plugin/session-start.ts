/**
 * Plugin hook entry (hooks/hooks.json, SessionStart), dist/hooks/session-start.cjs: a few
 * lines that run the hook's bundle (session-start-main.ts) through V8's code cache, so a
 * session start does not compile 250 KiB of JavaScript again (docs/install.md, "Why the
 * hooks are committed bundles").
 */
import { runCached } from './cached-main';

runCached('session-start-main.cjs');
