/**
 * `memtrust` command dispatcher. Exit codes (issue #3): 0 done or already in
 * that state, 2 refused, 64 usage, 1 unexpected error; validators keep their own
 * codes (docs/validators.md "Command line"). Errors are one line on stderr, never a stack trace.
 */
import { UsageError } from './args';
import { processIo, type Io } from './io';
import { CHECK_COMMANDS, runCheckUsage } from './commands/check';
import type { CheckCommand } from '../validators/run';
import { reportFailure, runCommand } from './run-command';

import { EXIT } from '../core/error-codes';

export { EXIT };

/** Service commands load drizzle and SQLite: only import them when one is run (validators stay fast). */
async function commands() {
  return (await import('./commands/index')).COMMANDS;
}

export async function help(): Promise<string> {
  const COMMANDS = await commands();
  return `memtrust — trust tiers for AI assistant memories

usage: memtrust <command> [options]

validators (drop-in for the reference shell tools):
  validate FILE | --all DIR         structure and format   (exit 0/1/2/3)
  secret-check FILE | --all DIR     secrets and private data (exit 0/1)
  injection-check FILE | --all DIR  prompt-injection shapes  (exit 0/3, advisory)
${Object.values(COMMANDS)
  // A synopsis longer than the column gets its summary on the next line, never run together.
  .map((c) =>
    c.synopsis.length < 34
      ? `  ${c.synopsis.padEnd(34)}${c.summary}`
      : `  ${c.synopsis}\n  ${''.padEnd(34)}${c.summary}`,
  )
  .join('\n')}
  ${'serve [--port N]'.padEnd(34)}the dashboard on http://127.0.0.1:N (default 3000); alias: dashboard
  ${'--version'.padEnd(34)}the installed version

common options: --root DIR (repeatable) · --json · --help
environment: MEMTRUST_ROOT, MEMTRUST_DB, MEMTRUST_NOW, OWNER_EMAILS, OWNER_GITHUB_HANDLE, OWNER_HOME_USER`;
}

/** `memtrust --root DIR list` reads as `memtrust list --root DIR`: options may come first. */
function commandFirst(argv: string[]): string[] {
  const lead: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const a = argv[i]!;
    if (a === '--root' && i + 1 < argv.length) {
      lead.push(a, argv[i + 1]!);
      i += 2;
    } else if (a.startsWith('--root=') || a === '--json') {
      lead.push(a);
      i += 1;
    } else break;
  }
  return lead.length && i < argv.length ? [argv[i]!, ...argv.slice(i + 1), ...lead] : argv;
}

export async function main(argvIn: string[], io: Io = processIo): Promise<number> {
  const argv = commandFirst(argvIn);
  const [cmd, ...rest] = argv;
  try {
    if (!cmd) {
      io.err(await help());
      return EXIT.usage;
    }
    if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
      io.out(await help());
      return EXIT.ok;
    }
    if ((CHECK_COMMANDS as readonly string[]).includes(cmd)) {
      return await runCheckUsage(cmd as CheckCommand, rest, io);
    }
    // The hooks run on every assistant write and session start: load only their own module, never the whole registry.
    const command =
      cmd === 'hook'
        ? (await import('./commands/hook-cmd')).hookCommand
        : cmd === 'context'
          ? (await import('./commands/context-cmd')).contextCmd
          : (await commands())[cmd];
    if (!command) throw new UsageError(`unknown command: ${cmd} (see memtrust --help)`);
    return await runCommand(cmd, command, rest, io);
  } catch (e) {
    return reportFailure(e, io);
  }
}
