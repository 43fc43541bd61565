/**
 * A plugin hook's entry file: runs the hook's bundle beside it through V8's code cache in the
 * data directory (code-cache.ts). Only this, the code cache and the data directory's rule are
 * in the entry: the bundle itself is read from the cache instead of compiled on every run.
 */
import path from 'node:path';
import { dataDir } from '../core/data-dir';
import { requireWithCodeCache } from './code-cache';

export function runCached(bundle: string): void {
  requireWithCodeCache(path.join(__dirname, bundle), path.join(dataDir(process.env), 'code-cache'));
}
