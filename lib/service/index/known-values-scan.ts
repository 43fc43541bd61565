/**
 * The scan's second step of value propagation (docs/credentials.md, "Value propagation"):
 * after every file changed since the last scan is inspected, the set of known credential
 * values is made again from the index's credential_values rows (the values detectors found,
 * by salted hash), written to the data directory when it changed, and the files the change
 * concerns are inspected again:
 * - a value that left the set, or now names another memory: the files holding an occurrence
 *   of it (their own = 0 rows);
 * - a value that joined the set: the files whose stored text (name, description, masked
 *   body; the file itself when its body is longer than the index keeps) holds it as a token.
 * Known-value findings never add to the set, so one round settles it.
 */
import { FILE_ENTRY } from '../../../db/queries/entry-kind';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { FileSourceInfo } from '../../sources';
import type { OwnerIdentity } from '../../validators/types';
import { type KnownEntry, type KnownValues, holdsKnownValue, knownValuesOf } from '../../validators/known-values';
import { SET_FILE, loadKnownValues, saveKnownValues } from '../known-values-store';
import { BODY_INDEX_CHARS } from './inspect';

/** A row key `source:rel/path.md` as the memory id the pages show (`source:path.md`). */
export function idOfKey(key: string): string {
  const i = key.indexOf(':');
  return `${key.slice(0, i)}:${path.posix.basename(key.slice(i + 1))}`;
}

/** The set the index's rows make: per hash, the first memory (by key) holding it as a credential. */
export function setFromRows(sqlite: Database.Database): Map<string, KnownEntry> {
  const out = new Map<string, KnownEntry>();
  for (const r of sqlite
    .prepare(
      'SELECT hash, len, quick, min(key) AS key FROM credential_values WHERE own = 1 GROUP BY hash ORDER BY hash',
    )
    .iterate() as Iterable<{ hash: string; len: number; quick: number; key: string }>)
    out.set(r.hash, { len: r.len, quick: r.quick, id: idOfKey(r.key) });
  return out;
}

export interface PropagateResult {
  /** Hashes that joined, left or changed their memory. */
  changed: number;
  /** Files inspected again. */
  rechecked: number;
}

/**
 * `before`: the set the scan inspected with. `recheck(source, rels, owner)` inspects those
 * files of a root again under the new set; `recheckIndex(source, owner)` its index file.
 */
export function propagateKnownValues(
  sqlite: Database.Database,
  sources: readonly FileSourceInfo[],
  owner: OwnerIdentity,
  dir: string,
  recheck: (source: FileSourceInfo, rels: Set<string>, owner: OwnerIdentity) => void,
  recheckIndex: (source: FileSourceInfo, owner: OwnerIdentity) => void,
): PropagateResult {
  const before = owner.knownValues;
  const now = setFromRows(sqlite);
  const changed = new Set<string>();
  for (const [hash, e] of now) if (before?.entries.get(hash)?.id !== e.id) changed.add(hash);
  for (const hash of before?.entries.keys() ?? []) if (!now.has(hash)) changed.add(hash);
  if (changed.size === 0) {
    if (!fs.existsSync(path.join(dir, SET_FILE))) saveKnownValues(dir, now);
    return { changed: 0, rechecked: 0 };
  }
  saveKnownValues(dir, now);
  const after = loadKnownValues(dir);
  if (!after) return { changed: changed.size, rechecked: 0 };
  const next: OwnerIdentity = { ...owner, knownValues: after };

  const targets = new Map<string, Set<string>>(); // source id → rel paths
  const add = (source: string, key: string) => {
    const rels = targets.get(source) ?? new Set<string>();
    rels.add(key.slice(source.length + 1));
    targets.set(source, rels);
  };
  const hashes = JSON.stringify([...changed]);
  for (const r of sqlite
    .prepare(
      'SELECT DISTINCT key, source FROM credential_values WHERE own = 0 AND hash IN (SELECT value FROM json_each(?))',
    )
    .iterate(hashes) as Iterable<{ key: string; source: string }>)
    add(r.source, r.key);

  const joined = new Map<string, KnownEntry>();
  for (const hash of changed) {
    const e = now.get(hash);
    if (e && !before?.entries.has(hash)) joined.set(hash, e);
  }
  let storedClear = false;
  if (joined.size > 0) {
    const search: KnownValues = knownValuesOf(after.salt, joined);
    const roots = new Map(sources.map((s) => [s.id, s.root]));
    for (const r of sqlite
      .prepare(
        `SELECT key, source, rel_path AS rel, name, description, body FROM entries
          WHERE error IS NULL AND ${FILE_ENTRY}`,
      )
      .iterate() as Iterable<{
      key: string;
      source: string;
      rel: string;
      name: string | null;
      description: string | null;
      body: string | null;
    }>) {
      const root = roots.get(r.source);
      if (root === undefined) continue;
      let text = `${r.name ?? ''}\n${r.description ?? ''}\n${r.body ?? ''}`;
      // The index keeps the first BODY_INDEX_CHARS of a body: a longer file is read whole.
      if ((r.body?.length ?? 0) >= BODY_INDEX_CHARS) text = readText(path.join(root, r.rel)) ?? text;
      if (holdsKnownValue(text, search)) {
        add(r.source, r.key);
        storedClear = true;
      }
    }
  }
  let rechecked = 0;
  for (const source of sources) {
    const rels = targets.get(source.id);
    if (rels && rels.size > 0 && !source.error) {
      recheck(source, rels, next);
      rechecked += rels.size;
    } else if (source.adapter.files?.indexFile && !source.error) recheckIndex(source, next);
  }
  if (storedClear) forgetClearText(sqlite);
  return { changed: changed.size, rechecked };
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * A body stored before its value was known held the value until it was inspected again:
 * the full-text index keeps a deleted row's words in its segments until they are merged, and
 * the write-ahead log keeps the old pages until a checkpoint. Both are settled now (the
 * database deletes securely: db/client.ts).
 */
function forgetClearText(sqlite: Database.Database): void {
  sqlite.prepare("INSERT INTO entries_fts(entries_fts) VALUES ('optimize')").run();
  try {
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // A reader holds the log: the next checkpoint settles it.
  }
}
