/**
 * Configuration from the environment, flags and user-level settings (docs/configuration.md).
 * Nothing is read from the current directory: a repository must not be able to
 * redirect memtrust to other paths (docs/security.md "Roots").
 */
import type { Env } from './env';
export type { Env } from './env';
import os from 'node:os';
import path from 'node:path';
import { checkRootPath } from './paths';
import { dataDir } from './data-dir';
import { DEFAULT_UNDO_RETENTION_DAYS, readSettings, settingsPath } from './settings';
import {
  homeFolders,
  homeHasFolders,
  projectHomeFolders,
  rootBelongsTo,
  targetHomeRoots,
  userTrustRoot,
} from '../sources/claude-home';

export type RootsOrigin = 'flag' | 'env' | 'settings' | 'default' | 'claude-home' | 'demo';

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
  /** The session's project the roots were scoped to (`context --project`, the SessionStart hook), else undefined. */
  project?: string;
  /** A listing's project filter (`list --project`; lib/service/project-filter.ts): the roots are all there, views keep these. */
  projectFilter?: string;
}

export class ConfigError extends Error {
  readonly code = 'config';
}

export interface ConfigInput {
  env?: Env;
  /** `--root` flags, in order (may repeat). */
  flagRoots?: string[];
  /**
   * Scope to one project (docs/session-context.md, "One project"): the Claude Code home gives
   * only the user-level folders and that project's, found without reading the other projects'
   * folders, and configured roots keep only the user-level ones and that project's. Never the
   * demo root.
   */
  project?: string;
  /**
   * The file one write goes to (the pre-write guard and the stamp, docs/hooks.md): the Claude
   * Code home gives only the user-level folders and the ones on that file's path
   * (`targetHomeRoots`), not every project's. Configured roots are all kept.
   */
  target?: string;
}

export { dataDir };

/** Where the index database is (`MEMTRUST_DB`, else the data directory): it does not depend on the roots. */
export function indexPath(env: Env = process.env): string {
  return env.MEMTRUST_DB || path.join(dataDir(env), 'index.sqlite');
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
  // The Claude Code home (CONTRACT §8; docs/roots.md "The Claude Code home"); the demo root only on a machine with none.
  const home =
    input.target !== undefined
      ? targetHomeRoots(input.target, env)
      : (input.project ? projectHomeFolders(input.project, env) : homeFolders(env)).map((f) => f.root);
  if (home.length > 0 || input.project || (input.target !== undefined && homeHasFolders(env))) {
    const only = home.length === 1 && home[0] === userTrustRoot(env);
    return { roots: home, origin: only ? 'default' : 'claude-home' };
  }
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
  const resolved = resolveRoots(input, env);
  const { origin } = resolved;
  // Configured roots scoped to a project keep the user-level ones and that project's (CONTRACT §4).
  const roots =
    input.project && origin !== 'claude-home' && origin !== 'default'
      ? resolved.roots.filter((r) => rootBelongsTo(r, input.project!, env))
      : resolved.roots;
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
    dbPath: indexPath(env),
    dataDir: dataDir(env),
    undoRetentionDays: retentionDays(env),
    machine: machineName(env),
    now: parseNow(env.MEMTRUST_NOW),
    settingsPath: settingsPath(env),
    demo: origin === 'demo',
    ...(input.project ? { project: path.resolve(input.project) } : {}),
  };
}
