/**
 * Plugin hook entry (hooks/hooks.json, SessionStart), dist/hooks/session-start.cjs: the kept
 * session text when nothing it depends on changed (lib/service/session/text-cache.ts), else the
 * hook's bundle (session-start-main.ts) run through V8's code cache, so a session start does not
 * compile 250 KiB of JavaScript again (docs/install.md, "Why the hooks are committed bundles").
 */
import { hookIo } from '../cli/io';
import { startHook } from '../service/session/text-cache';
import { runCached } from './cached-main';

startHook('plugin:session-start-main.cjs', [], (s) => hookIo.out(s)).then(
  ({ served }) => {
    if (!served) runCached('session-start-main.cjs');
  },
  () => runCached('session-start-main.cjs'),
);
