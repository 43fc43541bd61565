/**
 * The governed-records adapter (layout 4, docs/governed-layout.md) in the shape the one-record-model
 * registry will list: detect, read, capabilities, plan. Read-only: every action is a
 * codeclone command line for the user. `governedLayout` (adapter.ts) is the
 * LayoutAdapter registered in lib/sources/registry.ts; see docs/governed-layout.md, "Wiring".
 */
import { READ_ONLY_REASON, commandFor, commandLine, type CommandOptions } from './commands';
import { changeToken, detect, read } from './read';
import { GOVERNED_ACTIONS, type GovernedAction, type GovernedRecord } from './types';

export { READ_ONLY_REASON };

/**
 * What a record allows now, in the shape the canonical adapter returns (actions and
 * refusals), plus the command line for each action. Always read-only for memtrust.
 */
export function capabilities(r: Pick<GovernedRecord, 'key' | 'governed'>, opts: CommandOptions = {}) {
  const actions: GovernedAction[] = [];
  const refused: GovernedRecord['refused'] = {};
  const commands: GovernedRecord['commands'] = {};
  for (const a of GOVERNED_ACTIONS) {
    const c = commandFor(r.governed.status, a);
    if (c.ok) {
      actions.push(a);
      commands[a] = commandLine(c.command, r.governed.projectRoot, r.key, opts);
    } else refused[a] = c.reason;
  }
  return { readOnly: true as const, reason: READ_ONLY_REASON, actions, refused, commands };
}

/** Never an edit: the refusal names the command the user can run, or why there is none. */
export function plan(
  record: GovernedRecord,
  action: GovernedAction | (string & {}),
  opts: CommandOptions = {},
): { ok: false; reason: string; command: string | null } {
  const c = commandFor(record.governed.status, action);
  if (!c.ok) return { ok: false, reason: `${record.key}: ${c.reason}`, command: null };
  const line = commandLine(c.command, record.governed.projectRoot, record.key, opts);
  return { ok: false, reason: `${record.key}: governed records are changed by codeclone, run: ${line}`, command: line };
}

export const governedAdapter = {
  layout: 'governed' as const,
  label: "codeclone's governed engineering memory (read-only)",
  detect,
  read,
  capabilities,
  plan,
  changeToken,
};

export { changeToken, detect, read };
export { governedLayout } from './adapter';
export type * from './types';
