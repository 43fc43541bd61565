/**
 * The shapes `decide` returns. Expected refusals are values, never exceptions, so the
 * service, the CLI and the web actions can all switch on `ok` / `noop` / `code`.
 */
import type { CheckExits } from './reason';
import type { Refused } from './refusals';
import type { Action, Decider, EffectiveTier, Location } from './tiers';

export interface DecideContext {
  now: Date;
  /** Short hostname written to source-machine / quarantined-by. */
  machine: string;
  reason?: string;
  actor: Decider;
  /** Fresh validator exits on the current file: required for restore and validator demotion. */
  checks?: CheckExits;
  /** Only whether the action is allowed matters (a listing): the frontmatter values are not computed. */
  preview?: boolean;
}

export type Move = { dir: Location; month?: string } | null;

export interface Applied {
  ok: true;
  noop: false;
  action: Action;
  from: EffectiveTier | null;
  to: EffectiveTier;
  /** Frontmatter keys to write, in this order. */
  set: Record<string, string>;
  /** Frontmatter keys to delete whole (key and value). */
  remove: string[];
  move: Move;
}

/** "Already in that state": accepted, nothing to write (the CLI exits 0). */
export interface Noop {
  ok: true;
  noop: true;
  action: Action;
  from: EffectiveTier;
  to: EffectiveTier;
  set: Record<string, never>;
  remove: [];
  move: null;
  message: string;
}

export type Decision = Applied | Noop | Refused;
