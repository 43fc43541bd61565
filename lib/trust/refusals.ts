/**
 * Every reason the trust domain says no, as one code union with one message table.
 * Messages are sentences a user understands and name the rule that applies.
 */
import { plural, timeOfDay, today } from './dates';
import type { Action, EffectiveTier } from './tiers';

export const REFUSAL_CODES = [
  'not-found',
  'exists',
  'conflict',
  'forbidden',
  'wrong-tier',
  'quarantine-read-only',
  'observation-not-over',
  'not-stale',
  'reason-required',
  'no-hard-failure',
  'checks-required',
  'validators-fail',
  'not-archive-due',
  // The file itself stops the action: no rewritable frontmatter, or a hard failure / credential for promote and re-affirm (allowed.ts).
  'file-blocks',
  // Promote of a memory flagged untrusted-origin whose origin the request does not say was shown (origin.ts).
  'origin-not-shown',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface Refused {
  ok: false;
  action: Action;
  code: RefusalCode;
  message: string;
}

export const VERB: Record<Action, string> = {
  'create-user': 'create',
  'create-inferred': 'create',
  promote: 'promotion',
  reaffirm: 're-affirmation',
  demote: 'demotion',
  restore: 'restore',
  archive: 'archiving',
  edit: 'edit',
};

/** Details a message may quote; each code reads only what it needs. */
export interface RefusalDetail {
  filename?: string;
  tier?: EffectiveTier;
  rule?: string;
  /** Observation end / archive-from / re-affirm-from instant. */
  at?: Date;
  days?: number;
  lastVerified?: Date;
  failure?: string;
  note?: string;
}

type Builder = (verb: string, d: RefusalDetail) => string;

const name = (d: RefusalDetail) => d.filename ?? 'this memory';
const tail = (d: RefusalDetail) => (d.note ? ` (${d.note})` : '');

const MESSAGES: Record<RefusalCode, Builder> = {
  'not-found': (v) => `${v} refused: no such memory`,
  exists: (v, d) => `${v} refused: a memory named ${name(d)} already exists`,
  conflict: (v, d) =>
    `${v} refused: ${name(d)} is in both memories/ and quarantine/; transitions are blocked until the conflict is resolved`,
  forbidden: (v, d) => `${v} refused: automatic ${v} is not allowed; ${d.rule}`,
  'wrong-tier': (v, d) => `${v} refused: ${name(d)} is ${d.tier}; ${d.rule}${tail(d)}`,
  'quarantine-read-only': (v, d) =>
    `${v} refused: ${name(d)} is quarantined and quarantine is read-only; restore it first (validate and secret-check must pass)`,
  'observation-not-over': (v, d) => {
    const end = d.at!;
    const when = d.days === 0 ? `later today at ${timeOfDay(end)} UTC` : `in ${plural(d.days ?? 0, 'day')}`;
    return `${v} refused: the observation period ends ${today(end)}, ${when}${tail(d)}`;
  },
  'not-stale': (v, d) =>
    `${v} refused: ${name(d)} was last verified ${today(d.lastVerified!)}, ${plural(d.days ?? 0, 'day')} ago; ` +
    `re-affirmation is due only after 90 days (from ${today(d.at!)})`,
  'reason-required': (v, d) => `${v} refused: give a one-line reason for demoting ${name(d)}`,
  'no-hard-failure': (v, d) =>
    `${v} refused: no hard validator failure on ${name(d)}; validators demote only on validate exit 1 or 2 or secret-check exit 1`,
  'checks-required': (v) => `${v} refused: validate and secret-check must be re-run on the current file first`,
  'validators-fail': (v, d) =>
    `${v} refused: ${d.failure}; validate must pass (exit 0 or 3) and secret-check must be clean (injection-check is advisory)`,
  'file-blocks': (v, d) => d.rule ?? `${v} refused by the file's own state`,
  'origin-not-shown': (v, d) => d.rule ?? `${v} refused: the untrusted origin was not shown`,
  'not-archive-due': (v, d) =>
    `${v} refused: ${name(d)} is on day ${d.days} in quarantine; archiving is allowed from day 91 (${today(d.at!)})`,
};

export function refuse(action: Action, code: RefusalCode, detail: RefusalDetail = {}): Refused {
  return { ok: false, action, code, message: MESSAGES[code](VERB[action], detail) };
}
