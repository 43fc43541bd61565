/**
 * In the plugin's guard, what `import('../hooks/pre-write-deps')` becomes (lib/tools/build-hooks.mjs):
 * the second file of the build, dist/hooks/pre-write-deps.cjs, loaded through V8's code cache
 * in the data directory (code-cache.ts; docs/install.md, "Why the hooks are committed bundles").
 */
import path from 'node:path';
import { dataDir } from '../core/data-dir';
import { requireWithCodeCache } from './code-cache';

type Deps = typeof import('../hooks/pre-write-deps');

const deps = requireWithCodeCache(
  path.join(__dirname, 'pre-write-deps.cjs'),
  path.join(dataDir(process.env), 'code-cache'),
) as Deps;

export const { judgeContent, ownerIdentity, writePriorNote } = deps;
