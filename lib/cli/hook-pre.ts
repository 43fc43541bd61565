/**
 * `memtrust hook pre-write` (docs/hooks.md): the guard Claude Code runs
 * before every Write/Edit/MultiEdit. Kept apart from the other commands so it can be
 * bundled on its own (lib/cli/hook-main.ts): it loads the validators and the path
 * rules, never the database or a service module, and answers in well under 150 ms.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Io } from './io';
import { parseHookInput, type HookInput } from '../hooks/input';
import { type PreVerdict, screenPreWrite } from '../hooks/pre-screen';
import { locateTarget } from '../hooks/target';
import { loadConfig, type Env } from '../core/config';
import { readSettings } from '../core/settings';

/** Hook input above this is not parsed whole; the target is looked for at its ends. */
export const STDIN_CAP = 64 * 1024 * 1024;
const EDGE = 64 * 1024;

export interface Stdin {
  text: string;
  /** Over the cap: only the first and last EDGE bytes are kept. */
  oversize: boolean;
  bytes: number;
}

/**
 * What blocking reads on fd 0 get, without process.stdin: the stream machinery it loads is a
 * few milliseconds of every hook's start (docs/install.md, "Figures"). A child Claude Code
 * spawns gets its stdio blocking; `done` is false when fd 0 is non-blocking (EAGAIN) or the
 * input goes past the cap, and the stream reader takes over from what was read.
 */
function readStdinSync(): { chunks: Buffer[]; total: number; done: boolean } {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    const buf = Buffer.allocUnsafe(1 << 16);
    while (total <= STDIN_CAP) {
      const n = fs.readSync(0, buf, 0, buf.length, null);
      if (n === 0) return { chunks, total, done: true };
      total += n;
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
  } catch {
    // EAGAIN (a non-blocking pipe), or no stdin at all: the stream reader decides
  }
  return { chunks, total, done: false };
}

function stdinIsDevice(): boolean {
  try {
    return fs.fstatSync(0).isCharacterDevice();
  } catch {
    return false;
  }
}

