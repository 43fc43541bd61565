/**
 * The history of one generated memory: where it lives, its trust fields, and the
 * audit drafts that led there. Ages keep a margin from every threshold (7 / 90 /
 * 30 / 91 days) so a file's category does not depend on how a reader rounds days.
 */
import type { Actor } from '../audit/event';
import type { EventDraft } from './events';
import type { Category } from './plan';
import { type Rng, chance, int, pick } from './prng';
import { DAY_MS, daysAgo, isoMonth } from './render';
import { USER_REASONS } from './vocab';

export type Tier = 'verified' | 'inferred' | 'quarantined';

export interface Life {
  dir: string;
  tier: Tier | null;
  created: Date;
  /** last-verified moment (written as its UTC date), null = field absent. */
  lv: Date | null;
  quarantine?: { at: Date; by: string; reason: string; validator: boolean };
  drafts: EventDraft[];
}

export interface LifeCtx {
  now: Date;
  machine: string;
  machines: readonly string[];
  /** source-machine of this file. */
  src: string;
}

const uniform = (r: Rng, lo: number, hi: number) => lo + r() * (hi - lo);
const between = (r: Rng, a: Date, b: Date) =>
  new Date(a.getTime() + Math.floor((r() * (b.getTime() - a.getTime())) / 1000) * 1000);
const userActor = (r: Rng): Actor => (chance(r, 0.6) ? 'user:web' : 'user:cli');
const anyMachine = (r: Rng, c: LifeCtx) => (chance(r, 0.6) ? c.machine : pick(r, c.machines));

/** Verified memory created `createdAge` days ago, last verified `lvAge` days ago. */
function verifiedLife(r: Rng, c: LifeCtx, createdAge: number, lvAge: number): Life {
  const created = daysAgo(c.now, createdAge);
  const mk = (
    at: Date,
    action: EventDraft['action'],
    from: EventDraft['from'],
    to: EventDraft['to'],
    actor: Actor,
    machine: string,
    reason: string | null = null,
  ): EventDraft => ({ at, machine, actor, action, from, to, reason });
  const gap = createdAge - lvAge;
  if (gap < 7)
    return {
      dir: 'memories',
      tier: 'verified',
      created,
      lv: created,
      drafts: [mk(created, 'create', null, 'verified', userActor(r), c.src)],
    };
  const lv = daysAgo(c.now, lvAge);
  const m = anyMachine(r, c);
  if (gap > 92 && chance(r, 0.4)) {
    return {
      dir: 'memories',
      tier: 'verified',
      created,
      lv,
      drafts: [
        mk(created, 'create', null, 'verified', userActor(r), c.src),
        mk(lv, 'reaffirm', 'verified', 'verified', userActor(r), m, 'still accurate'),
      ],
    };
  }
  if (gap >= 14 && chance(r, 0.12)) {
    const demoted = between(r, new Date(created.getTime() + DAY_MS), new Date(lv.getTime() - DAY_MS));
    return {
      dir: 'memories',
      tier: 'verified',
      created,
      lv,
      drafts: [
        mk(created, 'create', null, 'verified', userActor(r), c.src),
        mk(demoted, 'demote', 'verified', 'quarantined', 'user:web', m, pick(r, USER_REASONS)),
        mk(lv, 'restore', 'quarantined', 'verified', userActor(r), m, 'reviewed and still valid'),
      ],
    };
  }
  return {
    dir: 'memories',
    tier: 'verified',
    created,
    lv,
    drafts: [
      mk(created, 'create', null, 'inferred', 'system', c.src),
      mk(lv, 'promote', 'inferred', 'verified', userActor(r), m),
    ],
  };
}

function inferredLife(c: LifeCtx, createdAge: number): Life {
  const created = daysAgo(c.now, createdAge);
  return {
    dir: 'memories',
    tier: 'inferred',
    created,
    lv: null,
    drafts: [{ at: created, machine: c.src, actor: 'system', action: 'create', from: null, to: 'inferred' }],
  };
}

