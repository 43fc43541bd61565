/**
 * `decide` turns an action request into what the service must write and move, or a
 * refusal naming the rule. It decides; it never does (no fs, no clock of its own).
 */
import { addDays, isoNow, startOfUtcDay, today } from './dates';
import { effectiveTier, type MemoryFacts } from './facts';
import { lifecycle } from './lifecycle';
import { checksPass, describeFailure, isHardFailure, oneLine, sanitiseReason } from './reason';
import { refuse, type Refused } from './refusals';
import { FORBIDDEN, TRANSITIONS, type TransitionRule, type ValueSource } from './table';
import type { DecideContext, Decision, Move } from './decision';
import { STALE_AFTER_DAYS, type Action, type EffectiveTier, type Tier } from './tiers';

export { TRANSITIONS, FORBIDDEN } from './table';
export type { Refused, RefusalCode } from './refusals';

export type { Applied, DecideContext, Decision, Move, Noop } from './decision';

/** Pointers to the action the user probably meant. */
const HINT: Record<string, string> = {
  'promote:quarantined': 'use restore, which re-runs the validators and lands at verified',
  'reaffirm:inferred': 'promote it once its 7-day observation period is over',
};

const BASE: Record<Action, string> = {
  'create-user': 'create a verified memory',
  'create-inferred': 'create a memory',
  promote: 'promote',
  reaffirm: 're-affirm',
  demote: 'demote',
  restore: 'restore',
  archive: 'archive',
  edit: 'edit',
};

function precondition(rule: TransitionRule, action: Action, facts: MemoryFacts, ctx: DecideContext): Refused | null {
  const filename = facts.filename;
  // Computed only for the rules that read the clocks (a listing asks thousands of times).
  let cached: ReturnType<typeof lifecycle> | undefined;
  const life = () => (cached ??= lifecycle(facts, ctx.now));
  switch (rule.precondition) {
    case 'none':
      return null;
    case 'observation-over': {
      const o = life().observation!;
      if (o.over) return null;
      const note = o.basis === 'mtime' ? "measured from the file's modification time: no created-at" : undefined;
      return refuse(action, 'observation-not-over', { at: o.endsAt, days: o.daysLeft, note });
    }
    case 'stale': {
      const v = life().verification!;
      // An assistant edit since verification is reviewed now, not in 90 days (docs/hooks.md).
      if (v.stale || facts.changedSinceVerified) return null;
      const at = addDays(startOfUtcDay(v.lastVerified!), STALE_AFTER_DAYS + 1);
      return refuse(action, 'not-stale', { filename, lastVerified: v.lastVerified!, days: v.daysSince!, at });
    }
    case 'reason-or-hard-failure':
      if (ctx.actor === 'validator') {
        return ctx.checks && isHardFailure(ctx.checks) ? null : refuse(action, 'no-hard-failure', { filename });
      }
      return sanitiseReason(ctx.reason ?? '') ? null : refuse(action, 'reason-required', { filename });
    case 'checks-pass':
      if (!ctx.checks) return refuse(action, 'checks-required', { filename });
      return checksPass(ctx.checks)
        ? null
        : refuse(action, 'validators-fail', { failure: describeFailure(ctx.checks) });
    case 'archive-due': {
      const q = life().quarantine!;
      return q.window === 'archive'
        ? null
        : refuse(action, 'not-archive-due', { filename, days: q.days, at: q.archiveFrom });
    }
  }
}

function reasonText(ctx: DecideContext): string {
  const given = sanitiseReason(ctx.reason ?? '');
  if (given || ctx.actor !== 'validator' || !ctx.checks) return given;
  return sanitiseReason(`validator: ${describeFailure(ctx.checks)}`);
}

function values(rule: TransitionRule, to: EffectiveTier, ctx: DecideContext): Record<string, string> {
  const source: Record<ValueSource, () => string> = {
    to: () => to,
    today: () => today(ctx.now),
    now: () => isoNow(ctx.now),
    machine: () => oneLine(ctx.machine, 64),
    reason: () => reasonText(ctx),
  };
  const out: Record<string, string> = {};
  for (const [key, src] of Object.entries(rule.set)) out[key] = source[src]();
  return out;
}

export function decide(action: Action, facts: MemoryFacts | null, ctx: DecideContext): Decision {
  const rule = TRANSITIONS[action];
  const creating = rule.from.includes(null);
  if (creating && facts) return refuse(action, 'exists', { filename: facts.filename });
  if (!creating && !facts) return refuse(action, 'not-found');
  const filename = facts?.filename;
  if (facts?.conflict) return refuse(action, 'conflict', { filename });
  if (!rule.deciders.includes(ctx.actor))
    return refuse(action, 'forbidden', { rule: `only the user can ${BASE[action]}` });

  const from = facts ? effectiveTier(facts).tier : null;
  if (from && rule.noopFrom.includes(from)) {
    const message = `${filename} is already ${from}: nothing to do`;
    return { ok: true, noop: true, action, from, to: from, set: {}, remove: [], move: null, message };
  }
  if (!rule.from.includes(from)) {
    if (from === 'quarantined' && action !== 'promote') return refuse(action, 'quarantine-read-only', { filename });
    if (from === 'archived') {
      const archivedRule = 'archived memories are kept as a record and no transition leaves the archive';
      return refuse(action, 'wrong-tier', { filename, tier: from, rule: archivedRule });
    }
    const note = HINT[`${action}:${from}`];
    return refuse(action, 'wrong-tier', { filename, tier: from ?? undefined, rule: rule.applies, note });
  }
  if (facts) {
    const refused = precondition(rule, action, facts, ctx);
    if (refused) return refused;
  }

  const to: EffectiveTier = rule.to === 'same' ? from! : rule.to;
  let move: Move = rule.move ? { dir: rule.move } : null;
  if (rule.move === 'archive' && facts)
    move = { dir: 'archive', month: lifecycle(facts, ctx.now).quarantine!.archiveMonth };
  return {
    ok: true,
    noop: false,
    action,
    from,
    to,
    set: ctx.preview ? {} : values(rule, to, ctx),
    remove: [...rule.remove],
    move,
  };
}

/** Which action moves a memory from one tier to another, or why none does (for "set tier" requests). */
export function actionFor(
  from: EffectiveTier | null,
  to: Tier | 'archived',
): { ok: true; action: Action } | { ok: false; message: string } {
  const banned = FORBIDDEN.find((f) => f.from === from && f.to === to);
  if (banned) return { ok: false, message: `${from} → ${to} refused: ${banned.rule}` };
  for (const [action, rule] of Object.entries(TRANSITIONS) as [Action, TransitionRule][]) {
    if (action === 'edit') continue;
    if (rule.from.includes(from) && rule.to === to) return { ok: true, action };
  }
  return { ok: false, message: `${from ?? 'nothing'} → ${to} refused: no such transition in the trust model` };
}
