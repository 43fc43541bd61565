/**
 * Entry of the pre-write bundle (the launcher picks it for `memtrust hook pre-write`):
 * the guard runs on every assistant write, so its bundle holds only what it uses.
 */
import { hookIo } from './io';
import { cannotJudge, preWrite } from './hook-pre';
import type { Env } from '../core/config';

export async function main(argv: string[]): Promise<number> {
  const env = process.env as Env;
  if (argv.length !== 2 || argv[0] !== 'hook' || argv[1] !== 'pre-write') {
    hookIo.err("memtrust hook pre-write takes no arguments (it reads Claude Code's hook JSON on stdin)");
    return 64;
  }
  try {
    return await preWrite(hookIo, env);
  } catch (e) {
    return cannotJudge(hookIo, env, 'pre-write', `internal error: ${(e as Error).message}`);
  }
}
