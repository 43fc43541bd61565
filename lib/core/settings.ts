/**
 * User-level settings (`$XDG_CONFIG_HOME/memtrust/settings.json`): roots and owner
 * identity. Never stored inside a repository (docs/security.md, docs/configuration.md).
 */
import type { Env } from './env';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_CONTEXT_BUDGET, MIN_CONTEXT_BUDGET } from '../trust/context-text';

export interface Settings {
  roots?: string[];
  owner?: { emails?: string[]; githubHandle?: string; homeUser?: string };
  /** The write guard blocks when it cannot judge a write (docs/hooks.md); default false: fail open. */
  hookFailClosed?: boolean;
  /** Most characters `memtrust context` adds to a session (docs/configuration.md; docs/session-context.md). */
  contextBudget?: number;
  /** Private networks (CIDR) the owner allows in memories (docs/credentials.md). */
  allowNetworks?: string[];
  /** Home-folder names of service/container accounts the owner allows (`deploy`, `nonroot`). */
  allowHomeUsers?: string[];
  /** Days a batch's undo copies are kept (docs/batches.md "Expiry"); default 30. */
  undoRetentionDays?: number;
  /** Days a superseded or deleted memory version is kept (docs/versions.md "Retention"); default 90. */
  versionRetentionDays?: number;
  /** Keep memory versions and record outside changes (docs/versions.md); MEMTRUST_VERSIONS wins. */
  versions?: boolean;
}

export const DEFAULT_UNDO_RETENTION_DAYS = 30;
export const DEFAULT_VERSION_RETENTION_DAYS = 90;

export function contextBudgetProblem(v: unknown): string | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= MIN_CONTEXT_BUDGET && v <= MAX_CONTEXT_BUDGET
    ? null
    : `"contextBudget" must be a whole number of characters from ${MIN_CONTEXT_BUDGET} to ${MAX_CONTEXT_BUDGET}`;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const optString = (v: unknown) => v === undefined || typeof v === 'string';

/** Hand-checked rather than zod: the CLI's validators import this and must start fast. */
export function parseSettings(json: unknown): { ok: true; value: Settings } | { ok: false; message: string } {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { ok: false, message: 'expected a JSON object' };
  const j = json as Record<string, unknown>;
  if (j.roots !== undefined && !isStrings(j.roots)) return { ok: false, message: '"roots" must be a list of paths' };
  const o = j.owner as Record<string, unknown> | undefined;
  if (o !== undefined && (typeof o !== 'object' || o === null))
    return { ok: false, message: '"owner" must be an object' };
  if (o && ((o.emails !== undefined && !isStrings(o.emails)) || !optString(o.githubHandle) || !optString(o.homeUser))) {
    return { ok: false, message: '"owner" has fields of the wrong type' };
  }
  if (j.hookFailClosed !== undefined && typeof j.hookFailClosed !== 'boolean')
    return { ok: false, message: '"hookFailClosed" must be true or false' };
  if (j.contextBudget !== undefined && contextBudgetProblem(j.contextBudget))
    return { ok: false, message: contextBudgetProblem(j.contextBudget)! };
  if (j.allowNetworks !== undefined && !isStrings(j.allowNetworks))
    return { ok: false, message: '"allowNetworks" must be a list of CIDR blocks' };
  if (j.allowHomeUsers !== undefined && !isStrings(j.allowHomeUsers))
    return { ok: false, message: '"allowHomeUsers" must be a list of user names' };
  if (
    j.undoRetentionDays !== undefined &&
    !(typeof j.undoRetentionDays === 'number' && Number.isInteger(j.undoRetentionDays) && j.undoRetentionDays >= 1)
  )
    return { ok: false, message: '"undoRetentionDays" must be a whole number of days, 1 or more' };
  const days = j.versionRetentionDays;
  if (days !== undefined && !(typeof days === 'number' && Number.isInteger(days) && days >= 1 && days <= 36500))
    return { ok: false, message: '"versionRetentionDays" must be a whole number of days from 1 to 36500' };
  if (j.versions !== undefined && typeof j.versions !== 'boolean')
    return { ok: false, message: '"versions" must be true or false' };
  return {
    ok: true,
    value: {
      ...(j.versions !== undefined ? { versions: j.versions as boolean } : {}),
      ...(j.undoRetentionDays !== undefined ? { undoRetentionDays: j.undoRetentionDays as number } : {}),
      ...(j.hookFailClosed !== undefined ? { hookFailClosed: j.hookFailClosed as boolean } : {}),
      ...(j.allowNetworks !== undefined ? { allowNetworks: j.allowNetworks as string[] } : {}),
      ...(j.allowHomeUsers !== undefined ? { allowHomeUsers: j.allowHomeUsers as string[] } : {}),
      roots: j.roots as string[] | undefined,
      owner: o
        ? {
            emails: o.emails as string[] | undefined,
            githubHandle: o.githubHandle as string | undefined,
            homeUser: o.homeUser as string | undefined,
          }
        : undefined,
      ...(j.contextBudget !== undefined ? { contextBudget: j.contextBudget as number } : {}),
      ...(days !== undefined ? { versionRetentionDays: days as number } : {}),
    },
  };
}

export function settingsPath(env: Env = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'memtrust', 'settings.json');
}

/** Missing file → empty settings; a broken file is an error naming the file. */
export function readSettings(env: Env = process.env): Settings {
  const file = settingsPath(env);
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new SettingsError(`${file}: not valid JSON`);
  }
  const parsed = parseSettings(json);
  if (!parsed.ok) throw new SettingsError(`${file}: ${parsed.message}`);
  return parsed.value;
}

export function writeSettings(settings: Settings, env: Env = process.env): void {
  const file = settingsPath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

export class SettingsError extends Error {
  readonly code = 'settings';
}
