/**
 * Owner identity for the secret check (CONTRACT §2.2): environment, then user
 * settings, then git's user.email and the OS user. Computed once per process
 * because `git config` costs a subprocess.
 */
import type { Env } from './env';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { OwnerIdentity } from './validators/types';
import { readSettings } from './settings';

let cached: { key: string; owner: OwnerIdentity } | undefined;

function gitEmail(): string | undefined {
  try {
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

export function ownerIdentity(env: Env = process.env): OwnerIdentity {
  const key = [env.OWNER_EMAILS, env.OWNER_GITHUB_HANDLE, env.OWNER_HOME_USER, env.XDG_CONFIG_HOME].join('\0');
  if (cached?.key === key) return cached.owner;
  const fromSettings = safeSettingsOwner(env);
  const envEmails = env.OWNER_EMAILS?.split(/\s+/).filter(Boolean);
  const emails = envEmails?.length ? envEmails : fromSettings?.emails?.length ? fromSettings.emails : [gitEmail()];
  const owner: OwnerIdentity = {
    emails: emails.filter((e): e is string => !!e),
    githubHandle: env.OWNER_GITHUB_HANDLE || fromSettings?.githubHandle,
    homeUser: env.OWNER_HOME_USER || fromSettings?.homeUser || osUser(),
  };
  cached = { key, owner };
  return owner;
}

function safeSettingsOwner(env: Env) {
  try {
    return readSettings(env).owner;
  } catch {
    // A broken settings file is reported where settings are used; the check still runs.
    return undefined;
  }
}

/** Settings changed: the next call reads them again. */
export function forgetOwnerIdentity(): void {
  cached = undefined;
}
