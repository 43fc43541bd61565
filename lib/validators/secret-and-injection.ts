/** Both content scanners on one file's bytes (pure, no I/O). */
import { secretCheck } from './secrets';
import { injectionCheck } from './injection';
import { scanTextOf } from './scan-text';
import { FILE_CAP_BYTES, type OwnerIdentity, type Verdict } from './types';

/**
 * The secret and the injection check on the same bytes, decoded once for both (each would
 * decode and index the lines again: docs/performance-validators.md, "Both scanners: fast paths"). The
 * verdicts are the ones the two checks give on their own.
 */
export function runSecretAndInjection(bytes: Buffer, owner: OwnerIdentity): { secret: Verdict; injection: Verdict } {
  // Over the cap neither check decodes: each reports the file as too large to scan.
  const scanned = bytes.length > FILE_CAP_BYTES ? undefined : scanTextOf(bytes);
  return { secret: secretCheck(bytes, owner, scanned), injection: injectionCheck(bytes, scanned) };
}
