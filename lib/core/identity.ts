/**
 * Owner identity for the secret check (docs/validators.md): environment, then user
 * settings, then git's user.email and the OS user. Computed once per process
 * because `git config` costs a subprocess.
 */
import type { Env } from './env';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OwnerIdentity } from '../validators/types';
import { readSettings } from './settings';
import { ownerFromEnv } from '../validators/owner';
import { knownValuesDir, loadKnownValues } from '../service/known-values-store';
import type { KnownValues } from '../validators/known-values';

let cached: { key: string; owner: OwnerIdentity } | undefined;

/**
 * `user.email` of the global git config read in-process (`~/.gitconfig`, else
 * `$XDG_CONFIG_HOME/git/config`): the SessionStart hook runs at every session start, and a
 * `git` process costs it tens of milliseconds on a busy machine. `undefined` when the files
 * use what this reader does not follow (includes, GIT_CONFIG_GLOBAL): then git is asked.
 */
export function gitEmailFromFiles(): string | null | undefined {
  if (process.env.GIT_CONFIG_GLOBAL || process.env.GIT_CONFIG_NOSYSTEM) return undefined;
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  let found: string | null = null;
  // Later files win: git reads the XDG file before ~/.gitconfig.
  for (const file of [path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')]) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    let section = '';
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
      const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
      if (head) {
        section = head[1]!.toLowerCase();
        if (section === 'include' || section === 'includeif') return undefined;
        continue;
      }
      const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
      if (section === 'user' && kv && kv[1]!.toLowerCase() === 'email') {
        const v = kv[2]!
          .replace(/\s+[#;].*$/, '')
          .replace(/^"(.*)"$/, '$1')
          .trim();
        found = v || null;
      }
    }
  }
  return found;
}

function gitEmail(): string | undefined {
  const fromFiles = gitEmailFromFiles();
  if (fromFiles !== undefined) return fromFiles ?? undefined;
  try {
    // Loaded only here (git's config has an include): node:child_process costs a hook's start about 10 ms.
    const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
    const out = execFileSync('git', ['config', '--global', '--get', 'user.email'], {
      encoding: 'utf8',
      timeout: 2000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return out || undefined;
  } catch {
    return undefined;
  }
}

function osUser(): string | undefined {
  try {
    return os.userInfo().username || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The owner identity and, when this machine has a set of known credential values
 * (docs/credentials.md, "Value propagation"), that set: every check that takes the owner
 * then finds those values too. The set is re-read only when its file changed.
 */
export function ownerIdentity(env: Env = process.env): OwnerIdentity {
  const base = baseOwner(env);
  const kv = loadKnownValues(knownValuesDir(env));
  if (!kv) return base;
  if (withSet?.base !== base || withSet.kv !== kv) withSet = { base, kv, owner: { ...base, knownValues: kv } };
  return withSet.owner;
}

let withSet: { base: OwnerIdentity; kv: KnownValues; owner: OwnerIdentity } | undefined;

function baseOwner(env: Env): OwnerIdentity {
  const key = [
    env.OWNER_EMAILS,
    env.OWNER_GITHUB_HANDLE,
    env.OWNER_HOME_USER,
    env.MEMTRUST_ALLOW_NETWORKS,
    env.XDG_CONFIG_HOME,
  ].join('\0');
  if (cached?.key === key) return cached.owner;
  const settings = safeSettings(env);
  const fromSettings = settings?.owner;
  // git is only asked when neither the environment nor the settings name an address.
  const emails = fromSettings?.emails?.length
    ? fromSettings.emails
    : env.OWNER_EMAILS?.trim()
      ? []
      : [gitEmail()].filter((e): e is string => !!e);
  const fallback: OwnerIdentity = {
    emails,
    githubHandle: fromSettings?.githubHandle,
    homeUser: fromSettings?.homeUser || osUser(),
    allowNetworks: settings?.allowNetworks,
    allowHomeUsers: settings?.allowHomeUsers,
  };
  const owner = ownerFromEnv(env, fallback);
  cached = { key, owner };
  return owner;
}

function safeSettings(env: Env) {
  try {
    return readSettings(env);
  } catch {
    // A broken settings file is reported where settings are used; the check still runs.
    return undefined;
  }
}

/** Settings changed: the next call reads them again. */
export function forgetOwnerIdentity(): void {
  cached = undefined;
}
