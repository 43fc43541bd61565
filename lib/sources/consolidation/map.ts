/**
 * One consolidation record → tier, flags and what it allows (docs/layouts.md as written
 * in docs/consolidation-layout.md). Pure: `now` is always an argument.
 */
import type { RecordFlag, RecordTier } from '../record';
import {
  CONFIDENCES,
  CONSOLIDATION_ACTIONS,
  OBSERVATION_DAYS,
  RECORD_TYPES,
  SENSITIVITIES,
  STATUSES,
  TTL_DAYS,
  WRITE_RULE_TEXT,
  type ConsolidationAction,
  type Evaluated,
  type RecordType,
  type WriteRule,
} from './types';

const DAY_MS = 86_400_000;
const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * An ISO-8601 instant: a date (midnight UTC), or a date-time with optional seconds,
 * fraction and offset; a date-time without an offset is read as UTC. Impossible dates
 * (2026-02-30) are null. Never Date.parse (local time, lenient).
 */
export function parseIso(text: string): Date | null {
  const m = ISO_RE.exec(text);
  if (!m) return null;
  const [Y, MO, D, H, MI, S] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  if (MO < 1 || MO > 12 || D < 1 || H > 23 || MI > 59 || S > 59) return null;
  const t = new Date(0);
  t.setUTCFullYear(Y, MO - 1, D);
  t.setUTCHours(H, MI, S, ms);
  if (t.getUTCMonth() !== MO - 1 || t.getUTCDate() !== D) return null;
  const off = m[8];
  if (off && off !== 'Z' && off !== 'z') {
    const om = /^([+-])(\d{2}):?(\d{2})?$/.exec(off)!;
    const mins = Number(om[2]) * 60 + Number(om[3] ?? 0);
    if (Number(om[2]) > 23 || Number(om[3] ?? 0) > 59) return null;
    return new Date(t.getTime() - (om[1] === '+' ? 1 : -1) * mins * 60_000);
  }
  return t;
}

/** `YYYY-MM-DDTHH:MM:SSZ` (no fraction): what memtrust writes into `verifiedAt`. */
export function isoSeconds(d: Date): string {
  const s = d.toISOString();
  return s.length === 24 ? `${s.slice(0, 19)}Z` : s.replace(/\.\d{3}Z$/, 'Z');
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  const s = JSON.stringify(v);
  return `${s.length > 40 ? `${s.slice(0, 37)}…` : s} (${typeof v})`;
}

function isOneOf<T extends string>(list: readonly T[], v: unknown): v is T {
  return typeof v === 'string' && (list as readonly string[]).includes(v);
}

/**
 * Every known key of a parsed record line, type-checked. A key with the wrong type or
 * value counts as missing (or, for an enumeration, is kept as text and named in
 * `problems`); nothing throws. `id` must be a non-empty string (the caller checks).
 */
