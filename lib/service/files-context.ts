/**
 * A service context without the SQLite index, for the hooks a Claude Code plugin runs
 * (docs/install.md, "Hooks without the index"): Claude Code installs a plugin's packages
 * with `npm ci --ignore-scripts`, so better-sqlite3 is never compiled there. Files are the
 * truth; the write path (lib/service/index/index-optional.ts) takes what it needs from them
 * and the dashboard's next scan brings its index up to date.
 */
import type { Env } from '../core/env';
import type { Config } from '../core/config';
import type { DbHandle } from '../../db/client';
import { ownerIdentity } from '../core/identity';
import { DEFAULT_OWNER_EMAIL } from '../demo/corpus';
import type { ServiceContext } from './context';
import { describeSources } from '../sources';
import { setDataDir } from './meta/places';

/** Any use of the index from a files-only context is a bug: say so by name, never a native-module error. */
const NO_INDEX: DbHandle = new Proxy({} as DbHandle, {
  get(_target, key) {
    throw new Error(`the index is not open in this context (files only; tried to use its ${String(key)})`);
  },
});

export function createFilesContext(config: Config, env: Env = process.env): ServiceContext {
  // As createContext: memtrust's own files of each root are placed from the data directory.
  setDataDir(config.dataDir, config.roots);
  return {
    config,
    handle: NO_INDEX,
    ...describeSources(config.roots, env),
    now: config.now,
    machine: config.machine,
    env,
    owner: () => {
      const o = ownerIdentity(env);
      // As createContext: in demo mode the demo corpus's fictional owner is us.
      return config.demo ? { ...o, emails: [...o.emails, DEFAULT_OWNER_EMAIL] } : o;
    },
    noIndex: true,
  };
}
