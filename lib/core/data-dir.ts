/**
 * The user's data directory for memtrust (docs/configuration.md): a module of its own so the
 * plugin's hook entries find their code cache without loading the configuration
 * (lib/plugin/cached-main.ts).
 */
import os from 'node:os';
import path from 'node:path';
import type { Env } from './env';

export function dataDir(env: Env = process.env): string {
  const base = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'memtrust');
}
