/**
 * Entry of the session-context bundle (the launcher picks it for `memtrust context …`): the
 * SessionStart hook runs at every session start, so its bundle holds only what the
 * command uses (docs/session-context.md, "Reading the folders fast"). Same answers as
 * through main.ts: both run the command with run-command.ts.
 */
import { processIo, type Io } from './io';
import { contextCmd } from './commands/context-cmd';
import { reportFailure, runCommand } from './run-command';

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  try {
    return await runCommand('context', contextCmd, argv.slice(1), io);
  } catch (e) {
    return reportFailure(e, io);
  }
}
