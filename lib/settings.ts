/**
 * User-level settings (`$XDG_CONFIG_HOME/memtrust/settings.json`): roots and owner
 * identity. Never stored inside a repository (CONTRACT §7/§8).
 */
import type { Env } from './env';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

export const Settings = z.object({
  roots: z.array(z.string()).optional(),
  owner: z
    .object({
      emails: z.array(z.string()).optional(),
      githubHandle: z.string().optional(),
      homeUser: z.string().optional(),
    })
    .optional(),
});
export type Settings = z.infer<typeof Settings>;

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
  const parsed = Settings.safeParse(json);
  if (!parsed.success) throw new SettingsError(`${file}: ${parsed.error.issues[0]?.message ?? 'invalid settings'}`);
  return parsed.data;
}

export function writeSettings(settings: Settings, env: Env = process.env): void {
  const file = settingsPath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(Settings.parse(settings), null, 2) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}

export class SettingsError extends Error {
  readonly code = 'settings';
}
