/**
 * What an assistant write does to trust (docs/hooks.md "The stamp").
 * Pure: given the memtrust-owned fields the file had before the write (or null for a
 * new file) and the ones it has now, returns the frontmatter to set and remove.
 *
 * The assistant never sets trust: whatever it wrote into these keys is replaced by the
 * values from before the write. A new memory is inferred with created-at = now (never
 * back-dated, so the 7-day observation starts now) and source-machine; an edit of a
 * verified memory keeps verified and its last-verified, and gets `changed-since-verified`.
 */
import { isoNow } from './dates';
import { oneLine } from './reason';

/** The tier before the write, as an audit event records it (null: new, or no trust-level). */
type EventTier = 'verified' | 'inferred' | null;

/** Frontmatter keys only memtrust writes; the assistant's values for them never survive. */
export const PROTECTED_FIELDS = [
  'trust-level',
  'last-verified',
  'created-at',
  'source-machine',
  'quarantined-at',
  'quarantined-by',
  'quarantine-reason',
  'changed-since-verified',
  // Set by a promote with the untrusted origin shown (docs/origin.md): the assistant may never set it.
  'origin-reviewed',
] as const;

/** The date the user promoted an untrusted-origin memory with its origin shown (docs/origin.md). */
export const ORIGIN_REVIEWED = 'origin-reviewed';

/** Set on a verified memory the assistant edited; cleared by reaffirm (and demote). */
export const CHANGED_SINCE_VERIFIED = 'changed-since-verified';

/** The sentence the review queue and the memory page show for the flag (null when unset). */
export function changedSinceVerifiedFact(value: string | null | undefined): string | null {
  return value ? `changed by the assistant since verification (${value}): re-affirm or demote` : null;
}

export interface AssistantWriteInput {
  /** Protected fields before the write; null = the file did not exist. */
  prior: Record<string, string> | null;
  /** The prior file's modification time (created-at of a legacy file without one). */
  priorMtime?: Date;
  /** Protected fields as the assistant left them. */
  current: Record<string, string>;
  now: Date;
  machine: string;
  /**
   * The hook's session and tool-use ids, and the file's own origin keys as the write left
   * them (docs/origin.md "Recorded going forward"): stamped when Claude Code wrote none.
   */
  origin?: { sessionId?: string; toolUseId?: string; current: { sessionId?: string; toolUseId?: string } };
}

/** Top-level keys the stamp writes when Claude Code did not (`originSessionId` is Claude Code's own name). */
export const ORIGIN_SESSION_KEY = 'originSessionId';
export const ORIGIN_TOOL_USE_KEY = 'originToolUseId';
const ORIGIN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** The origin keys to add: only absent ones, only well-formed ids, a tool-use id only beside its own session. */
export function originStamp(o: AssistantWriteInput['origin']): Record<string, string> {
  const set: Record<string, string> = {};
  if (!o?.sessionId || !ORIGIN_ID.test(o.sessionId)) return set;
  const session = o.current.sessionId ?? o.sessionId;
  if (!o.current.sessionId) set[ORIGIN_SESSION_KEY] = o.sessionId;
  if (session === o.sessionId && !o.current.toolUseId && o.toolUseId && ORIGIN_ID.test(o.toolUseId))
    set[ORIGIN_TOOL_USE_KEY] = o.toolUseId;
  return set;
}

export type AssistantWritePlan =
  | { noop: true; tier: 'verified' | 'inferred'; message: string }
  | {
      noop: false;
      action: 'create' | 'edit';
      from: EventTier;
      to: 'verified' | 'inferred';
      set: Record<string, string>;
      remove: string[];
      reason: string;
    };

export function planAssistantWrite(w: AssistantWriteInput): AssistantWritePlan {
  const want: Record<string, string | undefined> = {};
  const machine = oneLine(w.machine, 64);
  let action: 'create' | 'edit';
  let from: EventTier;
  let to: 'verified' | 'inferred';
  let reason: string;
  if (w.prior === null) {
    action = 'create';
    from = null;
    to = 'inferred';
    want['trust-level'] = 'inferred';
    want['created-at'] = isoNow(w.now);
    want['source-machine'] = machine || undefined;
    reason = 'written by the assistant: inferred until the user promotes it';
  } else {
    const p = w.prior;
    for (const k of PROTECTED_FIELDS) want[k] = p[k];
    action = 'edit';
    if (p['trust-level'] === 'verified') {
      from = 'verified';
      to = 'verified';
      // The latest assistant change: each edit is its own event in the trail.
      want[CHANGED_SINCE_VERIFIED] = isoNow(w.now);
      reason = 'edited by the assistant after verification: re-affirm or demote';
    } else {
      // Anything but verified reads as inferred (the directory and the model agree: docs/trust-model.md).
      from = p['trust-level'] === 'inferred' ? 'inferred' : null;
      to = 'inferred';
      want['trust-level'] = 'inferred';
      want['last-verified'] = undefined;
      want[CHANGED_SINCE_VERIFIED] = undefined;
      // Age is never reset: a legacy file without created-at keeps its modification time.
      if (!want['created-at'] && w.priorMtime) want['created-at'] = isoNow(w.priorMtime);
      if (!want['source-machine'] && machine) want['source-machine'] = machine;
      reason =
        from === 'inferred'
          ? 'edited by the assistant'
          : 'edited by the assistant: inferred until the user promotes it';
    }
  }
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const k of PROTECTED_FIELDS) {
    const target = want[k];
    const now = w.current[k];
    if (target === undefined) {
      if (now !== undefined) remove.push(k);
    } else if (now !== target) set[k] = target;
  }
  const origin = originStamp(w.origin);
  if (!Object.keys(set).length && !remove.length) {
    if (Object.keys(origin).length)
      return { noop: false, action: 'edit', from: to, to, set: origin, remove, reason: 'origin session recorded' };
    return { noop: true, tier: to, message: 'the trust fields are as memtrust left them: nothing to stamp' };
  }
  Object.assign(set, origin);
  return { noop: false, action, from, to, set, remove, reason };
}
