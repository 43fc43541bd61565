/**
 * Where Claude Code keeps its home (CONTRACT §8 `CLAUDE_CONFIG_DIR`): `$CLAUDE_CONFIG_DIR`
 * (absolute, or `~/…`), else `~/.claude`. Its own module so layout detection can use it
 * without the home's discovery (lib/sources/claude-home.ts).
 */
import os from 'node:os';
import path from 'node:path';
import type { Env } from '../core/env';

export function homeDir(env: Env = process.env): string {
  return env.HOME || os.homedir();
}

/** `~` and `~/…` against the home; another relative path is none (nothing is read from the current directory). */
export function expandHome(p: string, env: Env = process.env): string | null {
  if (p === '~') return homeDir(env);
  if (p.startsWith('~/')) return path.join(homeDir(env), p.slice(2));
  return path.isAbsolute(p) ? path.resolve(p) : null;
}

export function claudeConfigDir(env: Env = process.env): string {
  const raw = env.CLAUDE_CONFIG_DIR;
  return (raw && expandHome(raw, env)) || path.join(homeDir(env), '.claude');
}

/** `<config>/projects/<encoded>/memory`: the encoded name, else null. */
export function projectMemoryName(root: string, env: Env = process.env): string | null {
  const abs = path.resolve(root);
  if (path.basename(abs) !== 'memory') return null;
  const folder = path.dirname(abs);
  return path.dirname(folder) === path.join(claudeConfigDir(env), 'projects') ? path.basename(folder) : null;
}