/** Quarantined `qAge` days ago; `validator` = demoted by an audit run (secret-check finding). */
function quarantinedLife(r: Rng, c: LifeCtx, qAge: number, validator: boolean): Life {
  const qAt = daysAgo(c.now, qAge);
  const createdAge = qAge + uniform(r, 3, 400);
  const prior = chance(r, 0.5)
    ? verifiedLife(r, c, createdAge, createdAge - uniform(r, 0, (createdAge - qAge) * 0.8))
    : inferredLife(c, createdAge);
  const by = validator ? c.machine : anyMachine(r, c);
  const reason = validator ? 'secret-check: private network address' : pick(r, USER_REASONS);
  const demote: EventDraft = {
    at: qAt,
    machine: by,
    actor: validator ? 'validator' : userActor(r),
    action: 'demote',
    from: prior.tier,
    to: 'quarantined',
    reason,
  };
  return {
    dir: 'quarantine',
    tier: 'quarantined',
    created: prior.created,
    lv: qAt,
    quarantine: { at: qAt, by, reason, validator },
    drafts: [...prior.drafts, demote],
  };
}

export function lifeFor(r: Rng, c: LifeCtx, cat: Category): Life {
  switch (cat) {
    case 'verified-fresh': {
      if (chance(r, 0.3)) {
        const a = uniform(r, 10, 88);
        return verifiedLife(r, c, a, a);
      }
      const createdAge = uniform(r, 10, 700);
      return verifiedLife(r, c, createdAge, uniform(r, 0, Math.min(88, createdAge - 7)));
    }
    case 'verified-stale': {
      const createdAge = uniform(r, 120, 900);
      return verifiedLife(r, c, createdAge, chance(r, 0.3) ? createdAge : uniform(r, 93, createdAge - 7));
    }
    case 'verified-no-lv':
      return { dir: 'memories', tier: 'verified', created: daysAgo(c.now, uniform(r, 30, 900)), lv: null, drafts: [] };
    case 'inferred-observing':
      return inferredLife(c, uniform(r, 0.05, 5.5));
    case 'inferred-due':
      return inferredLife(c, uniform(r, 8, 200));
    case 'no-trust':
      return { dir: 'memories', tier: null, created: daysAgo(c.now, uniform(r, 20, 900)), lv: null, drafts: [] };
    case 'quarantined-passive':
      return quarantinedLife(r, c, uniform(r, 0.1, 28), chance(r, 0.25));
    case 'quarantined-audit':
      return quarantinedLife(r, c, uniform(r, 33, 88), chance(r, 0.25));
    case 'quarantined-archive':
      return quarantinedLife(r, c, uniform(r, 93, 400), chance(r, 0.25));
    case 'archived': {
      const qAge = uniform(r, 100, 700);
      const life = quarantinedLife(r, c, qAge, chance(r, 0.25));
      const archivedAt = daysAgo(c.now, uniform(r, 0.5, qAge - 92));
      life.dir = `archive/${isoMonth(life.quarantine!.at)}`;
      life.drafts.push({
        at: archivedAt,
        machine: c.machine,
        actor: 'user:cli',
        action: 'archive',
        from: 'quarantined',
        to: 'archived',
        reason: 'archive candidate: 91+ days in quarantine',
      });
      return life;
    }
    case 'struct-error':
    case 'format-error':
    case 'warn-no-why':
    case 'owner-email':
      return verifiedLife(r, c, uniform(r, 20, 300), uniform(r, 1, 9));
    default: // secret-*, injection: written by inference, not yet audited
      return inferredLife(c, uniform(r, 1, 60));
  }
}

/** Helper shared with the corpus: a random whole-second time within `[0, maxSec]` after `d`, capped at now. */
export function jitter(r: Rng, d: Date, maxSec: number, now: Date): Date {
  return new Date(Math.min(now.getTime(), d.getTime() + int(r, 0, maxSec) * 1000));
}
