/**
 * Keeping secrets out of the index, the audit trail and the pages (CONTRACT §2.2):
 * free text that the secret check flags is withheld whole, and the lines of a body
 * that hold a finding are replaced before the body is stored or shown.
 */
import { secretCheck } from './secrets';
import type { Finding, OwnerIdentity } from './types';

export const WITHHELD = '(withheld: contains a secret-like value)';

export function containsSecret(text: string, owner: OwnerIdentity): boolean {
  return text !== '' && secretCheck(Buffer.from(text, 'utf8'), owner).exit !== 0;
}

export function withholdSecret(text: string | undefined, owner: OwnerIdentity): string | undefined {
  return text !== undefined && containsSecret(text, owner) ? WITHHELD : text;
}

/**
 * Body text with every line that carries a secret finding replaced.
 * `firstBodyLine` is the file line number of the body's first line.
 */
export function redactBodyLines(body: string, findings: Finding[], firstBodyLine: number): { text: string; redacted: number } {
  const secret = findings.filter((f) => f.check === 'secret' && f.line !== undefined);
  const lines = new Set(secret.map((f) => f.line! - firstBodyLine));
  if (lines.size === 0) return { text: body, redacted: 0 };
  const parts = body.split('\n');
  // A private key's finding sits on its BEGIN line; the key material runs to the END line.
  for (const f of secret.filter((x) => x.code === 'secret.private-key')) {
    for (let i = f.line! - firstBodyLine + 1; i >= 0 && i < parts.length; i++) {
      lines.add(i);
      if (parts[i]!.includes('-----END')) break;
    }
  }
  let redacted = 0;
  for (const i of lines) {
    if (i >= 0 && i < parts.length) {
      parts[i] = '[line withheld: it contains a secret-like value — see the validator findings]';
      redacted++;
    }
  }
  return { text: parts.join('\n'), redacted };
}
