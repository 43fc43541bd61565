/**
 * `memtrust hook pre-write | post-write | install [--apply]` — the Claude Code hooks
 * (CONTRACT §4.1, docs/hooks.md). Claude Code reads the answer from the exit code and
 * stdout: exit 0 with JSON (or nothing) is an answer; exit 2 blocks with stderr as the
 * reason; any other code is a non-blocking error whose stderr the user sees.
 * pre-write never opens the database and loads no service module: it runs on every write.
 */
import fs from 'node:fs';
import { parseArgs, UsageError } from '../args';
import type { Io } from '../io';
import type { Command } from './index';
import { parseHookInput, type HookInput } from '../../hooks/input';
import { judgePreWrite, type PreVerdict } from '../../hooks/pre-write';
import { locateTarget } from '../../hooks/target';
import { loadConfig, type Env } from '../../config';
import { readSettings } from '../../settings';
import { ownerIdentity } from '../../identity';
import { writePriorNote } from '../../service/hook-prior';
import { hooksBlock } from '../../hooks/install-entries';

/** Hook input above this is not parsed whole; the target is looked for at its ends. */
export const STDIN_CAP = 64 * 1024 * 1024;
const EDGE = 64 * 1024;

interface Stdin {
  text: string;
  /** Over the cap: only the first and last EDGE bytes are kept. */
  oversize: boolean;
  bytes: number;
}

function readStdin(): Stdin {
  if (process.stdin.isTTY) return { text: '', oversize: false, bytes: 0 };
  const chunks: Buffer[] = [];
  let total = 0;
  let head: Buffer | null = null;
  let tail = Buffer.alloc(0);
  const buf = Buffer.allocUnsafe(1 << 20);
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') continue;
      if (code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    total += n;
    const piece = Buffer.from(buf.subarray(0, n));
    if (head === null && total <= STDIN_CAP) chunks.push(piece);
    else {
      if (head === null) {
        head = Buffer.concat(chunks).subarray(0, EDGE);
        tail = Buffer.concat(chunks).subarray(-EDGE);
        chunks.length = 0;
      }
      tail = Buffer.concat([tail, piece]).subarray(-EDGE);
    }
  }
  if (head !== null) return { text: head.toString('utf8') + '\n' + tail.toString('utf8'), oversize: true, bytes: total };
  return { text: Buffer.concat(chunks).toString('utf8'), oversize: false, bytes: total };
}

/** From input too large to parse: the tool's file_path, found as a JSON string at either end. */
function pathFromEdges(text: string): string | undefined {
  const m = /"file_path"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(text);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]!) as string;
  } catch {
    return undefined;
  }
}

function failClosed(env: Env): boolean {
  try {
    return readSettings(env).hookFailClosed === true;
  } catch {
    // A broken settings file cannot say "closed"; the diagnostic names the file anyway.
    return false;
  }
}

function emit(io: Io, event: 'PreToolUse' | 'PostToolUse', fields: Record<string, string>): void {
  io.out(JSON.stringify({ hookSpecificOutput: { hookEventName: event, ...fields } }));
}

/** memtrust could not judge: fail open (exit 1, a diagnostic the user sees) or closed (exit 2, the write is blocked). */
function cannotJudge(io: Io, env: Env, sub: string, problem: string): number {
  const line = problem.split('\n')[0]!;
  if (failClosed(env)) {
    io.err(`memtrust hook ${sub}: ${line} — blocked because hookFailClosed is set in memtrust's settings`);
    return 2;
  }
  io.err(`memtrust hook ${sub}: ${line} — not checked (fail open; set hookFailClosed to block instead)`);
  return 1;
}

function config(env: Env) {
  return loadConfig({ env });
}

