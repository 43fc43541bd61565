/**
 * Free text that people typed (quarantine and demote reasons, names) is shown
 * in the audit page and in reports. The service sanitises it to one line, but
 * nothing stops a user pasting a token into a reason: every such string passes
 * the secret check first, and a flagged one is withheld whole (docs/credentials.md).
 * Masking part of it would still leak the surrounding context and the length.
 */
import { containsSecret } from '../validators/withhold';
import type { OwnerIdentity } from '../validators/types';

export const REASON_WITHHELD = '(reason withheld: contains a secret-like value)';
export const TEXT_WITHHELD = '(withheld: contains a secret-like value)';

export type Guard = (text: string | null | undefined, withheld?: string) => string | null;

/** A memoised checker: the same reason repeats across thousands of events. */
export function textGuard(owner: OwnerIdentity): Guard {
  const seen = new Map<string, boolean>();
  return (text, withheld = TEXT_WITHHELD) => {
    if (text === null || text === undefined || text === '') return text ?? null;
    let flagged = seen.get(text);
    if (flagged === undefined) {
      flagged = containsSecret(text, owner);
      if (seen.size < 50_000) seen.set(text, flagged);
    }
    return flagged ? withheld : text;
  };
}

export const guardReason = (guard: Guard, reason: string | null | undefined): string | null =>
  guard(reason, REASON_WITHHELD);

/** An audit event as the page shows it: every free-text field through the guard. */
export function guardEvent<
  T extends { machine: string; memory: string; reason: string | null; findings: { message: string }[] },
>(guard: Guard, e: T): T {
  return {
    ...e,
    machine: guard(e.machine) ?? '',
    memory: guard(e.memory) ?? '',
    reason: guardReason(guard, e.reason),
    findings: e.findings.map((f) => ({ ...f, message: guard(f.message) ?? '' })),
  };
}
