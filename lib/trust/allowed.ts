/**
 * Which review buttons a memory gets, each with the rule when disabled. Built on
 * `decide` so the menu can never disagree with what the service will accept.
 */
import type { MemoryFacts } from './facts';
import type { CheckExits } from './reason';
import { decide } from './transitions';
import { MEMORY_ACTIONS, type MemoryAction } from './tiers';

export interface ActionAvailability {
  action: MemoryAction;
  allowed: boolean;
  /** Why it is disabled (a full sentence), or what will be asked for when it is enabled. */
  reason?: string;
}

const ASKED = {
  demote: 'asks for a one-line reason',
  restore: 're-runs validate and secret-check first',
} as const;

/**
 * Availability for the user (never the validator). Demote is enabled before the reason is
 * typed and restore before the validators are re-run: those are asked for on click.
 * Pass `checks` to show restore's real outcome instead.
 */
export function allowedActions(facts: MemoryFacts, now: Date, checks?: CheckExits): ActionAvailability[] {
  return MEMORY_ACTIONS.map((action) => {
    const d = decide(action, facts, { now, machine: 'preview', actor: 'user', reason: 'preview', checks });
    if (d.ok && d.noop) return { action, allowed: false, reason: d.message };
    if (d.ok) return action === 'demote' ? { action, allowed: true, reason: ASKED.demote } : { action, allowed: true };
    if (d.code === 'checks-required') return { action, allowed: true, reason: ASKED.restore };
    return { action, allowed: false, reason: d.message };
  });
}
