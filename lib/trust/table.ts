/**
 * docs/trust-model.md as data: one row per action. `decide` reads only this table for who may
 * act, from which tier, to which tier, what is written and where the file goes, so each
 * rule lives in exactly one place. The UI's transition menu reads it too.
 */
import type { Action, Decider, EffectiveTier, Location, Tier } from './tiers';

/** Where a written value comes from when the decision is made. */
export type ValueSource = 'to' | 'today' | 'now' | 'machine' | 'reason';

export type Precondition =
  | 'none'
  | 'observation-over'
  | 'stale'
  | 'reason-or-hard-failure'
  | 'checks-pass'
  | 'archive-due';

export interface TransitionRule {
  /** Tiers the action applies to; null = the memory does not exist yet (creation). */
  from: readonly (EffectiveTier | null)[];
  /** 'same' = the tier does not change. */
  to: EffectiveTier | 'same';
  /** Tiers on which the action is an accepted no-op ("already in that state"). */
  noopFrom: readonly EffectiveTier[];
  /** Validators may only ever demote (docs/trust-model.md: no automatic promotion or restore). */
  deciders: readonly Decider[];
  precondition: Precondition;
  set: Readonly<Record<string, ValueSource>>;
  remove: readonly string[];
  /** Destination directory; null = the file stays where it is. */
  move: Location | null;
  /** The whole rule in words, for the UI's help text. */
  rule: string;
  /** Which tiers the action applies to, in words (quoted when the tier is wrong). */
  applies: string;
}

const QUARANTINE_FIELDS = ['quarantined-at', 'quarantined-by', 'quarantine-reason'] as const;

export const TRANSITIONS: Readonly<Record<Action, TransitionRule>> = {
  'create-user': {
    from: [null],
    to: 'verified',
    noopFrom: [],
    deciders: ['user'],
    precondition: 'none',
    set: { 'created-at': 'now', 'trust-level': 'to', 'last-verified': 'today', 'source-machine': 'machine' },
    remove: [],
    move: 'memories',
    rule: 'a memory written by an explicit user gesture starts verified',
    applies: 'only a new memory is created',
  },
  'create-inferred': {
    from: [null],
    to: 'inferred',
    noopFrom: [],
    deciders: ['user'],
    precondition: 'none',
    set: { 'created-at': 'now', 'trust-level': 'to', 'source-machine': 'machine' },
    remove: [],
    move: 'memories',
    rule: 'a memory written through inference starts inferred, with a 7-day observation period',
    applies: 'only a new memory is created',
  },
  promote: {
    from: ['inferred'],
    to: 'verified',
    noopFrom: ['verified'],
    deciders: ['user'],
    precondition: 'observation-over',
    set: { 'trust-level': 'to', 'last-verified': 'today' },
    remove: [],
    move: null,
    rule: 'only the user promotes, only inferred memories, and only after the 7-day observation period',
    applies: 'only inferred memories are promoted',
  },
  reaffirm: {
    from: ['verified'],
    to: 'verified',
    noopFrom: [],
    deciders: ['user'],
    precondition: 'stale',
    set: { 'last-verified': 'today' },
    remove: ['changed-since-verified'],
    move: null,
    rule: 'only the user re-affirms, only verified memories last verified more than 90 days ago (or never) or changed by the assistant since',
    applies: 'only verified memories are re-affirmed',
  },
  demote: {
    from: ['verified', 'inferred'],
    to: 'quarantined',
    noopFrom: ['quarantined'],
    deciders: ['user', 'validator'],
    precondition: 'reason-or-hard-failure',
    set: {
      'trust-level': 'to',
      'last-verified': 'today',
      'quarantined-at': 'now',
      'quarantined-by': 'machine',
      'quarantine-reason': 'reason',
    },
    remove: ['changed-since-verified'],
    move: 'quarantine',
    rule: 'verified or inferred memories are demoted by the user with a reason, or by a hard validator failure',
    applies: 'only verified or inferred memories are demoted',
  },
  restore: {
    from: ['quarantined'],
    to: 'verified',
    noopFrom: [],
    deciders: ['user'],
    precondition: 'checks-pass',
    set: { 'trust-level': 'to', 'last-verified': 'today' },
    remove: [...QUARANTINE_FIELDS, 'changed-since-verified'],
    move: 'memories',
    rule: 'only the user restores, and only when validate and secret-check pass on the current file; it lands at verified',
    applies: 'only quarantined memories are restored',
  },
  archive: {
    from: ['quarantined'],
    to: 'archived',
    noopFrom: ['archived'],
    deciders: ['user'],
    precondition: 'archive-due',
    set: {},
    remove: [],
    move: 'archive',
    rule: 'only the user archives, only quarantined memories, from day 91 in quarantine',
    applies: 'only quarantined memories are archived',
  },
  edit: {
    from: ['verified', 'inferred'],
    to: 'same',
    noopFrom: [],
    deciders: ['user'],
    precondition: 'none',
    set: {},
    remove: [],
    move: null,
    rule: 'quarantine is read-only: restore a memory before editing it',
    applies: 'only verified or inferred memories are edited',
  },
};

/** Transitions that do not exist (docs/trust-model.md), each with the reason it gives. */
export const FORBIDDEN: readonly { from: Tier; to: Tier; rule: string }[] = [
  {
    from: 'quarantined',
    to: 'inferred',
    rule: 'a restored memory always lands at verified; there is no partial restore',
  },
  {
    from: 'verified',
    to: 'inferred',
    rule: 'a verified memory you doubt is demoted to quarantined, not stepped back to inferred',
  },
];
