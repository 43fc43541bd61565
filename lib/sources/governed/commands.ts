/**
 * codeclone's own governance command lines (docs/governed-layout.md, "Actions").
 * memtrust never writes the store: it shows these for the user to copy and run.
 * Preconditions mirror codeclone's: approve takes a draft or stale record, reject a
 * draft, archive an active one; anything else codeclone itself refuses.
 */
import { GOVERNED_ACTIONS, type CodecloneCommand, type GovernedAction } from './types';

/** Why memtrust refuses every action on a governed record (shown beside each). */
export const READ_ONLY_REASON =
  "codeclone owns this store; memtrust never writes it and shows codeclone's own command instead";

/** The guard flag codeclone requires for governance outside its IDE channel. */
export const BREAK_GLASS = '--i-know-what-im-doing';

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** POSIX shell quoting: bare when safe, else single quotes with `'\''` for quotes. */
export function shellQuote(s: string): string {
  if (s !== '' && SAFE.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Which codeclone command a memtrust action becomes for a record in `status`. */
export function commandFor(
  status: string,
  action: GovernedAction | (string & {}),
): { ok: true; command: CodecloneCommand } | { ok: false; reason: string } {
  const allowed = allowedCommands(status);
  let command: CodecloneCommand | null = null;
  switch (action) {
    case 'approve':
    case 'reject':
    case 'archive':
      command = action as CodecloneCommand;
      break;
    case 'promote':
      command = 'approve';
      break;
    case 'demote':
      command = status === 'draft' ? 'reject' : status === 'active' ? 'archive' : null;
      break;
  }
  if (command && allowed.includes(command)) return { ok: true, command };
  const what = allowed.length
    ? `codeclone allows ${allowed.join(' / ')} for it`
    : 'codeclone allows no governance command for it';
  if (!(GOVERNED_ACTIONS as readonly string[]).includes(action)) {
    return {
      ok: false,
      reason: `governed records have no ${action} (codeclone has no such command); record is ${status}: ${what}`,
    };
  }
  return { ok: false, reason: `governed record is ${status}: ${what}` };
}

/** The commands codeclone accepts for a record in `status` (its governance preconditions). */
export function allowedCommands(status: string): CodecloneCommand[] {
  if (status === 'draft') return ['approve', 'reject'];
  if (status === 'stale') return ['approve'];
  if (status === 'active') return ['archive'];
  return [];
}

export interface CommandOptions {
  /** `--by NAME` (codeclone's default is `human`; omitted when not given). */
  by?: string;
  /** `--reason TEXT`, reject only. */
  reason?: string;
}

/** The exact command line, guard flag included, record id last (after `--` if it looks like a flag). */
export function commandLine(
  command: CodecloneCommand,
  projectRoot: string,
  recordId: string,
  opts: CommandOptions = {},
): string {
  const parts = ['codeclone', 'memory', command, '--root', shellQuote(projectRoot), BREAK_GLASS];
  if (opts.by) parts.push('--by', shellQuote(opts.by));
  if (command === 'reject' && opts.reason) parts.push('--reason', shellQuote(opts.reason));
  if (recordId.startsWith('-')) parts.push('--');
  parts.push(shellQuote(recordId));
  return parts.join(' ');
}
