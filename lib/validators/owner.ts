/**
 * Owner identity for the secret check: whose e-mail addresses and home folder
 * are "mine" and therefore not a leak (docs/validators.md, docs/configuration.md).
 *
 * Pure: the caller passes the environment and a fallback it built from user
 * settings, git's user.email and the OS user, so this file never reads the
 * process, the disk or git and stays trivially testable.
 */
import type { OwnerIdentity } from './types';
import { splitNetworks } from './allow';

/** A variable counts as set only when it has a non-blank value: `OWNER_EMAILS= cmd` means "not set", as in most shells' idioms. */
function setValue(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * Each of OWNER_EMAILS (space separated), OWNER_GITHUB_HANDLE, OWNER_HOME_USER and
 * MEMTRUST_ALLOW_NETWORKS overrides its own field only.
 */
export function ownerFromEnv(env: Record<string, string | undefined>, fallback: OwnerIdentity): OwnerIdentity {
  const emails = setValue(env.OWNER_EMAILS);
  const handle = setValue(env.OWNER_GITHUB_HANDLE);
  const homeUser = setValue(env.OWNER_HOME_USER);
  const owner: OwnerIdentity = {
    emails: emails ? emails.split(/\s+/) : [...fallback.emails],
  };
  const githubHandle = handle ?? fallback.githubHandle;
  const home = homeUser ?? fallback.homeUser;
  if (githubHandle) owner.githubHandle = githubHandle;
  if (home) owner.homeUser = home;
  // MEMTRUST_ALLOW_NETWORKS (space separated) replaces the settings' list, like the other variables.
  const networks = setValue(env.MEMTRUST_ALLOW_NETWORKS);
  const allowNetworks = networks ? splitNetworks(networks) : fallback.allowNetworks;
  if (allowNetworks && allowNetworks.length > 0) owner.allowNetworks = [...allowNetworks];
  if (fallback.allowHomeUsers && fallback.allowHomeUsers.length > 0)
    owner.allowHomeUsers = [...fallback.allowHomeUsers];
  return owner;
}

const NOREPLY_DOMAIN = 'users.noreply.github.com';

/**
 * Is `email` one of the owner's? Exact, case-insensitive match with an owner
 * address, or the owner's GitHub no-reply forms `HANDLE@…` and `DIGITS+HANDLE@…`.
 */
export function isOwnerEmail(email: string, owner: OwnerIdentity): boolean {
  const candidate = email.toLowerCase();
  if (owner.emails.some((e) => e.trim().toLowerCase() === candidate)) return true;
  const handle = owner.githubHandle?.trim().toLowerCase();
  if (!handle) return false;
  const at = candidate.lastIndexOf('@');
  if (candidate.slice(at + 1) !== NOREPLY_DOMAIN) return false;
  const local = candidate.slice(0, at);
  if (local === handle) return true;
  const plus = local.indexOf('+');
  return plus > 0 && /^\d+$/.test(local.slice(0, plus)) && local.slice(plus + 1) === handle;
}

/**
 * Is `name` the owner's home folder name? Case-insensitive because macOS and
 * Windows treat user folders that way, and a false "another user" costs a demotion.
 */
export function isOwnerHomeUser(name: string, owner: OwnerIdentity): boolean {
  const home = owner.homeUser?.trim().toLowerCase();
  return home !== undefined && home !== '' && name.toLowerCase() === home;
}
