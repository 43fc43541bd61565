/**
 * Entry of the session-context bundle (the launcher picks it for `memtrust context …`): the
 * SessionStart hook runs at every session start, so its bundle holds only what the
 * command uses (docs/session-context.md, "Reading the folders fast"). Same answers as
 * through main.ts: both run the command with run-command.ts.
 */
import { hookIo, processIo, type Io } from './io';
import { contextCmd } from './commands/context-cmd';
import { reportFailure, runCommand } from './run-command';

/** `--format hook` (either spelling): the SessionStart hook's one answer. */
const isHook = (argv: string[]) =>
  argv.includes('--format=hook') || argv.some((a, i) => a === '--format' && argv[i + 1] === 'hook');

/**
 * The SessionStart hook's answer goes to fd 1 as the plugin's does (lib/plugin/session-start-main.ts):
 * making process.stdout for a pipe loads the stream modules (docs/performance.md, "The hooks").
 */
export async function main(argv: string[], io: Io = isHook(argv) ? hookIo : processIo): Promise<number> {
  try {
    return await runCommand('context', contextCmd, argv.slice(1), io);
  } catch (e) {
    return reportFailure(e, io);
  }
}
