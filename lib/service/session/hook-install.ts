/**
 * `memtrust hook install --apply` (docs/hooks.md "Installing"): merges the three hook
 * entries into the user's Claude Code settings (`$HOME/.claude/settings.json`),
 * keeping every other key, after a timestamped backup. Idempotent: a second run
 * changes nothing. A settings file that is not a JSON object is refused untouched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Env } from '../../core/env';
import {
  entryState,
  hookEntries,
  mergeHooks,
  removeHooks,
  type EntryState,
  type HookEntry,
} from '../../hooks/install-entries';
import { projectDir } from '../../core/project';
import { replaceFile } from '../replace-file';

export function claudeSettingsPath(env: Env = process.env): string {
  return path.join(env.HOME || os.homedir(), '.claude', 'settings.json');
}

/**
 * The memtrust command the hooks run (docs/install.md). Installed as a package, it is the
 * installed `memtrust` bin by the absolute path it was started through (`<prefix>/bin/memtrust`),
 * or the package's own launcher: never a clone. From a clone (development), that clone's launcher.
 */
export function memtrustCommand(dir: string = projectDir(), argv1: string | undefined = process.argv[1]): string {
  const launcher = path.join(dir, 'lib', 'cli', 'memtrust.cjs');
  if (!dir.split(path.sep).includes('node_modules') || !argv1) return launcher;
  try {
    // The bin is a link to the launcher; a path that leads elsewhere is not ours.
    if (path.basename(argv1) === 'memtrust' && fs.realpathSync(argv1) === fs.realpathSync(launcher))
      return path.resolve(argv1);
  } catch {
    // argv[1] gone or unreadable: the launcher itself
  }
  return launcher;
}

/** Our entries for this installation: this node, the memtrust command above (absolute paths). */
export function ourHookEntries(): HookEntry[] {
  return hookEntries(process.execPath, memtrustCommand());
}

export type InstallResult =
  | { ok: true; changed: boolean; file: string; backup: string | null }
  | { ok: false; file: string; message: string };

export function readJsonObject(
  file: string,
): { ok: true; value: Record<string, unknown> | null } | { ok: false; message: string } {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: null };
    return { ok: false, message: `cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (raw.trim() === '') return { ok: true, value: {} };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, message: 'it is not valid JSON; fix it or paste the entries by hand' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { ok: false, message: 'it is not a JSON object' };
  return { ok: true, value: json as Record<string, unknown> };
}

export function installHooks(
  now: Date,
  env: Env = process.env,
  entries: HookEntry[] = ourHookEntries(),
): InstallResult {
  return rewriteSettings(now, env, (settings) => mergeHooks(settings, entries));
}

/** `memtrust hook uninstall`: every memtrust hook out of the settings (the plugin provides them), same backup rules. */
export function uninstallHooks(now: Date, env: Env = process.env): InstallResult {
  return rewriteSettings(now, env, removeHooks);
}

function rewriteSettings(
  now: Date,
  env: Env,
  edit: (settings: Record<string, unknown>) => { next: Record<string, unknown>; changed: boolean },
): InstallResult {
  const file = claudeSettingsPath(env);
  const read = readJsonObject(file);
  if (!read.ok) return { ok: false, file, message: `${file}: ${read.message}` };
  let merged: { next: Record<string, unknown>; changed: boolean };
  try {
    merged = edit(read.value ?? {});
  } catch (e) {
    return { ok: false, file, message: `${file}: ${(e as Error).message}` };
  }
  if (!merged.changed) return { ok: true, changed: false, file, backup: null };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let backup: string | null = null;
  let mode = 0o600;
  if (read.value !== null) {
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    backup = `${file}.memtrust-backup-${stamp}`;
    for (let n = 1; fs.existsSync(backup); n++) backup = `${file}.memtrust-backup-${stamp}-${n}`;
    fs.copyFileSync(file, backup, fs.constants.COPYFILE_EXCL);
    mode = fs.statSync(file).mode & 0o777;
  }
  replaceFile(file, `${JSON.stringify(merged.next, null, 2)}\n`, { mode });
  return { ok: true, changed: true, file, backup };
}

export interface HookStatus {
  file: string;
  /** Why the settings file could not be read, else null. */
  problem: string | null;
  entries: (HookEntry & { state: EntryState })[];
}

export function hookStatus(env: Env = process.env, entries: HookEntry[] = ourHookEntries()): HookStatus {
  const file = claudeSettingsPath(env);
  const read = readJsonObject(file);
  return {
    file,
    problem: read.ok ? null : read.message,
    entries: entries.map((e) => ({ ...e, state: read.ok && read.value ? entryState(read.value, e) : 'missing' })),
  };
}