export function evaluate(obj: Record<string, unknown>, _now: Date): Evaluated {
  const problems: string[] = [];
  const str = (name: string, allowNull = true): string | null => {
    const v = obj[name];
    if (v === undefined || (v === null && allowNull)) return null;
    if (typeof v === 'string') return v;
    problems.push(`${name} is ${describe(v)}, expected text`);
    return null;
  };
  const enumOf = (name: string, list: readonly string[]): string | null => {
    const v = obj[name];
    if (v === undefined || v === null) {
      problems.push(`${name} is missing, expected one of ${list.join(', ')}`);
      return null;
    }
    if (isOneOf(list, v)) return v;
    problems.push(`${name} is ${describe(v)}, expected one of ${list.join(', ')}`);
    return typeof v === 'string' ? v : null;
  };

  const type = enumOf('type', RECORD_TYPES);
  const statement = str('statement');
  if (obj.statement === undefined || obj.statement === null) problems.push('statement is missing');

  // evidence: the seed writes one string; a list of strings is read too.
  let evidence: string[] = [];
  const ev = obj.evidence;
  if (typeof ev === 'string') evidence = ev.trim() ? [ev] : [];
  else if (Array.isArray(ev)) {
    evidence = ev.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
    const bad = ev.filter((x) => typeof x !== 'string');
    if (bad.length)
      problems.push(`evidence has ${bad.length} item(s) that are not text (${describe(bad[0])}); they are not counted`);
  } else if (ev !== undefined && ev !== null)
    problems.push(`evidence is ${describe(ev)}, expected text or a list of text`);

  const confidence = enumOf('confidence', CONFIDENCES);
  const sensitivity = enumOf('sensitivity', SENSITIVITIES);
  const sourceStepRaw = str('sourceStep');
  const sourceStep = sourceStepRaw?.trim() ? sourceStepRaw : null;

  const createdAt = str('createdAt');
  const created = createdAt === null ? null : parseIso(createdAt);
  if (createdAt === null && obj.createdAt === undefined)
    problems.push('createdAt is missing; no TTL or observation can be timed');
  else if (createdAt !== null && !created)
    problems.push(`createdAt ${JSON.stringify(createdAt)} is not an ISO-8601 date`);

  const expiresAt = str('expiresAt');
  const explicit = expiresAt === null ? null : parseIso(expiresAt);
  if (expiresAt !== null && !explicit)
    problems.push(`expiresAt ${JSON.stringify(expiresAt)} is not an ISO-8601 date; the TTL is used instead`);

  let expiry: Date | null = null;
  let expiryBasis: Evaluated['expiryBasis'] = null;
  if (explicit) {
    expiry = explicit;
    expiryBasis = 'expiresAt';
  } else if (created && type && (RECORD_TYPES as readonly string[]).includes(type)) {
    expiry = new Date(created.getTime() + TTL_DAYS[type as RecordType] * DAY_MS);
    expiryBasis = 'ttl';
  }

  const status = enumOf('status', STATUSES);
  const verifiedAt = str('verifiedAt');
  const reviewNote = str('reviewNote');

  let conflictsWith: string[] = [];
  const cw = obj.conflictsWith;
  if (typeof cw === 'string') conflictsWith = cw ? [cw] : [];
  else if (Array.isArray(cw)) conflictsWith = cw.filter((x): x is string => typeof x === 'string' && x !== '');
  else if (cw !== undefined && cw !== null) problems.push(`conflictsWith is ${describe(cw)}, expected a list of ids`);
  const conflictNote = str('conflictNote');

  const broken: WriteRule[] = [];
  if (evidence.length === 0) broken.push('no-evidence');
  if (sourceStep === null) broken.push('no-source-step');
  if (sensitivity === 'secret') broken.push('secret');
  if (type === 'working') broken.push('working');

  return {
    id: obj.id as string,
    type,
    statement,
    evidence,
    confidence,
    sensitivity,
    sourceStep,
    createdAt,
    created,
    expiresAt,
    expiry,
    expiryBasis,
    expiryIso: expiry ? isoSeconds(expiry) : null,
    status,
    verifiedAt,
    reviewNote,
    conflictsWith,
    conflictNote,
    broken,
    problems,
  };
}

export function isExpired(e: Evaluated, now: Date): boolean {
  return e.expiry !== null && now.getTime() >= e.expiry.getTime();
}

export function writeRuleText(e: Evaluated): string {
  return e.broken.map((r) => WRITE_RULE_TEXT[r]).join('; ');
}

function expiryText(e: Evaluated): string {
  if (e.expiryBasis === 'expiresAt') return 'its expiresAt';
  return `createdAt + ${TTL_DAYS[e.type as RecordType]} days for type ${e.type}`;
}

/**
 * The tier (docs/layouts.md): needs-review → quarantined (even past expiry); expired, or
 * active past its expiry → archived; active + high → verified unless a write rule is
 * broken; any other active → inferred. A status that is none of the three is
 * quarantined (it cannot be trusted into a session).
 */
export function tierOf(e: Evaluated, now: Date): RecordTier {
  if (e.status === 'needs-review') return 'quarantined';
  if (e.status === 'expired') return 'archived';
  if (e.status !== 'active') return 'quarantined';
  if (isExpired(e, now)) return 'archived';
  if (e.confidence === 'high' && e.broken.length === 0) return 'verified';
  return 'inferred';
}

