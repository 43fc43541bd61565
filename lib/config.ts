/**
 * Configuration from the environment, flags and user-level settings (docs/configuration.md).
 * Nothing is read from the current directory: a repository must not be able to
 * redirect memtrust to other paths (docs/security.md "Roots").
 */
import type { Env } from './env';
export type { Env } from './env';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkRootPath } from './paths';
import { DEFAULT_UNDO_RETENTION_DAYS, readSettings, settingsPath } from './settings';

export type RootsOrigin = 'flag' | 'env' | 'settings' | 'default' | 'demo';

export interface Config {
  roots: string[];
  rootsOrigin: RootsOrigin;
  dbPath: string;
  /** The user's data directory: undo copies and, for stores in a git checkout, memtrust's own files (docs/batches.md). */
  dataDir: string;
  /** How many days a batch's undo copies are kept (settings `undoRetentionDays`; docs/batches.md). */
  undoRetentionDays: number;
  machine: string;
  now: () => Date;
  settingsPath: string;
  /** True when the roots are the generated demo root (the UI says so). */
  demo: boolean;
}

export class ConfigError extends Error {
  readonly code = 'config';
}

export interface ConfigInput {
  env?: Env;
  /** `--root` flags, in order (may repeat). */
  flagRoots?: string[];
}

export function dataDir(env: Env = process.env): string {
  const base = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'memtrust');
}

/** The generated demo root: in the user's data directory, never the install folder
 * (docs/configuration.md; docs/roots.md). */
export function demoRootPath(env: Env = process.env): string {
  return path.join(dataDir(env), 'demo-root');
}

export function parseNow(raw: string | undefined): () => Date {
  if (!raw) return () => new Date();
  const t = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(t)) {
    throw new ConfigError(`MEMTRUST_NOW is not an ISO 8601 date: "${raw}"`);
  }
  const fixed = new Date(t);
  return () => new Date(fixed);
}

export function machineName(env: Env = process.env): string {
  // MEMTRUST_MACHINE lets tests play several machines sharing one synced root.
  const raw = env.MEMTRUST_MACHINE || os.hostname().split('.')[0] || 'localhost';
  return raw.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 64) || 'localhost';
}

function resolveRoots(input: ConfigInput, env: Env): { roots: string[]; origin: RootsOrigin } {
  if (input.flagRoots && input.flagRoots.length > 0) return { roots: input.flagRoots, origin: 'flag' };
  if (env.MEMTRUST_ROOT) {
    return { roots: env.MEMTRUST_ROOT.split(path.delimiter).filter((r) => r !== ''), origin: 'env' };
  }
  const settings = readSettings(env);
  if (settings.roots && settings.roots.length > 0) return { roots: settings.roots, origin: 'settings' };
  const claude = path.join(os.homedir(), '.claude', 'claude-memory');
  if (fs.existsSync(claude)) return { roots: [claude], origin: 'default' };
  return { roots: [demoRootPath(env)], origin: 'demo' };
}

/** `undoRetentionDays` from the user settings; a broken settings file is reported where roots are read. */
function retentionDays(env: Env): number {
  try {
    return readSettings(env).undoRetentionDays ?? DEFAULT_UNDO_RETENTION_DAYS;
  } catch {
    return DEFAULT_UNDO_RETENTION_DAYS;
  }
}

export function loadConfig(input: ConfigInput = {}): Config {
  const env = input.env ?? process.env;
  const { roots, origin } = resolveRoots(input, env);
  const home = os.homedir();
  const checked = roots.map((r) => {
    const problem = checkRootPath(r, home);
    if (problem) throw new ConfigError(`memory root refused: ${JSON.stringify(r)}: ${problem}`);
    return path.resolve(r);
  });
  const unique = [...new Set(checked)];
  return {
    roots: unique,
    rootsOrigin: origin,
    dbPath: env.MEMTRUST_DB || path.join(dataDir(env), 'index.sqlite'),
    dataDir: dataDir(env),
    undoRetentionDays: retentionDays(env),
    machine: machineName(env),
    now: parseNow(env.MEMTRUST_NOW),
    settingsPath: settingsPath(env),
    demo: origin === 'demo',
  };
}
