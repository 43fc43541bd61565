/** Test helper: runs the real `memtrust` CLI in a child process with a clean environment. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { projectPath } from '../core/project';
import type { Env } from '../core/env';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Env): CliRun {
  // Only what the CLI needs: nothing from the developer's own memtrust settings leaks in.
  const childEnv: Record<string, string> = {};
  const home = env.XDG_CONFIG_HOME ? path.dirname(env.XDG_CONFIG_HOME) : process.env.HOME;
  for (const [k, v] of Object.entries({ PATH: process.env.PATH, HOME: home, NEXT_TELEMETRY_DISABLED: '1', ...env }))
    if (v !== undefined) childEnv[k] = v;
  const r = spawnSync(process.execPath, [projectPath('lib', 'cli', 'memtrust.cjs'), ...args], {
    env: childEnv as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
