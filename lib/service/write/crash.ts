/**
 * Fault injection for the write path (docs/crash-safety.md, "Fault points").
 * Inert unless a test arms it.
 *
 * Every file-system call the write path makes goes through `fsx` (fs-atomic.ts),
 * which reports it here once it has returned: that is a numbered fault point.
 * - `MEMTRUST_CRASH_AT=<step>` kills the process (SIGKILL, no cleanup) at a named
 *   step; `MEMTRUST_CRASH_AT=#N` kills it right after its N-th file-system call.
 * - `MEMTRUST_FAULT_TRACE=<file>` appends one line per fault point (to count them).
 * - `MEMTRUST_FAULT_SAVE=#N:<from>:<to>` saves `from`'s bytes over `to` after call N.
 * - In-process tests arm a plan (`armFaults`): at point N run a callback (an
 *   editor's save) and/or simulate a kill: a `SimulatedKill` is thrown and every
 *   later file-system call through `fsx` throws too, so no `finally` or `catch`
 *   can change the disk after the "kill" — the disk is left exactly as a SIGKILL
 *   at that point would leave it.
 */
import fs from 'node:fs';

export const CRASH_STEPS = [
  'after-journal',
  'after-temp-write',
  'after-aside',
  'after-link',
  'after-source-unlink',
  'after-index-file',
  'after-audit',
  'after-db',
] as const;
export type CrashStep = (typeof CRASH_STEPS)[number];

export function crashPoint(step: CrashStep): void {
  if (process.env.MEMTRUST_CRASH_AT === step) process.kill(process.pid, 'SIGKILL');
}

/** Thrown in-process where a real kill would have stopped the process. */
export class SimulatedKill extends Error {
  readonly simulatedKill = true;
}

export function isKill(e: unknown): e is SimulatedKill {
  return e instanceof SimulatedKill;
}

export interface FaultPlan {
  /** 1-based number of the file-system call after which to act. */
  at: number;
  kill: boolean;
  /** Runs right after that call (before a kill): e.g. an editor saving a file. */
  act?: (label: string) => void;
}

interface FaultState {
  plan: FaultPlan | null;
  calls: number;
  dead: boolean;
  trace: string[] | null;
}

const state: FaultState = { plan: null, calls: 0, dead: false, trace: null };

/** Starts counting fault points from zero; with a plan, acts at its point. */
export function armFaults(plan: FaultPlan | null, opts: { trace?: boolean } = {}): void {
  state.plan = plan;
  state.calls = 0;
  state.dead = false;
  state.trace = opts.trace ? [] : null;
}

/** Back to normal (alive, no plan); returns the labels of the points passed while armed with `trace`. */
export function disarmFaults(): { calls: number; trace: string[] } {
  const out = { calls: state.calls, trace: state.trace ?? [] };
  armFaults(null);
  return out;
}

/** Called before each file-system call: after a simulated kill nothing more reaches the disk. */
export function beforeFs(label: string): void {
  if (state.dead) throw new SimulatedKill(`killed earlier; refused: ${label}`);
}

const envAt = (() => {
  const v = process.env.MEMTRUST_CRASH_AT;
  return v && /^#\d+$/.test(v) ? Number(v.slice(1)) : 0;
})();
const envTrace = process.env.MEMTRUST_FAULT_TRACE;
/** `MEMTRUST_FAULT_SAVE=#N:<from>:<to>`: right after call N, copy `from` over `to` (an editor's save). */
const envSave = (() => {
  const m = /^#(\d+):([^:]+):(.+)$/.exec(process.env.MEMTRUST_FAULT_SAVE ?? '');
  return m ? { at: Number(m[1]), from: m[2]!, to: m[3]! } : null;
})();

/** Called after each file-system call of the write path returned: one fault point. */
export function fsPoint(label: string): void {
  state.calls++;
  state.trace?.push(label);
  if (envTrace) {
    fs.appendFileSync(envTrace, `${label}\n`);
  }
  if (envSave && state.calls === envSave.at) fs.writeFileSync(envSave.to, fs.readFileSync(envSave.from));
  if (envAt && state.calls === envAt) process.kill(process.pid, 'SIGKILL');
  const plan = state.plan;
  if (plan && state.calls === plan.at) {
    plan.act?.(label);
    if (plan.kill) {
      state.dead = true;
      throw new SimulatedKill(`simulated kill after ${label}`);
    }
  }
}
