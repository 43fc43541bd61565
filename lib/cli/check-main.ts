/**
 * Entry of the validators' bundle (the launcher picks it for `memtrust validate|secret-check|
 * injection-check …`): scripts and hooks run these once per file or folder, so their bundle
 * holds the validators and nothing of the service (docs/validators.md, "Command line"). Same
 * answers as through main.ts: both call runCheckUsage.
 */
import { processIo, type Io } from './io';
import { CHECK_COMMANDS, runCheckUsage } from './commands/check';
import type { CheckCommand } from '../validators/run';
import { reportFailure } from './run-command';

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  try {
    const [cmd, ...rest] = argv;
    if (!(CHECK_COMMANDS as readonly string[]).includes(cmd ?? '')) throw new Error(`not a check command: ${cmd}`);
    return await runCheckUsage(cmd as CheckCommand, rest, io);
  } catch (e) {
    return reportFailure(e, io);
  }
}
