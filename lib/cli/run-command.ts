/**
 * How `memtrust` runs one command and turns what it throws into one line and an exit code
 * (docs/errors.md): shared by the dispatcher (main.ts) and the session-context entry
 * (context-main.ts), so `memtrust context` answers the same through either bundle.
 */
import { UsageError } from './args';
import type { Io } from './io';
import { ConfigError } from '../core/config';
import { SettingsError } from '../core/settings';
import { EXIT } from '../core/error-codes';
import type { Command } from './commands/index';

/** Runs `command`; a usage error names the command and prints its synopsis. */
export async function runCommand(cmd: string, command: Command, rest: string[], io: Io): Promise<number> {
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`memtrust ${cmd}: ${e.message}`);
      io.err(`usage: memtrust ${command.synopsis}`);
      return EXIT.usage;
    }
    throw e;
  }
}

/** Anything else a command threw: one line on stderr, never a stack trace (MEMTRUST_DEBUG=1 shows it). */
export function reportFailure(e: unknown, io: Io): number {
  if (e instanceof UsageError) {
    io.err(`memtrust: ${e.message}`);
    return EXIT.usage;
  }
  if ((e as { code?: unknown }).code === 'db-open' || (e as { code?: unknown }).code === 'locked') {
    io.err(`memtrust: ${(e as Error).message}`);
    return EXIT.error;
  }
  if (e instanceof ConfigError || e instanceof SettingsError) {
    io.err(`memtrust: ${e.message}`);
    return EXIT.usage;
  }
  io.err(`memtrust: unexpected error: ${e instanceof Error ? e.message : String(e)}`);
  if (process.env.MEMTRUST_DEBUG && e instanceof Error) io.err(String(e.stack));
  return EXIT.error;
}
