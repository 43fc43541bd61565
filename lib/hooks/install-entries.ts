/**
 * The three Claude Code settings.json hook entries memtrust needs
 * (docs/hooks.md "Installing"), and how they merge into an existing settings object.
 * Pure: paths come in as arguments, the merge returns a new object.
 */

export const HOOK_EVENTS = ['SessionStart', 'PreToolUse', 'PostToolUse'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const WRITE_MATCHER = 'Write|Edit|MultiEdit';

export interface HookEntry {
  event: HookEvent;
  matcher?: string;
  command: string;
  /** Seconds Claude Code waits before giving up on the command. */
  timeout: number;
}

/** Single-quotes a path for the shell Claude Code runs the command in, when it needs quoting. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_/.,:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function hookEntries(nodePath: string, cliPath: string): HookEntry[] {
  const base = `${shellQuote(nodePath)} ${shellQuote(cliPath)}`;
  return [
    { event: 'SessionStart', command: `${base} context --format hook`, timeout: 30 },
    { event: 'PreToolUse', matcher: WRITE_MATCHER, command: `${base} hook pre-write`, timeout: 10 },
    { event: 'PostToolUse', matcher: WRITE_MATCHER, command: `${base} hook post-write`, timeout: 30 },
  ];
}

/** The `hooks` block as it would be pasted into settings.json. */
export function hooksBlock(entries: HookEntry[]): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const e of entries) {
    out[e.event] = [
      {
        ...(e.matcher ? { matcher: e.matcher } : {}),
        hooks: [{ type: 'command', command: e.command, timeout: e.timeout }],
      },
    ];
  }
  return out;
}

/** Which of our commands a settings command is, whatever node or install path it names. */
const OURS: Record<HookEvent, RegExp> = {
  SessionStart: /memtrust(\.cjs)?'?\s+context\s+--format\s+hook\b/,
  PreToolUse: /memtrust(\.cjs)?'?\s+hook\s+pre-write\b/,
  PostToolUse: /memtrust(\.cjs)?'?\s+hook\s+post-write\b/,
};

export type EntryState = 'installed' | 'outdated' | 'missing';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Found {
  group: Record<string, unknown>;
  hook: Record<string, unknown>;
}

function findOurs(settings: Record<string, unknown>, event: HookEvent): Found[] {
  const hooks = settings.hooks;
  if (!isObj(hooks) || !Array.isArray(hooks[event])) return [];
  const out: Found[] = [];
  for (const group of hooks[event] as unknown[]) {
    if (!isObj(group) || !Array.isArray(group.hooks)) continue;
    for (const hook of group.hooks)
      if (isObj(hook) && typeof hook.command === 'string' && OURS[event].test(hook.command)) out.push({ group, hook });
  }
  return out;
}

/** installed: exactly our entry is there; outdated: a memtrust entry with another command or matcher. */
export function entryState(settings: unknown, entry: HookEntry): EntryState {
  if (!isObj(settings)) return 'missing';
  const found = findOurs(settings, entry.event);
  if (found.length === 0) return 'missing';
  const exact = found.some(
    (f) =>
      f.hook.command === entry.command &&
      (entry.matcher ?? undefined) ===
        (typeof f.group.matcher === 'string' && f.group.matcher !== '' ? f.group.matcher : undefined),
  );
  return exact ? 'installed' : 'outdated';
}

/**
 * Merges our entries into a settings object: every other key and every other hook is
 * kept; a memtrust entry already there is updated in place (its command and matcher);
 * nothing is added twice. Returns the new object and whether anything changed.
 */
export function mergeHooks(
  settings: Record<string, unknown>,
  entries: HookEntry[],
): { next: Record<string, unknown>; changed: boolean } {
  const next = structuredClone(settings);
  if (next.hooks !== undefined && !isObj(next.hooks)) throw new Error('"hooks" in settings.json is not an object');
  const hooks = (next.hooks ?? {}) as Record<string, unknown>;
  next.hooks = hooks;
  let changed = false;
  for (const e of entries) {
    if (hooks[e.event] !== undefined && !Array.isArray(hooks[e.event]))
      throw new Error(`"hooks.${e.event}" in settings.json is not a list`);
    const found = findOurs(next, e.event);
    if (found.length === 0) {
      const list = (hooks[e.event] ?? []) as unknown[];
      list.push({
        ...(e.matcher ? { matcher: e.matcher } : {}),
        hooks: [{ type: 'command', command: e.command, timeout: e.timeout }],
      });
      hooks[e.event] = list;
      changed = true;
      continue;
    }
    for (const f of found) {
      if (f.hook.command !== e.command) {
        f.hook.command = e.command;
        changed = true;
      }
      if (f.hook.type !== 'command') {
        f.hook.type = 'command';
        changed = true;
      }
      if (e.matcher && f.group.matcher !== e.matcher && (f.group.hooks as unknown[]).length === 1) {
        f.group.matcher = e.matcher;
        changed = true;
      }
    }
  }
  return { next, changed };
}

/** The commands of every memtrust hook registered for `event` (two or more: it runs more than once). */
export function ourCommands(settings: unknown, event: HookEvent): string[] {
  return isObj(settings) ? findOurs(settings, event).map((f) => f.hook.command as string) : [];
}

/**
 * Removes every memtrust hook from a settings object (`memtrust hook uninstall`, when the
 * plugin provides them): a group left without hooks goes, and an event left without groups.
 * Every other key and hook stays. Returns the new object and whether anything changed.
 */
export function removeHooks(settings: Record<string, unknown>): { next: Record<string, unknown>; changed: boolean } {
  const next = structuredClone(settings);
  const hooks = next.hooks;
  if (!isObj(hooks)) return { next, changed: false };
  let changed = false;
  for (const event of HOOK_EVENTS) {
    const list = hooks[event];
    if (!Array.isArray(list)) continue;
    const kept: unknown[] = [];
    for (const group of list) {
      if (!isObj(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const rest = group.hooks.filter(
        (h) => !(isObj(h) && typeof h.command === 'string' && OURS[event].test(h.command)),
      );
      if (rest.length === group.hooks.length) kept.push(group);
      else {
        changed = true;
        if (rest.length > 0) kept.push({ ...group, hooks: rest });
      }
    }
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  return { next, changed };
}
