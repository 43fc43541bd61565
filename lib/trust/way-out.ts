/**
 * The way out of a secret-check finding, in the words every refusal, hint and page uses
 * (CONTRACT §3 "Refusals teach", "Repair and restore"; docs/credentials.md §1). A credential
 * is never kept: its way out is removing the value (the repair dialog leaves an empty
 * `<redacted></redacted>` where it was). Wrapping a value in `<redacted>…</redacted>` keeps it,
 * so it is offered for personal data only.
 */
import { findingClass } from '../validators/types';

/** A credential's way out. */
export const CREDENTIAL_WAY_OUT = 'remove the value (repair leaves an empty <redacted></redacted>)';

/** Personal data's way out: it may be kept wrapped, or allowed. */
export const PERSONAL_WAY_OUT =
  'remove it, wrap it in <redacted>…</redacted>, or allow it in the settings (owner e-mails, allowed networks, home users)';

/** The way out of a secret finding of this class (or, without a class, of this code). */
export function secretWayOut(f: { code: string; class?: string | null }): string {
  return (f.class ?? findingClass(f.code)) === 'credential' ? CREDENTIAL_WAY_OUT : PERSONAL_WAY_OUT;
}
