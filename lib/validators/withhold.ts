/**
 * Keeping secrets out of the index, the audit trail and the pages (docs/credentials.md):
 * free text that the secret check flags is withheld whole, and the values in a body
 * are masked in place before the body is stored or shown.
 */
import { secretCheck } from './secrets';
import type { OwnerIdentity } from './types';
import { maskValues } from './mask-inline';

export const WITHHELD = '(withheld: contains a secret-like value)';

export function containsSecret(text: string, owner: OwnerIdentity): boolean {
  return text !== '' && secretCheck(Buffer.from(text, 'utf8'), owner).exit !== 0;
}

export function withholdSecret(text: string | undefined, owner: OwnerIdentity): string | undefined {
  return text !== undefined && containsSecret(text, owner) ? WITHHELD : text;
}

/**
 * Body text with every credential and personal value masked in place (mask-inline.ts);
 * the rest of each line, a table row or a command, stays as written.
 */
export function maskBody(body: string, owner: OwnerIdentity): { text: string; masked: number } {
  return maskValues(body, owner);
}
