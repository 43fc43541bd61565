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
 */
import type { Lifecycle } from './lifecycle';
import { STALE_AFTER_DAYS, type Location } from './tiers';

/** The two record flags (lib/sources/record.ts RECORD_FLAGS) the file layouts' rules produce. */
export type FileRecordFlag = 'stale' | 'conflict';

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
  return { native, flags, flagReasons };
}
