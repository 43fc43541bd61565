/**
 * Everything a service call needs, built once from the configuration: the
 * database, the sources, the owner identity and the clock. The CLI and the web
 * app build it the same way; tests build it over temp dirs.
 */
import type { Env } from '../core/env';
import { openDb, type DbHandle } from '../../db/client';
import type { Config } from '../core/config';
import { describeSource, describeSources, splitSources, type FileSourceInfo, type SourceInfo } from '../sources';
import { ownerIdentity } from '../core/identity';
import type { OwnerIdentity } from '../validators/types';
import { DEFAULT_OWNER_EMAIL } from '../demo';
import { setDataDir } from './meta/places';
import { runSteps, type Steps } from './index/steps';

export interface ServiceContext {
  config: Config;
  handle: DbHandle;
  /** Roots read file by file: their adapter has `files` (trust-model roots, Claude Code folders; refused roots too). */
  sources: FileSourceInfo[];
  /** Roots whose adapter reads them as records, without `files` (docs/records.md). */
  recordSources: SourceInfo[];
  now: () => Date;
  machine: string;
  owner: () => OwnerIdentity;
  /** The environment the context was made with: where the Claude Code home is, for each root's project. */
  env?: Env;
  /**
   * No index: the plugin's hooks, where the native SQLite module is not built
   * (lib/service/files-context.ts). `handle` then throws on use; the write path goes by files.
   */
  noIndex?: boolean;
}

export function createContext(config: Config, env: Env = process.env): ServiceContext {
  // memtrust's own files of each root are placed from this configuration's data directory.
  setDataDir(config.dataDir, config.roots);
  const handle = openDb(config.dbPath);
  return {
    config,
    handle,
    ...describeSources(config.roots, env),
    now: config.now,
    machine: config.machine,
    env,
    owner: () => {
      const o = ownerIdentity(env);
      // The demo corpus mentions its fictional owner's address; in demo mode that owner is us.
      return config.demo ? { ...o, emails: [...o.emails, DEFAULT_OWNER_EMAIL] } : o;
    },
  };
}

/** Re-detect roots (a root created or removed since start-up): a stat or two and a readdir per root. */
export function refreshSources(ctx: ServiceContext): void {
  runSteps(refreshSourcesSteps(ctx));
}

/** Roots re-detected per step of this many (the dashboard's first scan; 220 in a Claude Code home). */
const DETECT_STEP = 32;

/** `refreshSources` in steps: the roots change at the end, all at once. */
export function* refreshSourcesSteps(ctx: ServiceContext): Steps<void> {
  const all: SourceInfo[] = [];
  for (const r of ctx.config.roots) {
    all.push(describeSource(r, ctx.env));
    if (all.length % DETECT_STEP === 0) yield;
  }
  Object.assign(ctx, splitSources(all));
}
