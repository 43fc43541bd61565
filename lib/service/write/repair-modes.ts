/**
 * What the repair dialog offers for a flagged value (CONTRACT §3 "Repair and restore",
 * docs/credentials.md): a credential is removed — an empty `<redacted></redacted>` marks
 * the place — or left as it is (still blocked); wrapping a value in `<redacted>` keeps
 * it in the file, which is offered for personal data only. No Node import: the browser
 * dialog and the server share this one rule.
 */
import type { FindingClass } from '../../validators/types';

export type RedactMode = 'redact' | 'remove' | 'keep';

/** What a removed value leaves: an empty redaction, so the place shows something was there. */
export const REMOVED = '<redacted></redacted>';

export function modesFor(cls: FindingClass): RedactMode[] {
  return cls === 'credential' ? ['keep', 'remove'] : ['keep', 'redact', 'remove'];
}

/** The mode applied: a credential asked to be wrapped is removed (the server never keeps one). */
export function effectiveMode(cls: FindingClass, asked: RedactMode | undefined): RedactMode | undefined {
  return asked === 'redact' && cls === 'credential' ? 'remove' : asked;
}
