/**
 * MEMORY.md's versions (docs/versions.md, "Recover"): a recovered memory gets its index line
 * back only when MEMORY.md listed it at the time the memory was lost, so the scan keeps each
 * new MEMORY.md it reads in the root's pack, flagged as the index (not a memory), after the
 * scan's own versions and deletions (keeper.ts `keepIndex`): the pack's order then says which
 * MEMORY.md was in effect when a file went. Credential values are replaced as in any version
 * (redact.ts). The sha last kept is in the index's `meta` table: an unchanged MEMORY.md costs
 * one hash.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { OwnerIdentity } from '../../validators/types';
import type { NewVersion } from './version-store';
import { redactForVersion } from './redact';

const KEY = 'index-version:';

export interface IndexRead {
  file: string;
  bytes: Buffer;
  /** The secret check found a credential in it. */
  credential: boolean;
}

/** The version to keep of `read` (a root's MEMORY.md), or null when it is the one kept last; `kept` records it. */
export function newIndexVersion(
  sqlite: Database.Database,
  sourceId: string,
  owner: OwnerIdentity,
  read: IndexRead,
): { version: NewVersion; kept: () => void } | null {
  const sha = crypto.createHash('sha256').update(read.bytes).digest('hex');
  const key = `${KEY}${sourceId}`;
  const had = sqlite.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  if (had?.value === sha) return null;
  const { bytes: stored, replaced } = read.credential
    ? redactForVersion(read.bytes, owner)
    : { bytes: read.bytes, replaced: 0 };
  return {
    version: {
      id: `${sourceId}:${path.posix.basename(read.file)}`,
      rel: read.file,
      sha,
      size: read.bytes.length,
      stored,
      redacted: replaced,
      index: true,
    },
    kept: () => sqlite.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, sha),
  };
}
