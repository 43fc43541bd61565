/**
 * Starts `memtrust serve --port N` detached, its output appended to a log file (for
 * `memtrust open`, docs/install.md). Returns the child and a way to know it exited.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { projectPath } from '../core/project';

export interface Started {
  pid: number | undefined;
  /** The exit code once the server exited (it failed to start), else null. */
  exited(): number | null;
}

export function startDashboardInBackground(port: number, logFile: string, env: NodeJS.ProcessEnv): Started {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [projectPath('lib', 'cli', 'memtrust.cjs'), 'serve', '--port', String(port)], {
    detached: true,
    stdio: ['ignore', log, log],
    env,
  });
  fs.closeSync(log);
  let code: number | null = null;
  child.once('exit', (c) => {
    code = c ?? 1;
  });
  child.unref();
  return { pid: child.pid, exited: () => code };
}