/** All of stdin, bounded by STDIN_CAP: read at once when fd 0 blocks, else as a stream. */
export async function readStdin(): Promise<Stdin> {
  // Not process.stdin.isTTY, nor node:tty: either loads the stream modules. A character device
  // is a terminal (or /dev/null, which holds nothing anyway).
  if (stdinIsDevice()) return { text: '', oversize: false, bytes: 0 };
  const first = readStdinSync();
  if (first.done && first.total <= STDIN_CAP)
    return { text: Buffer.concat(first.chunks).toString('utf8'), oversize: false, bytes: first.total };
  const chunks: Buffer[] = [];
  let total = 0;
  let head: Buffer | null = null;
  let tail = Buffer.alloc(0);
  const take = (piece: Buffer) => {
    total += piece.length;
    if (head === null && total <= STDIN_CAP) {
      chunks.push(piece);
      return;
    }
    if (head === null) {
      const all = Buffer.concat([...chunks, piece]);
      head = all.subarray(0, EDGE);
      tail = all.subarray(-EDGE);
      chunks.length = 0;
      return;
    }
    tail = Buffer.concat([tail, piece]).subarray(-EDGE);
  };
  for (const piece of first.chunks) take(piece);
  if (!first.done) for await (const chunk of process.stdin) take(chunk as Buffer);
  if (head !== null)
    return { text: `${(head as Buffer).toString('utf8')}\n${tail.toString('utf8')}`, oversize: true, bytes: total };
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

export function emit(io: Io, event: 'PreToolUse' | 'PostToolUse', fields: Record<string, string>): void {
  io.out(JSON.stringify({ hookSpecificOutput: { hookEventName: event, ...fields } }));
}

/** memtrust could not judge: fail open (exit 1, a diagnostic the user sees) or closed (exit 2, the write is blocked). */
export function cannotJudge(io: Io, env: Env, sub: string, problem: string): number {
  const line = problem.split('\n')[0]!;
  if (failClosed(env)) {
    io.err(`memtrust hook ${sub}: ${line} — blocked because hookFailClosed is set in memtrust's settings`);
    return 2;
  }
  io.err(`memtrust hook ${sub}: ${line} — not checked (fail open; set hookFailClosed to block instead)`);
  return 1;
}

/**
 * The configuration one hook run needs: for a write to `filePath` (relative ones against the
 * hook's `cwd`, as locateTarget takes them), only the roots that file can land in — the
 * guard runs on every write and must not walk the whole Claude Code home (docs/hooks.md).
 */
export function config(env: Env, filePath?: string, cwd?: string) {
  if (filePath === undefined) return loadConfig({ env, target: '' });
  const target = path.resolve(cwd && path.isAbsolute(cwd) ? cwd : process.cwd(), filePath);
  return loadConfig({ env, target });
}

export async function preWrite(io: Io, env: Env): Promise<number> {
  let stdin: Stdin;
  try {
    stdin = await readStdin();
  } catch (e) {
    return cannotJudge(io, env, 'pre-write', `cannot read stdin (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let roots: string[];
  let machine: string;
  let now: Date;
  const load = (filePath: string | undefined, cwd: string | undefined): string | null => {
    try {
      const c = config(env, filePath, cwd);
      roots = c.roots;
      machine = c.machine;
      now = c.now();
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };
  if (stdin.oversize) {
    const filePath = pathFromEdges(stdin.text);
    const problem = load(filePath, undefined);
    if (problem !== null) return cannotJudge(io, env, 'pre-write', problem);
    if (!filePath)
      return cannotJudge(
        io,
        env,
        'pre-write',
        `hook input of ${stdin.bytes} bytes is too large to read and names no file_path`,
      );
    const t = locateTarget(filePath, undefined, roots!);
    if (t.kind !== 'inside') return 0;
    emit(io, 'PreToolUse', {
      permissionDecision: 'deny',
      permissionDecisionReason: `memtrust: this write to ${t.relPath} is ${stdin.bytes} bytes of tool input, far over the 1 MiB memory file cap`,
    });
    return 0;
  }
  const parsed = parseHookInput(stdin.text);
  if (!parsed.ok) {
    // A broken configuration is the first thing to say, as before the input is looked at.
    const problem = load(undefined, undefined);
    return cannotJudge(io, env, 'pre-write', problem ?? parsed.problem);
  }
  const problem = load(parsed.input.filePath, parsed.input.cwd);
  if (problem !== null) return cannotJudge(io, env, 'pre-write', problem);
  let verdict: PreVerdict;
  try {
    const s = screenPreWrite(parsed.input, roots!);
    if (s.decision === 'judge') {
      // Only a write into a memory root loads the validators (docs/install.md, "Figures").
      const { judgeContent, ownerIdentity } = await import('../hooks/pre-write-deps');
      verdict = judgeContent(s.target, s.write, { roots: roots!, owner: () => ownerIdentity(env) });
    } else verdict = s;
  } catch (e) {
    return cannotJudge(io, env, 'pre-write', `internal error: ${(e as Error).message}`);
  }
  return answerPre(io, env, parsed.input, verdict, machine!, now!);
}

async function answerPre(
  io: Io,
  env: Env,
  input: HookInput,
  v: PreVerdict,
  machine: string,
  now: Date,
): Promise<number> {
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
      if (v.target.place === 'memory')
        (await import('../hooks/pre-write-deps')).writePriorNote(
          v.target.realRoot,
          machine,
          input.toolUseId,
          v.prior,
          now,
        );
      // No permissionDecision: memtrust only ever narrows what Claude Code allows, never skips its prompt.
      if (v.context) emit(io, 'PreToolUse', { additionalContext: v.context });
      return 0;
  }
}
