/**
 * A memory of the two file layouts (trust-root, claude-code) as the one record every
 * layout produces (docs/records.md, "File layouts"): the `native` state and the `flags`
 * that `list --json` and `show --json` carry for every layout alike.
 *
 * - native: the folder and the `trust-level` exactly as written (`memories/inferred`,
 *   `quarantine/quarantined`, `memories/none` when the key is absent). The folder is part
 *   of the state here because the directory decides the tier (docs/trust-model.md).
 * - flags: `stale` (a verified memory past the re-affirm window, or never verified) and
 *   `conflict` (the same file name in memories/ and quarantine/ at once), each with the
 *   sentence that explains it. The other flags belong to layouts whose rules produce them.
 * - and, for a Claude Code memory, its origin's flags as the index keeps them
 *   (docs/origin.md "In the index"): `untrusted-origin` with what the writing turn read,
 *   `user-requested`. A memory whose origin is unknown, or not looked up yet, has neither.
 */
import type { Lifecycle } from './lifecycle';
import { STALE_AFTER_DAYS, type Location } from './tiers';
import { indexedOriginFlags, UNTRUSTED_ORIGIN, type USER_REQUESTED } from './origin';

/** The record flags (lib/sources/record.ts RECORD_FLAGS) the file layouts' rules produce, and the origin's (lib/trust/origin.ts). */
export type FileRecordFlag = 'stale' | 'conflict' | typeof UNTRUSTED_ORIGIN | typeof USER_REQUESTED;

export interface FileRecordState {
  native: string;
  flags: FileRecordFlag[];
  flagReasons: Partial<Record<FileRecordFlag, string>>;
}

export function fileRecordState(input: {
  location: Location;
  /** The raw `trust-level` value; null or undefined when the key is absent. */
  trustLevel: string | null | undefined;
  conflict: boolean;
  lifecycle: Lifecycle;
  /** The index's `origin` value (lib/trust/origin.ts `originIndexValue`) and what the turn read; absent: none. */
  origin?: string | null;
  originReason?: string | null;
}): FileRecordState {
  const written = input.trustLevel?.trim();
  const native = `${input.location}/${written ? written : 'none'}`;
  const flags: FileRecordFlag[] = [];
  const flagReasons: Partial<Record<FileRecordFlag, string>> = {};
  const v = input.lifecycle.verification;
  if (v?.stale) {
    flags.push('stale');
    flagReasons.stale =
      v.daysSince === null
        ? 'verified but never re-affirmed (no last-verified)'
        : `last verified ${v.daysSince} days ago (stale after ${STALE_AFTER_DAYS})`;
  }
  if (input.conflict) {
    flags.push('conflict');
    flagReasons.conflict = 'the same file name is in memories/ and in quarantine/';
  }
  for (const f of indexedOriginFlags(input.origin ?? null)) {
    flags.push(f as FileRecordFlag);
    flagReasons[f as FileRecordFlag] =
      f === UNTRUSTED_ORIGIN
        ? `the turn that wrote it read outside content first${input.originReason ? `: ${input.originReason}` : ''}`
        : "the user's own message asked for it";
  }
  return { native, flags, flagReasons };
}
