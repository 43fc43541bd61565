/**
 * The verbs of the one transition component (docs/transition-ui.md): their labels,
 * which ones record a reason, which ones are a choice of buttons, and the memory
 * descriptor's rule that promote and re-affirm are refused for a flagged memory.
 * Pure: the server pages build descriptors with it, the client renders them.
 */
import type { ActionAvailability } from '@/lib/trust/allowed';

/** One verb as the component shows it: allowed, or refused with its reason. */
export interface Verb {
  action: string;
  allowed: boolean;
  /** Why it is refused now (already masked for records). */
  reason?: string;
}

/** One button: a verb, or one choice of a verb that needs a choice before it can be planned. */
export interface VerbButton extends Verb {
  label: string;
  options?: Record<string, string>;
}

export const VERB_LABEL: Record<string, string> = {
  promote: 'Promote',
  reaffirm: 'Re-affirm',
  demote: 'Demote',
  restore: 'Restore',
  archive: 'Archive',
  close: 'Close',
  approve: 'Approve',
  reject: 'Reject',
};

export function verbLabel(action: string): string {
  return VERB_LABEL[action] ?? action.charAt(0).toUpperCase() + action.slice(1);
}

/** Actions that record a reason in the store and the audit (docs/trust-model.md). */
export const NEEDS_REASON = new Set(['demote']);

/**
 * Verbs that need a choice before they can be planned: each choice is its own button
 * (a canonical backlog entry closes as picked-up or dropped, docs/canonical-layout.md).
 */
const CHOICES: Record<string, { label: string; options: Record<string, string> }[]> = {
  close: [
    { label: 'Close as picked-up', options: { status: 'picked-up' } },
    { label: 'Close as dropped', options: { status: 'dropped' } },
  ],
};

/** The buttons for a verb list: an allowed verb with choices becomes one button per choice. */
export function verbButtons(verbs: Verb[]): VerbButton[] {
  return verbs.flatMap((v): VerbButton[] => {
    const choices = v.allowed ? CHOICES[v.action] : undefined;
    if (choices) return choices.map((c) => ({ action: v.action, allowed: true, label: c.label, options: c.options }));
    return [{ ...v, label: verbLabel(v.action) }];
  });
}

const VOUCHING = new Set(['promote', 'reaffirm']);

/**
 * A memory's verbs: what the trust rules allow now, with promote and re-affirm refused
 * when the memory is flagged (credential finding or hard validator failure).
 */
export function memoryVerbs(actions: ActionAvailability[], flagged: string | null): Verb[] {
  return actions.map((a) =>
    VOUCHING.has(a.action) && flagged && a.allowed
      ? { action: a.action, allowed: false, reason: `${verbLabel(a.action)} ${flagged}` }
      : { action: a.action, allowed: a.allowed, ...(a.reason ? { reason: a.reason } : {}) },
  );
}

/**
 * A record's verbs (docs/records.md, "Actions"): the layout's verbs in its order, each
 * allowed when the record allows it now and the layout is writable; a refusal carries the
 * record's reason, masked. A read-only layout's one reason is said once by the page, not per verb.
 */
export function recordVerbs(
  layoutActions: readonly string[],
  record: { actions: string[]; refused: Record<string, string> },
  readOnly: string | null,
  mask: (s: string) => string,
): Verb[] {
  const order = [...layoutActions, ...record.actions, ...Object.keys(record.refused)].filter(
    (a, i, all) => all.indexOf(a) === i,
  );
  return order.map((a) => {
    const why = record.refused[a] ?? readOnly ?? 'not available for this record';
    // memtrust never writes a read-only layout: its verbs are the owner's commands.
    const allowed = !readOnly && record.actions.includes(a);
    return { action: a, allowed, reason: allowed || why === readOnly ? undefined : mask(why) };
  });
}
