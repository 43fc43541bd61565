/** Test helper: runs the real `memtrust` CLI in a child process with a clean environment. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { projectPath } from '../project';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): CliRun {
  const r = spawnSync(process.execPath, [projectPath('lib', 'cli', 'memtrust.cjs'), ...args], {
    // Only what the CLI needs: nothing from the developer's own memtrust settings leaks in.
    env: { PATH: process.env.PATH, HOME: env.XDG_CONFIG_HOME ? path.dirname(env.XDG_CONFIG_HOME) : process.env.HOME, NEXT_TELEMETRY_DISABLED: '1', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
