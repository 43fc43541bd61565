/**
 * In the plugin's stamp, what `import('../hooks/post-write-deps')` becomes (lib/tools/build-hooks.mjs):
 * the second file of the stamp, dist/hooks/post-write-deps.cjs, loaded through V8's code cache
 * in the data directory (code-cache.ts; docs/install.md, "Why the hooks are committed bundles").
 */
import path from 'node:path';
import { dataDir } from '../core/data-dir';
import { requireWithCodeCache } from './code-cache';

type Deps = typeof import('../hooks/post-write-deps');

const deps = requireWithCodeCache(
  path.join(__dirname, 'post-write-deps.cjs'),
  path.join(dataDir(process.env), 'code-cache'),
) as Deps;

export const { stampAssistantWrite, createFilesContext, keepAfterStamp, indexContext } = deps;
