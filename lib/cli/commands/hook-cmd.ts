/**
 * `memtrust hook pre-write | post-write | install [--apply]` — the Claude Code hooks
 * (docs/hooks.md). Claude Code reads the answer from the exit code and
 * stdout: exit 0 with JSON (or nothing) is an answer; exit 2 blocks with stderr as the
 * reason; any other code is a non-blocking error whose stderr the user sees.
 * pre-write never opens the database and loads no service module: it runs on every write.
 */
import { parseArgs, UsageError } from '../args';
import type { Io } from '../io';
import type { Command } from './index';
import { parseNow, type Env } from '../../core/config';
import { hooksBlock } from '../../hooks/install-entries';
import { cannotJudge, preWrite } from '../hook-pre';
import { postWrite } from '../hook-post';

async function install(argv: string[], io: Io, env: Env): Promise<number> {
  const args = parseArgs(argv, { bools: ['apply', 'json'] });
  if (args.positionals.length) throw new UsageError(`unexpected argument: ${args.positionals[0]}`);
  const { installHooks, ourHookEntries, claudeSettingsPath, hookStatus } = await import(
    '../../service/session/hook-install'
  );
  const entries = ourHookEntries();
  if (!args.bools.has('apply')) {
    const status = hookStatus(env, entries);
    if (args.bools.has('json')) {
      io.out(
        JSON.stringify(
          { file: status.file, problem: status.problem, entries: status.entries, hooks: hooksBlock(entries) },
          null,
          2,
        ),
      );
      return 0;
    }
    io.out(`Add these entries to ${claudeSettingsPath(env)} (or run: memtrust hook install --apply):`);
    io.out(JSON.stringify({ hooks: hooksBlock(entries) }, null, 2));
    for (const e of status.entries) io.out(`${e.event.padEnd(13)} ${e.state}`);
    return 0;
  }
  // Installing needs no memory root: only the clock (MEMTRUST_NOW names the backup in tests).
  const now = parseNow(env.MEMTRUST_NOW)();
  const r = installHooks(now, env, entries);
  if (!r.ok) {
    io.err(`memtrust hook install: ${r.message}`);
    return 1;
  }
  if (!r.changed) io.out(`${r.file}: the memtrust hooks are already installed; nothing changed`);
  else
    io.out(
      `${r.file}: memtrust hooks installed (SessionStart, PreToolUse, PostToolUse)${r.backup ? `; backup at ${r.backup}` : ''}`,
    );
  return 0;
}

/** Removes memtrust's entries from the settings: the plugin provides the same hooks (docs/install.md). */
async function uninstall(argv: string[], io: Io, env: Env): Promise<number> {
  const args = parseArgs(argv, { bools: [] });
  if (args.positionals.length) throw new UsageError(`unexpected argument: ${args.positionals[0]}`);
  const { uninstallHooks } = await import('../../service/session/hook-install');
  const r = uninstallHooks(parseNow(env.MEMTRUST_NOW)(), env);
  if (!r.ok) {
    io.err(`memtrust hook uninstall: ${r.message}`);
    return 1;
  }
  if (!r.changed) io.out(`${r.file}: no memtrust hooks there; nothing changed`);
  else io.out(`${r.file}: memtrust hooks removed${r.backup ? `; backup at ${r.backup}` : ''}`);
  return 0;
}

export const hookCommand: Command = {
  synopsis: 'hook pre-write|post-write|install|uninstall',
  summary: 'Claude Code hooks: guard and stamp what the assistant writes',
  async run(argv: string[], io: Io): Promise<number> {
    const [sub, ...rest] = argv;
    const env = process.env as Env;
    if (sub === 'pre-write' || sub === 'post-write') {
      if (rest.length)
        throw new UsageError(`hook ${sub} takes no arguments (it reads Claude Code's hook JSON on stdin)`);
      try {
        // The SessionStart command `hook install` writes (install-entries.ts), through the same launcher.
        if (sub === 'pre-write') return await preWrite(io, env);
        const { memtrustCommand } = await import('../../service/session/hook-install');
        return await postWrite(io, env, {
          index: true,
          sessionStart: [memtrustCommand(), 'context', '--format', 'hook'],
        });
      } catch (e) {
        // Never a stack trace: the hook's answer is its exit code.
        if (sub === 'pre-write') return cannotJudge(io, env, sub, `internal error: ${(e as Error).message}`);
        io.err(`memtrust hook post-write: internal error: ${(e as Error).message}`);
        return 1;
      }
    }
    if (sub === 'install') return install(rest, io, env);
    if (sub === 'uninstall') return uninstall(rest, io, env);
    throw new UsageError(sub ? `unknown hook command: ${sub}` : 'missing hook command');
  },
};
