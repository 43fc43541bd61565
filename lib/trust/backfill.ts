/**
 * Backfill plan (docs/trust-model.md "Backfill"): the tier and fields a file without trust-level
 * gets. Ambiguous origin defaults to inferred: a wrongly-inferred memory costs one
 * prompt, a wrongly-verified one is applied silently everywhere.
 */
import { isoNow, parseTimestamp, today } from './dates';
import { readDeclared, type MemoryFacts } from './facts';
import { oneLine, sanitiseReason } from './reason';
import type { Move } from './transitions';
import type { MemoryType, Tier } from './tiers';

/**
 * What the checks found in the file (docs/trust-model.md "Backfill"): a memory with a
 * credential, an injection flag (hints do not count) or a hard validator failure is never
 * back-filled to verified — it stays inferred, its findings shown, until it is fixed and
 * promoted. `untrusted-origin` joins this list when origins are read (CONTRACT §3.1).
 */
export interface BackfillChecks {
  credential?: boolean;
  injection?: boolean;
  /** validate exit 1 or 2. */
  hardFailure?: boolean;
}

export type BackfillInput = MemoryFacts & { hasTrustLevel?: boolean; checks?: BackfillChecks };

export interface BackfillOptions {
  /** The reviewer's per-file choice, replacing the default from `type`. */
  tier?: Tier;
  /** Reason recorded when the override is `quarantined`. */
  reason?: string;
  /**
   * The root's first backfill is done (docs/hooks.md "After the first backfill"): a file
   * without trust-level now is an assistant write no hook stamped, so it is inferred
   * whatever its type, and never verified (not even by an override).
   */
  afterFirstBackfill?: boolean;
  /**
   * The memory is flagged untrusted-origin (docs/origin.md): what its writing turn read,
   * in one line. Such a memory is never back-filled to verified, not even by an override.
   */
  untrustedOrigin?: string;
}

export type BackfillBasis =
  | `type:${MemoryType}`
  | 'unknown-type'
  | 'missing-type'
  | 'override'
  | 'after-first-backfill'
  | 'untrusted-origin'
  | 'flagged';

export type BackfillPlan =
  | { kind: 'skip'; filename: string; reason: string }
  | {
      kind: 'apply';
      filename: string;
      tier: Tier;
      basis: BackfillBasis;
      /** Frontmatter keys to add, in this order; nothing already present is overwritten. */
      set: Record<string, string>;
      move: Move;
      /** One sentence for the dry-run listing. */
      reason: string;
      notes: string[];
    };

export const DEFAULT_TIER_BY_TYPE: Readonly<Record<MemoryType, Tier>> = {
  user: 'verified',
  feedback: 'verified',
  project: 'verified',
  reference: 'inferred',
};

/** `hostname -s`: the first label of the host name. */
export function shortHostname(hostname: string): string {
  return oneLine(hostname.split('.')[0] ?? '', 64);
}

function defaultTier(type: string | undefined): { tier: Tier; basis: BackfillBasis } {
  if (type === undefined || type === '') return { tier: 'inferred', basis: 'missing-type' };
  if (Object.hasOwn(DEFAULT_TIER_BY_TYPE, type)) {
    return { tier: DEFAULT_TIER_BY_TYPE[type as MemoryType], basis: `type:${type as MemoryType}` };
  }
  return { tier: 'inferred', basis: 'unknown-type' };
}

function skipReason(f: BackfillInput): string | null {
  const declared = readDeclared(f.trustLevel);
  if (declared === 'invalid')
    return `has an invalid trust-level "${f.trustLevel}": fix it by hand (validate reports FAIL-FORMAT)`;
  if (declared !== 'missing') return `already has trust-level: ${declared}`;
  // The key exists but the service could not hand over a string (a list, a number…).
  if (f.hasTrustLevel && f.trustLevel === undefined) return 'trust-level is present but not plain text: fix it by hand';
  if (f.conflict) return 'in both memories/ and quarantine/: resolve the conflict first';
  if (f.location !== 'memories') return `in ${f.location}/: its directory already decides its tier`;
  return null;
}

