/**
 * What a check's result depends on besides the bytes (docs/freshness.md): the rules and the
 * owner. A module of its own so that the SessionStart hook's cache of checks
 * (lib/service/session/check-cache.ts) keys by it without loading the scan.
 */
import { sha256Hex } from '../../core/hash';
import type { OwnerIdentity } from '../../validators/types';
import { SECRET_RULES_VERSION } from '../../validators/secrets';
import { LAYOUT_RULES_VERSION } from '../../validators/validation-rules';

/** What the findings depend on besides the bytes: the rules and the owner (allowances included). Hashed: no address is stored. */
export function rulesSignature(owner: OwnerIdentity): string {
  // The set of known values is not in it: a change of the set re-checks only the files it concerns (known-values-scan.ts).
  const { knownValues: _, ...rest } = owner;
  // In JavaScript (lib/core/hash.ts): the SessionStart hook needs no other hash, and loading
  // node:crypto would be about 7 ms of its start (docs/performance.md, "The hooks").
  return sha256Hex(JSON.stringify([SECRET_RULES_VERSION, LAYOUT_RULES_VERSION, rest])).slice(0, 32);
}

/** The rules' signature and the version of the set of known values: what a read of records or a kept plan depends on. */
export function readSignature(owner: OwnerIdentity): string {
  return `${rulesSignature(owner)}.${owner.knownValues?.digest ?? '-'}`;
}
