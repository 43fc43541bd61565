/**
 * MEMORY.md is loaded into every Claude Code session, so it is checked like a memory's
 * text: secret-check and injection-check, each finding on its line (masked), plus the
 * index lines that name a file the folder does not hold. memtrust never demotes or moves
 * the index; it shows the findings on the root's section (docs/claude-code-folders.md).
 */
import { splitHints } from '../../validators/hints';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { SourceInfo } from '../../sources';
import type { OwnerIdentity } from '../../validators/types';
import { FILE_CAP_BYTES, findingClass } from '../../validators/types';
import { runSecretAndInjection } from '../../validators/secret-and-injection';
import { INDEX_STATUS_PREFIX, indexStatus, linkedFile, type IndexStatus } from './claude-index';
import { credentialValuesOf } from '../index/inspect';

export interface IndexFinding {
  file: string;
  check: 'secret' | 'injection' | 'index';
  code: string;
  label: string;
  class?: string | null;
  line?: number | null;
  message: string;
}

/** Checks one index file's bytes; `exists` says whether a linked file is in the folder. */
export function checkIndexFile(
  file: string,
  bytes: Buffer,
  owner: OwnerIdentity,
  exists: (name: string) => boolean,
): IndexFinding[] {
  if (bytes.length > FILE_CAP_BYTES)
    return [
      {
        file,
        check: 'index',
        code: 'file-too-large',
        label: 'NOT-SCANNED',
        message: `file too large (${bytes.length} bytes, limit 1 MiB): not scanned`,
      },
    ];
  const out: IndexFinding[] = [];
  const { secret, injection } = runSecretAndInjection(bytes, owner);
  for (const f of secret.findings)
    out.push({
      file,
      check: 'secret',
      code: f.code,
      label: f.label,
      class: f.class ?? findingClass(f.code),
      line: f.line,
      message: f.message,
    });
  // The always/never density is a hint on a memory and nothing on an index (docs/validators.md "Hints").
  for (const f of splitHints(injection).injection.findings)
    out.push({ file, check: 'injection', code: f.code, label: f.label, line: f.line, message: f.message });
  const lines = bytes.toString('utf8').split('\n');
  lines.forEach((l, i) => {
    const name = linkedFile(l);
    if (name && !exists(name))
      out.push({
        file,
        check: 'index',
        code: 'index.missing-file',
        label: 'MISSING',
        line: i + 1,
        message: `names ${name}, which is not in the folder`,
      });
  });
  return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

function readIndex(source: SourceInfo): { file: string; bytes: Buffer } | null {
  const file = source.adapter.files?.indexFile;
  if (!file || source.error) return null;
  try {
    return { file, bytes: fs.readFileSync(path.join(source.root, file)) };
  } catch {
    return null;
  }
}

function checkRead(source: SourceInfo, read: { file: string; bytes: Buffer }, owner: OwnerIdentity): IndexFinding[] {
  const has = (name: string) => name !== read.file && fs.existsSync(path.join(source.root, name));
  return checkIndexFile(read.file, read.bytes, owner, has);
}

/** Live check of a source's index file (read-only commands use this; nothing is stored). */
export function checkSourceIndex(source: SourceInfo, owner: OwnerIdentity): IndexFinding[] | null {
  const read = readIndex(source);
  return read ? checkRead(source, read, owner) : null;
}

/**
 * Re-checks and stores a source's index findings (called by the scan), and the salted hashes
 * of the credential values its lines hold, under the key `source:MEMORY.md`: a value found
 * there is known everywhere (docs/credentials.md, "Value propagation").
 */
export function storeIndexFindings(
  sqlite: Database.Database,
  source: SourceInfo,
  owner: OwnerIdentity,
): { file: string; bytes: Buffer; credential: boolean } | null {
  const read = readIndex(source);
  const found = read ? checkRead(source, read, owner) : [];
  const credential = found.some((f) => f.class === 'credential');
  const values = read && credential ? credentialValuesOf(read.bytes, owner) : [];
  const ins = sqlite.prepare(
    'INSERT INTO index_findings (source, file, "check", code, label, class, line, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insValue = sqlite.prepare(
    'INSERT INTO credential_values (key, source, hash, len, quick, own) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const key = `${source.id}:${source.adapter.files?.indexFile ?? ''}`;
  sqlite.transaction(() => {
    sqlite.prepare('DELETE FROM index_findings WHERE source = ?').run(source.id);
    for (const f of found)
      ins.run(source.id, f.file, f.check, f.code, f.label, f.class ?? null, f.line ?? null, f.message);
    sqlite.prepare('DELETE FROM credential_values WHERE key = ?').run(key);
    for (const v of values) insValue.run(key, source.id, ...v);
  })();
  return read ? { ...read, credential } : null;
}

/** Stored index findings of the given sources, by source id. */
export function indexFindingsBySource(sqlite: Database.Database, sourceIds: string[]): Map<string, IndexFinding[]> {
  const out = new Map<string, IndexFinding[]>();
  if (sourceIds.length === 0) return out;
  const rows = sqlite
    .prepare(
      `SELECT source, file, "check" AS "check", code, label, class, line, message FROM index_findings WHERE source IN (SELECT value FROM json_each(?)) ORDER BY source, line`,
    )
    .all(JSON.stringify(sourceIds)) as (IndexFinding & { source: string })[];
  for (const { source, ...f } of rows) out.set(source, [...(out.get(source) ?? []), f]);
  return out;
}

/**
 * MEMORY.md's lines, bytes and cut of each given root as the last scan read them
 * (claude-index.ts `markIndexed`), by source id; a root the index has none for (an index from
 * before they were stored) is read from the disk. The overview shows it for the roots it
 * lists and ranks every root by it: a Claude Code home of 200 projects is 220 files read in
 * the first page otherwise (docs/performance-pages.md, "The first page after a start").
 */
export function indexStatusBySource(
  sqlite: Database.Database,
  sources: readonly SourceInfo[],
): Map<string, IndexStatus | null> {
  const stored = new Map(
    (
      sqlite
        .prepare('SELECT key, value FROM meta WHERE key >= ? AND key < ?')
        .all(INDEX_STATUS_PREFIX, 'index-status;') as {
        key: string;
        value: string;
      }[]
    ).map((r) => [r.key.slice(INDEX_STATUS_PREFIX.length), r.value]),
  );
  const out = new Map<string, IndexStatus | null>();
  for (const s of sources) {
    const file = s.adapter.files?.indexFile;
    if (!file || s.error) continue;
    const value = stored.get(s.id);
    out.set(s.id, value === undefined ? indexStatus(s.root, file) : (JSON.parse(value) as IndexStatus | null));
  }
  return out;
}