async function preWrite(io: Io, env: Env): Promise<number> {
  let stdin: Stdin;
  try {
    stdin = readStdin();
  } catch (e) {
    return cannotJudge(io, env, 'pre-write', `cannot read stdin (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let roots: string[];
  let machine: string;
  let now: Date;
  try {
    const c = config(env);
    roots = c.roots;
    machine = c.machine;
    now = c.now();
  } catch (e) {
    return cannotJudge(io, env, 'pre-write', (e as Error).message);
  }
  if (stdin.oversize) {
    const filePath = pathFromEdges(stdin.text);
    if (!filePath) return cannotJudge(io, env, 'pre-write', `hook input of ${stdin.bytes} bytes is too large to read and names no file_path`);
    const t = locateTarget(filePath, undefined, roots);
    if (t.kind !== 'inside') return 0;
    emit(io, 'PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: `memtrust: this write to ${t.relPath} is ${stdin.bytes} bytes of tool input, far over the 1 MiB memory file cap` });
    return 0;
  }
  const parsed = parseHookInput(stdin.text);
  if (!parsed.ok) return cannotJudge(io, env, 'pre-write', parsed.problem);
  let verdict: PreVerdict;
  try {
    verdict = judgePreWrite(parsed.input, { roots, owner: () => ownerIdentity(env) });
  } catch (e) {
    return cannotJudge(io, env, 'pre-write', `internal error: ${(e as Error).message}`);
  }
  return answerPre(io, env, parsed.input, verdict, machine, now);
}

function answerPre(io: Io, env: Env, input: HookInput, v: PreVerdict, machine: string, now: Date): number {
  switch (v.decision) {
    case 'pass':
      if (env.MEMTRUST_DEBUG) io.err(`memtrust hook pre-write: not guarded: ${v.why}`);
      return 0;
    case 'deny':
      emit(io, 'PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: v.reason });
      return 0;
    case 'error':
      return cannotJudge(io, env, 'pre-write', v.problem);
    case 'ok':
      if (v.target.place === 'memory') writePriorNote(v.target.realRoot, machine, input.toolUseId, v.prior, now);
      // No permissionDecision: memtrust only ever narrows what Claude Code allows, never skips its prompt.
      if (v.context) emit(io, 'PreToolUse', { additionalContext: v.context });
      return 0;
  }
}

async function postWrite(io: Io, env: Env): Promise<number> {
  let stdin: Stdin;
  try {
    stdin = readStdin();
  } catch (e) {
    io.err(`memtrust hook post-write: cannot read stdin (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    return 1;
  }
  if (stdin.oversize) {
    io.err(`memtrust hook post-write: hook input of ${stdin.bytes} bytes is too large to read: not stamped (the next backfill marks it inferred)`);
    return 1;
  }
  const parsed = parseHookInput(stdin.text);
  if (!parsed.ok) {
    io.err(`memtrust hook post-write: ${parsed.problem}: not stamped`);
    return 1;
  }
  const input = parsed.input;
  if (!input.filePath || !input.toolName || !['Write', 'Edit', 'MultiEdit'].includes(input.toolName)) return 0;
  let cfg;
  try {
    cfg = config(env);
  } catch (e) {
    io.err(`memtrust hook post-write: ${(e as Error).message}: not stamped`);
    return 1;
  }
  const t = locateTarget(input.filePath, input.cwd, cfg.roots);
  if (t.kind !== 'inside' || t.place !== 'memory' || t.symlink || t.oddCase) return 0;
  // Only now the service (and SQLite): most writes never get here.
  const { createContext } = await import('../../service/context');
  const { stampAssistantWrite } = await import('../../service/hook-stamp');
  const ctx = createContext(cfg, env);
  const r = stampAssistantWrite(ctx, { abs: t.real, realRoot: t.realRoot, relPath: t.relPath, toolName: input.toolName, toolUseId: input.toolUseId });
  if (!r.ok) {
    io.err(`memtrust hook post-write: ${t.relPath}: ${r.message}: not stamped`);
    return 1;
  }
  if (r.noop) return 0;
  const what = r.from === null ? `stamped it trust-level: ${r.to} (a memory the assistant writes is inferred until the user promotes it)` : r.to === 'verified' ? 'kept it verified and flagged it changed-since-verified for the user to re-affirm or demote' : `kept it ${r.to}`;
  emit(io, 'PostToolUse', { additionalContext: `memtrust ${what} in ${t.relPath}; the file changed on disk, so read it again before editing it.` });
  return 0;
}

async function install(argv: string[], io: Io, env: Env): Promise<number> {
  const args = parseArgs(argv, { bools: ['apply', 'json'] });
  if (args.positionals.length) throw new UsageError(`unexpected argument: ${args.positionals[0]}`);
  const { installHooks, ourHookEntries, claudeSettingsPath, hookStatus } = await import('../../service/hook-install');
  const entries = ourHookEntries();
  if (!args.bools.has('apply')) {
    const status = hookStatus(env, entries);
    if (args.bools.has('json')) {
      io.out(JSON.stringify({ file: status.file, problem: status.problem, entries: status.entries, hooks: hooksBlock(entries) }, null, 2));
      return 0;
    }
    io.out(`Add these entries to ${claudeSettingsPath(env)} (or run: memtrust hook install --apply):`);
    io.out(JSON.stringify({ hooks: hooksBlock(entries) }, null, 2));
    for (const e of status.entries) io.out(`${e.event.padEnd(13)} ${e.state}`);
    return 0;
  }
  const now = config(env).now();
  const r = installHooks(now, env, entries);
  if (!r.ok) {
    io.err(`memtrust hook install: ${r.message}`);
    return 1;
  }
  if (!r.changed) io.out(`${r.file}: the memtrust hooks are already installed; nothing changed`);
  else io.out(`${r.file}: memtrust hooks installed (SessionStart, PreToolUse, PostToolUse)${r.backup ? `; backup at ${r.backup}` : ''}`);
  return 0;
}

export const hookCommand: Command = {
  synopsis: 'hook pre-write|post-write|install',
  summary: 'Claude Code hooks: guard and stamp what the assistant writes',
  async run(argv: string[], io: Io): Promise<number> {
    const [sub, ...rest] = argv;
    const env = process.env as Env;
    if (sub === 'pre-write' || sub === 'post-write') {
      if (rest.length) throw new UsageError(`hook ${sub} takes no arguments (it reads Claude Code's hook JSON on stdin)`);
      try {
        return sub === 'pre-write' ? await preWrite(io, env) : await postWrite(io, env);
      } catch (e) {
        // Never a stack trace: the hook's answer is its exit code.
        return sub === 'pre-write' ? cannotJudge(io, env, sub, `internal error: ${(e as Error).message}`) : (io.err(`memtrust hook post-write: internal error: ${(e as Error).message}`), 1);
      }
    }
    if (sub === 'install') return install(rest, io, env);
    throw new UsageError(sub ? `unknown hook command: ${sub}` : 'missing hook command');
  },
};
