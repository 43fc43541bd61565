/**
 * The origin in the index (docs/origin.md "In the index"): each Claude Code memory's row
 * carries the lookup's answer — `unknown`, or `known` and its flags (`untrusted-origin`,
 * `user-requested`) — so `list --json`, the review inbox, the tier tables and the overview
 * filter and count by them like any other column.
 *
 * A row is written with the session its frontmatter names (index-rows.ts) and no answer;
 * `fillOrigins` answers the rows still without one. With `read: false` (every scan, and the
 * dashboard's requests) only the transcript cache is used: a transcript not read yet leaves
 * its rows for later, and a scan never reads a big transcript on a request's path. With
 * `read: true` (the CLI; the dashboard's background reading, origin-reader.ts) the missing
 * transcripts are read first.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { SourceInfo } from '../../sources';
import type { OwnerIdentity } from '../../validators/types';
import { originIndexValue } from '../../trust/origin';
import { memoryOrigin, transcriptPath } from './origin';
import { batched } from './origin-cache';

export interface OriginFillStats {
  /** Rows answered now. */
  filled: number;
  /** Rows left without an answer: their transcript is not in the cache yet. */
  pending: number;
}

export interface PendingOrigin {
  key: string;
  source: SourceInfo;
  abs: string;
  filename: string;
  sessionId: string;
  reviewed: boolean;
}

/** The Claude Code rows without an answer yet (the partial index entries_origin_pending). */
export function pendingOrigins(sqlite: Database.Database, sources: readonly SourceInfo[]): PendingOrigin[] {
  const q = sqlite.prepare(
    `SELECT key, rel_path AS relPath, filename, origin_session AS session, origin_reviewed AS reviewed
       FROM entries INDEXED BY entries_origin_pending
      WHERE source = ? AND origin IS NULL AND origin_session IS NOT NULL`,
  );
  const out: PendingOrigin[] = [];
  for (const source of sources) {
    if (source.error || source.kind !== 'claude-code') continue;
    for (const r of q.all(source.id) as {
      key: string;
      relPath: string;
      filename: string;
      session: string;
      reviewed: string | null;
    }[])
      out.push({
        key: r.key,
        source,
        abs: path.join(source.root, ...r.relPath.split('/')),
        filename: r.filename,
        sessionId: r.session,
        reviewed: r.reviewed !== null,
      });
  }
  return out;
}

/** The transcripts the pending rows name that exist (each once). */
export function pendingTranscripts(pending: readonly PendingOrigin[]): string[] {
  const files = new Set<string>();
  for (const p of pending) {
    const t = transcriptPath(p.source.root, p.sessionId);
    if ('file' in t) files.add(t.file);
  }
  return [...files];
}

export function fillOrigins(
  sqlite: Database.Database,
  sources: readonly SourceInfo[],
  owner: OwnerIdentity,
  dataDir: string | null,
  /** `unreadable`: transcripts a background read failed on — their rows are `unknown`, not left waiting. */
  opts: { read: boolean; unreadable?: ReadonlySet<string> },
): OriginFillStats {
  const stats: OriginFillStats = { filled: 0, pending: 0 };
  const pending = pendingOrigins(sqlite, sources);
  if (pending.length === 0) return stats;
  const answers: [string, string | null, string][] = [];
  batched(dataDir, () => {
    for (const p of pending) {
      const o = memoryOrigin({
        root: p.source.root,
        abs: p.abs,
        filename: p.filename,
        sessionId: p.sessionId,
        owner,
        dataDir,
        cacheOnly: !opts.read,
      });
      if (o.status === 'unknown' && o.reading && !(o.transcript && opts.unreadable?.has(o.transcript))) {
        stats.pending++;
        continue;
      }
      const v = originIndexValue(
        o.status === 'known' ? { untrustedOrigin: o.untrustedOrigin, userRequested: o.userRequested } : null,
        p.reviewed,
      );
      answers.push([v.origin, v.reason, p.key]);
    }
  });
  if (answers.length) {
    const set = sqlite.prepare('UPDATE entries SET origin = ?, origin_reason = ? WHERE key = ?');
    sqlite.transaction(() => {
      for (const a of answers) set.run(...a);
    })();
  }
  stats.filled = answers.length;
  return stats;
}