/** A record's conflict partner as the store holds it (for the reason and the side-by-side view). */
export interface Partner {
  id: string;
  status: string | null;
}

export function flagsOf(
  e: Evaluated,
  now: Date,
  partners: Partner[],
): { flags: RecordFlag[]; reasons: Partial<Record<RecordFlag, string>> } {
  const flags: RecordFlag[] = [];
  const reasons: Partial<Record<RecordFlag, string>> = {};
  if (e.broken.length) {
    flags.push('write-rule');
    reasons['write-rule'] = `breaks the seed's write rules: ${writeRuleText(e)}`;
  }
  if (isExpired(e, now)) {
    flags.push('expired');
    reasons.expired = `expired ${e.expiryIso} (${expiryText(e)})${e.status === 'needs-review' ? '; stays quarantined while it needs review' : ''}`;
  }
  if (e.status === 'needs-review' && partners.length) {
    flags.push('conflict');
    const who = partners.map((p) => `${p.id} (${p.status ?? 'not in this store'})`).join(', ');
    reasons.conflict = `contradicts ${who}${e.conflictNote ? `: ${e.conflictNote}` : ''}`;
  }
  return { flags, reasons };
}

/** Whether `action` applies to the record now, and why not. Ordered: status, then rules, then clock. */
export function check(e: Evaluated, action: ConsolidationAction | string, now: Date): string | null {
  const who = e.id;
  const expired = isExpired(e, now);
  const status = e.status ?? 'missing';
  switch (action) {
    case 'promote': {
      if (e.status !== 'active')
        return `promote refused: ${who} is ${status}; only an active record is promoted${e.status === 'needs-review' ? ' (restore it first)' : ''}`;
      if (e.broken.length)
        return `promote refused: ${who} breaks the seed's write rules (${writeRuleText(e)}); a record breaking them is never verified`;
      if (e.confidence === 'high') return `promote refused: ${who} already has confidence high`;
      if (expired) return `promote refused: ${who} expired ${e.expiryIso} (${expiryText(e)})`;
      if (!e.created)
        return `promote refused: ${who} has no valid createdAt, so its ${OBSERVATION_DAYS}-day observation cannot be timed`;
      const from = new Date(e.created.getTime() + OBSERVATION_DAYS * DAY_MS);
      if (now.getTime() < from.getTime())
        return `promote refused: the ${OBSERVATION_DAYS}-day observation from createdAt ends ${isoSeconds(from)}; promote is possible from then`;
      return null;
    }
    case 'reaffirm': {
      if (e.status !== 'active') return `reaffirm refused: ${who} is ${status}; only an active record is re-affirmed`;
      if (e.broken.length)
        return `reaffirm refused: ${who} breaks the seed's write rules (${writeRuleText(e)}); a record breaking them is never verified`;
      if (expired)
        return `reaffirm refused: ${who} expired ${e.expiryIso} (${expiryText(e)}); re-affirming does not renew it`;
      return null;
    }
    case 'demote':
      if (e.status !== 'active') return `demote refused: ${who} is ${status}; only an active record is sent to review`;
      return null;
    case 'restore': {
      if (e.status === 'active') return `restore refused: ${who} is already active`;
      if (e.broken.length)
        return `restore refused: ${who} breaks the seed's write rules (${writeRuleText(e)}); fix the record first`;
      if (expired)
        return `restore refused: ${who} expired ${e.expiryIso} (${expiryText(e)}); an active record past its expiry is still archived`;
      return null;
    }
    case 'archive':
      if (e.status === 'expired') return `archive refused: ${who} is already expired`;
      return null;
    default:
      return `${action} refused: consolidation records allow ${CONSOLIDATION_ACTIONS.join(', ')}`;
  }
}

export function capabilities(e: Evaluated, now: Date): { actions: string[]; refused: Record<string, string> } {
  const actions: string[] = [];
  const refused: Record<string, string> = {};
  for (const a of CONSOLIDATION_ACTIONS) {
    const why = check(e, a, now);
    if (why) refused[a] = why;
    else actions.push(a);
  }
  return { actions, refused };
}