const BASIS_TEXT: Record<string, string> = {
  'missing-type': 'no type: origin unknown, so inferred (the conservative default)',
  'unknown-type': 'unknown type: origin unknown, so inferred (the conservative default)',
  override: 'tier chosen by the reviewer',
  'after-first-backfill': 'new since the first backfill and stamped by no hook: an assistant write, so inferred',
};

/** Why a file's checks keep it from verified, one clause per finding kind; null when nothing does. */
export function flaggedForBackfill(c: BackfillChecks | undefined): string | null {
  if (!c) return null;
  const why = [
    c.credential ? 'a credential' : null,
    c.injection ? 'an injection flag' : null,
    c.hardFailure ? 'a hard validator failure' : null,
  ].filter((x): x is string => x !== null);
  return why.length ? `holds ${why.join(', ')}: inferred, never verified, until it is fixed and promoted` : null;
}

export function backfillPlan(f: BackfillInput, now: Date, hostname: string, opts: BackfillOptions = {}): BackfillPlan {
  const skip = skipReason(f);
  if (skip) return { kind: 'skip', filename: f.filename, reason: skip };

  const notes: string[] = [];
  let { tier, basis }: { tier: Tier; basis: BackfillBasis } = opts.tier
    ? { tier: opts.tier, basis: 'override' }
    : defaultTier(f.type);
  if (opts.afterFirstBackfill && (!opts.tier || opts.tier === 'verified')) {
    if (opts.tier === 'verified')
      notes.push(
        'verified refused: a memory new since the first backfill is promoted after its observation period, not back-filled',
      );
    tier = 'inferred';
    basis = 'after-first-backfill';
  }
  const flagged = flaggedForBackfill(f.checks);
  if (flagged && tier === 'verified') {
    if (opts.tier === 'verified') notes.push('verified refused: the file is flagged');
    tier = 'inferred';
    basis = 'flagged';
  }
  // Untrusted origin (docs/origin.md): read outside content before writing, so inferred until promoted with it shown.
  if (opts.untrustedOrigin && tier === 'verified') {
    if (opts.tier === 'verified')
      notes.push('verified refused: an untrusted-origin memory is promoted with its origin shown, not back-filled');
    tier = 'inferred';
    basis = 'untrusted-origin';
  }
  const set: Record<string, string> = { 'trust-level': tier };
  if (!f.createdAt) {
    set['created-at'] = isoNow(f.mtime);
    notes.push("created-at taken from the file's modification time");
  } else if (!parseTimestamp(f.createdAt)) {
    notes.push(`created-at "${f.createdAt}" is not ISO 8601: left as is (validate reports it)`);
  }
  if (tier === 'verified' || tier === 'quarantined') set['last-verified'] = today(now);
  const host = shortHostname(hostname);
  if (!f.sourceMachine && host) set['source-machine'] = host;
  else if (!f.sourceMachine) notes.push('no host name known: source-machine left unset');

  let move: Move = null;
  if (tier === 'quarantined') {
    set['quarantined-at'] = isoNow(now);
    if (host) set['quarantined-by'] = host;
    set['quarantine-reason'] = sanitiseReason(opts.reason ?? '') || 'quarantined at backfill by the reviewer';
    move = { dir: 'quarantine' };
  }
  const why =
    basis === 'untrusted-origin'
      ? `untrusted origin (${opts.untrustedOrigin}): inferred until promoted with its origin shown`
      : basis.startsWith('type:')
        ? `type ${basis.slice(5)} defaults to ${tier}`
        : basis === 'flagged'
          ? flagged!
          : BASIS_TEXT[basis]!;
  return { kind: 'apply', filename: f.filename, tier, basis, set, move, reason: why, notes };
}
