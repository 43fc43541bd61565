/**
 * The scan's hook into the version store (docs/versions.md): a file whose bytes changed
 * since its row (or that had none) is kept as a version; a file gone is recorded gone; and
 * a change no memtrust event accounts for becomes an `outside` audit event. The scan calls
 * `keep` with each batch before its rows are written (the rows still hold the prior hashes)
 * and `done` with the files gone before their rows are dropped.
 */
import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ListedFile, SourceInfo } from '../../sources';
import type { OwnerIdentity } from '../../validators/types';
import { machineName, parseNow } from '../../core/config';
import type { PreparedRow } from '../index/index-rows';
import { type NewVersion, VersionStore, versionsDirFor, versionsOn } from './version-store';
import { redactForVersion } from './redact';
import { type OutsideChange, recordOutside } from './outside';
import { pruneOnScan } from './prune';
import { type IndexRead, newIndexVersion } from './index-keep';

/** Columns of PreparedRow.values (index-rows.ts prepareRow). */
const TIER_COLUMN = 6;
const SHA_COLUMN = 22;

export interface KeeperItem {
  f: ListedFile & { isNew: boolean };
  result: object;
}

export interface VersionKeeper {
  keep(batch: KeeperItem[]): void;
  /** Records the files gone (after the last `keep`). */
  done(gone: Iterable<string>): void;
  /** Keeps the root's MEMORY.md as the scan read it, after `done` (index-keep.ts). */
  keepIndex(read: IndexRead | null): void;
  /** Makes the scan's versions durable, records its outside changes; returns how many. */
  close(): number;
}

/** The keeper of one root's scan, or null when versions are off or the index is in memory. */
export function openVersionKeeper(
  sqlite: Database.Database,
  source: SourceInfo,
  owner: OwnerIdentity,
  machine?: string,
  scanNow?: Date,
): VersionKeeper | null {
  const dir = versionsDirFor(sqlite);
  if (!dir || !versionsOn()) return null;
  const store = new VersionStore(dir);
  const now = scanNow ?? parseNow(process.env.MEMTRUST_NOW)();
  const at = `${now.toISOString().slice(0, 19)}Z`;
  // What a file was is the version store's word, not the index's (a cache that may have been
  // deleted): a root the store never saw is a first index, not a change anyone made.
  const first = !sqlite.prepare('SELECT 1 FROM entries WHERE source = ? LIMIT 1').get(source.id);
  let known: ReadonlyMap<string, string | null> | null = null;
  /** Whether the store knew this root before this scan kept anything (set on the first look). */
  let rootSeen = false;
  const knownOf = () => {
    if (!known) {
      known = store.currentOf(source.root);
      rootSeen = known.size > 0;
    }
    return known;
  };
  const prior = sqlite.prepare('SELECT sha256, tier, filename, error FROM entries WHERE key = ?');
  const total = first
    ? 0
    : (sqlite.prepare('SELECT count(*) AS n FROM entries WHERE source = ?').get(source.id) as { n: number }).n;
  const changes: OutsideChange[] = [];
  type Prior = { sha256: string | null; tier: string | null; filename: string; error: string | null } | undefined;
  return {
    keep(batch) {
      const versions: NewVersion[] = [];
      for (const { f, result } of batch) {
        // Unchanged bytes, unreadable, or gone since the listing: no version.
        if (!('row' in result) || !('bytes' in result) || !result.bytes) continue;
        const u8 = result.bytes as Uint8Array;
        // From a worker the bytes arrive as a plain Uint8Array: a view, not a copy.
        const bytes = Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
        const row = (result as { row: PreparedRow }).row;
        // The scan hashed these bytes already (the row's sha256 column): not hashed again.
        const sha = row.values[SHA_COLUMN] as string;
        const was = f.isNew ? undefined : (prior.get(`${source.id}:${f.relPath}`) as Prior);
        if (was?.sha256 === sha) continue; // re-inspected (new rules), same bytes
        // The secret check already ran on these bytes (the row's findings): a file it found no
        // credential in (nothing, or personal data only) is stored as it is, without running
        // the detectors a second time. Finding values: [key, check, code, label, line, message, class].
        const { bytes: stored, replaced } = row.findings.some((x) => x[1] === 'secret' && x[6] !== 'personal')
          ? redactForVersion(bytes, owner)
          : { bytes, replaced: 0 };
        const id = `${source.id}:${f.filename}`;
        // What the file was: its row's bytes, else (no row: a new file, a rebuilt index) the
        // store's last version, read before put() below records this one. Not the store's
        // when there is a row: a hook may have kept these bytes already (SessionStart reads
        // files), and a change another program made is still that program's.
        const before = was ? (was.sha256 ?? undefined) : knownOf().get(f.relPath);
        versions.push({ id, rel: f.relPath, sha, size: bytes.length, stored, redacted: replaced });
        if (before === sha) continue; // the store has these bytes already (a rebuilt index)
        if (before === undefined) {
          knownOf(); // sets rootSeen
          if (!rootSeen) continue; // a root the store never saw: its first index, no event
        }
        const tier = (row.values[TIER_COLUMN] as string | null) ?? null;
        changes.push({
          kind: before ? 'rewritten' : 'added',
          id,
          rel: f.relPath,
          filename: f.filename,
          before: before ?? null,
          after: sha,
          fromTier: was?.tier ?? null,
          toTier: tier,
          afterText: stored.toString('utf8'),
        });
      }
      // A root with rows: they say what each file was, so the pack is not read whole first
      // (the same bytes at another path are stored again; compaction keeps them once).
      store.put(source.root, at, versions, { blind: !first });
    },
    done(goneRels) {
      const gone: { id: string; rel: string }[] = [];
      for (const rel of goneRels) {
        const was = prior.get(`${source.id}:${rel}`) as Prior;
        if (!was) continue;
        const id = `${source.id}:${was.filename}`;
        gone.push({ id, rel });
        if (!was.error)
          changes.push({
            kind: 'deleted',
            id,
            rel,
            filename: was.filename,
            before: was.sha256,
            after: null,
            fromTier: was.tier,
            toTier: null,
            afterText: null,
          });
      }
      store.markGone(source.root, at, gone);
    },
    keepIndex(read) {
      const next = read ? newIndexVersion(sqlite, source.id, owner, read) : null;
      if (!next) return;
      store.put(source.root, at, [next.version], { blind: true });
      next.kept();
    },
    close() {
      // One fsync for the scan's chunks: a version is a safety net written before its row,
      // durable by the time the scan ends.
      store.flush();
      const events =
        changes.length > 0
          ? recordOutside(sqlite, store, source, changes, {
              at,
              machine: machine ?? machineName(process.env),
              batch: crypto.randomUUID(),
              rootFiles: total,
            }).length
          : 0;
      pruneOnScan(sqlite, store, now);
      return events;
    },
  };
}
