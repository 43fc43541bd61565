/**
 * The two kinds of row in the one index table, `entries` (migration 0016; docs/records.md,
 * "The index"): a memory file of a file layout (`is_record` 0), or a record of a record
 * layout (`is_record` 1). Code that
 * is about files only (the scan, backfill, versions, hooks, the overview's file counts)
 * says so with FILE_ENTRY; a list that covers every layout reads both kinds.
 */
export const FILE_ENTRY = 'is_record = 0';
export const RECORD_ENTRY = 'is_record = 1';
/** The `sources` rows of the file roots (a record root's row has its layout as kind). */
export const FILE_SOURCE = "kind IN ('trust-root', 'claude-code')";
