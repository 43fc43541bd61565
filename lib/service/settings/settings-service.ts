/** User-level settings changes (roots, owner identity), validated before they are written. */
import type { Failure } from '../../core/error-codes';
import os from 'node:os';
import path from 'node:path';
import { contextBudgetProblem, readSettings, writeSettings, type Settings } from '../../core/settings';
import { checkRootPath } from '../../core/paths';
import { detectLayout, refusalLine } from '../../sources/detect';
import type { Env } from '../../core/env';
import { invalidCidrs } from '../../validators/allow';

export type SettingsResult = { ok: true; settings: Settings } | Failure;

export function addRoot(root: string, env: Env = process.env): SettingsResult {
  const problem = checkRootPath(root, os.homedir());
  if (problem) return { ok: false, code: 'bad-root', message: `${root}: ${problem}` };
  // A store memtrust does not read is refused here too, with the same line (docs/roots.md).
  const layout = detectLayout(root);
  if (!layout.ok) return { ok: false, code: 'unsupported-layout', message: refusalLine(path.resolve(root), layout) };
  const s = readSettings(env);
  const roots = [...new Set([...(s.roots ?? []), path.resolve(root)])];
  const next = { ...s, roots };
  writeSettings(next, env);
  return { ok: true, settings: next };
}

export function removeRoot(root: string, env: Env = process.env): SettingsResult {
  const s = readSettings(env);
  const next = { ...s, roots: (s.roots ?? []).filter((r) => r !== root) };
  writeSettings(next, env);
  return { ok: true, settings: next };
}

export function saveOwner(
  owner: { emails: string[]; githubHandle?: string; homeUser?: string },
  env: Env = process.env,
): SettingsResult {
  const bad = owner.emails.find((e) => !/^[^@\s]+@[^@\s]+$/.test(e));
  if (bad) return { ok: false, code: 'bad-email', message: `not an e-mail address: ${bad}` };
  const s = readSettings(env);
  const next: Settings = {
    ...s,
    owner: {
      emails: owner.emails,
      githubHandle: owner.githubHandle || undefined,
      homeUser: owner.homeUser || undefined,
    },
  };
  writeSettings(next, env);
  return { ok: true, settings: next };
}

/** contextBudget (docs/configuration.md): whole characters, 1,000–10,000; docs/session-context.md. */
export function saveContextBudget(budget: number, env: Env = process.env): SettingsResult {
  const problem = contextBudgetProblem(budget);
  if (problem) return { ok: false, code: 'bad-budget', message: problem };
  const s = readSettings(env);
  const next: Settings = { ...s, contextBudget: budget };
  writeSettings(next, env);
  return { ok: true, settings: next };
}

/** Owner allowances (docs/credentials.md): CIDR blocks and home-folder account names, checked before writing. */
export function saveAllowances(
  allow: { allowNetworks: string[]; allowHomeUsers: string[] },
  env: Env = process.env,
): SettingsResult {
  const bad = invalidCidrs(allow.allowNetworks);
  if (bad.length > 0) return { ok: false, code: 'bad-network', message: `not a CIDR block: ${bad.join(', ')}` };
  const badUser = allow.allowHomeUsers.find((u) => !/^[A-Za-z0-9._-]{1,64}$/.test(u));
  if (badUser !== undefined) return { ok: false, code: 'bad-user', message: `not a user name: ${badUser}` };
  const s = readSettings(env);
  const next: Settings = { ...s, allowNetworks: allow.allowNetworks, allowHomeUsers: allow.allowHomeUsers };
  if (next.allowNetworks!.length === 0) delete next.allowNetworks;
  if (next.allowHomeUsers!.length === 0) delete next.allowHomeUsers;
  writeSettings(next, env);
  return { ok: true, settings: next };
}
