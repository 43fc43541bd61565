/**
 * What the stamp loads only for a write that lands inside a memory root (lib/cli/hook-post.ts):
 * the trust service's write path, the files-only context and the versions kept after a stamp.
 * The plugin's stamp ships it as a bundle of its own, dist/hooks/post-write-deps.cjs, so a
 * write elsewhere — most of the assistant's writes — never compiles it (docs/install.md, "Why
 * the hooks are committed bundles").
 */
import type { Config, Env } from '../core/config';

export { stampAssistantWrite } from '../service/session/hook-stamp';
export { createFilesContext } from '../service/files-context';
export { keepAfterStamp } from '../service/versions/hook-keep';

/** The CLI's context with the SQLite index (never reached by the plugin, which has none). */
export async function indexContext(cfg: Config, env: Env) {
  return (await import('../service/context')).createContext(cfg, env);
}
