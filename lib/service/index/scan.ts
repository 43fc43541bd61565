/**
 * `memtrust scan`: full on first run, then incremental — a file whose size and
 * mtime match its row is skipped; anything else is re-read, hashed and
 * re-validated; rows of deleted files are dropped; audit files are mirrored.
 */
import { FILE_ENTRY, FILE_SOURCE } from '../../../db/queries/entry-kind';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { FileSourceInfo, SourceInfo, ListedFile } from '../../sources';
import { STAT_LATER, withNamesOnly, withStatLater } from '../../sources/list-dir';
import type { OwnerIdentity } from '../../validators/types';
import { markConflictFor, markConflicts, rowWriter } from './index-rows';
import { mirrorAudit } from '../audit/audit-mirror';
import { storeIndexFindings } from '../claude/index-file-scan';
import { indexStampKey, refreshIndexFile } from '../claude/index-file-stamp';
import { committedListing } from '../write/recover';
import { pendingIntents } from '../write/journal';
import { rulesSignature } from './rules-signature';
import { restoreIndexes, withBulkLoad } from './bulk-load';
import { readPrepared, type PreparedResult } from './read-one';
import { openInspectPool, type PoolFileResult } from './inspect-pool';
import { openKnownValues } from '../known-values-store';
import { propagateKnownValues } from './known-values-scan';
import { openVersionKeeper } from '../versions/keeper';
import { runSteps, type Steps } from './steps';

export { SCAN_READ_CAP, openListedLater } from './read-one';

const RULES_KEY = 'secret_rules';

export { readSignature, rulesSignature } from './rules-signature';

export interface ScanStats {
  sources: number;
  files: number;
  read: number;
  removed: number;
  /** Audit events added to the index, the outside ones included. */
  events: number;
  /** Changes made outside memtrust recorded as audit events (docs/versions.md, "Changes made outside memtrust"). */
  outside?: number;
  errors: string[];
  /** The file roots were taken as indexed, on a watcher's word (docs/freshness.md). */
  vouched?: boolean;
  /** Files taken from the watcher's last listing without an lstat (docs/freshness.md, "Targeted rescans"). */
  reused?: number;
  /** Files compared with their rows one by one instead of reading every row (same section). */
  compared?: number;
  /** Worker threads that read and inspected files beside the main thread (docs/performance.md, "Both cores"). */
  workers?: number;
  /** Files inspected again because the set of known credential values changed (docs/credentials.md, "Value propagation"). */
  propagated?: number;
  /** Rows whose origin was answered after the scan, and rows still waiting for their transcript (docs/origin.md "In the index"). */
  originRows?: { filled: number; pending: number };
}

export interface ScanOptions {
  onProgress?: (done: number, total: number) => void;
  /** Each memory file read anew because its bytes changed (or it is new): the undo copies are checked after (copy-purge.ts). */
  onRewritten?: (sourceId: string, filename: string) => void;
  /** This machine: its unfinished operations are shown as last committed (docs/crash-safety.md, "Readers"). */
  machine?: string;
  /** The scan's time (the context's `now`): when outside changes are recorded (docs/versions.md). */
  now?: Date;
  /** Record roots: their records are read by their adapter, but their audit files are mirrored here too (docs/records.md, "History and reports"). */
  recordSources?: SourceInfo[];
  /** A live watcher of these roots saw no change since its last scan (docs/freshness.md): the file roots are not listed. */
  vouched?: boolean;
  /** Per file root: what the watcher saw since the listing it kept (docs/freshness.md, "Targeted rescans"). */
  watched?: ReadonlyMap<string, WatchedRoot>;
  /** Each file root's listing as its adapter returned it (the watcher keeps it for its next scan). */
  onListed?: (sourceId: string, listed: ListedFile[]) => void;
  /**
   * A watched root's files named by events (`named`, relative paths) and what they are now
   * (`relisted`: the ones still listed): the rest of the watcher's listing stands.
   */
  onRelisted?: (sourceId: string, named: ReadonlySet<string>, relisted: ListedFile[]) => void;
  /**
   * Worker threads that read and inspect when a root has at least `poolMinFiles` files to
   * read (inspect-pool.ts; docs/performance.md, "Both cores"). None by default: the CLI
   * passes `defaultWorkers()`; the dashboard indexes a large root through the CLI.
   */
  workers?: number;
  /** Fewest files to read for the pool to start (default POOL_MIN_FILES; tests set it low). */
  poolMinFiles?: number;
  /** False: the main thread only waits, so the workers read every file (tests; inspect-pool.ts). */
  poolMainHelps?: boolean;
  /**
   * The data directory holding the salt and the set of known credential values
   * (lib/service/known-values-store.ts; docs/credentials.md, "Value propagation"). Without it the
   * scan finds the values the owner identity carries but keeps no set.
   */
  knownValuesDir?: string;
}

/** Below this many files to read, a worker saves less than it costs to start (bench/index-workers.ts: even at 25,000, 21 % faster at 100,000). */
export const POOL_MIN_FILES = 20_000;

/**
 * A file root as the index's watcher saw it since its last scan: that scan's listing, and
 * the files events named since. Only the named files are looked at; the rest of the listing
 * stands. `rowsCurrent`: no other connection wrote the index since that scan, so the rows of
 * the files no event named are still that listing's, and only the named files are compared
 * with their rows.
 */
export interface WatchedRoot {
  last: ReadonlyMap<string, ListedFile>;
  named: ReadonlySet<string>;
  rowsCurrent: boolean;
}

/** Past this many files to compare, the rows are read in one pass and the conflicts marked over the whole root. */
const TARGETED_MAX = 1000;

const BATCH = 1000;
const FTS_DEFER_MIN = 2000;
const FTS_FLAG = 'fts_deferred';

/** Triggers skip the FTS index while this flag exists (migration 0005). */
function deferFts(sqlite: Database.Database): void {
  sqlite.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(FTS_FLAG, String(process.pid));
}

/** Rebuild from the content table and re-enable the triggers, atomically. */
function rebuildFts(sqlite: Database.Database): void {
  sqlite
    .transaction(() => {
      sqlite.prepare("INSERT INTO entries_fts(entries_fts) VALUES ('rebuild')").run();
      sqlite.prepare('DELETE FROM meta WHERE key = ?').run(FTS_FLAG);
    })
    .immediate();
}

export function scanSources(
  sqlite: Database.Database,
  sources: FileSourceInfo[],
  given: OwnerIdentity,
  now: Date,
  givenOpts: ScanOptions = {},
): ScanStats {
  return runSteps(scanSourcesSteps(sqlite, sources, given, now, givenOpts));
}

/**
 * The scan, one step per root: it pauses after each root (`yield`), so the dashboard's first
 * scan lets the server answer requests between roots (lib/server/first-scan.ts; docs/freshness.md,
 * "The dashboard's first scan"). Each root's own work is never cut.
 */
export function* scanSourcesSteps(
  sqlite: Database.Database,
  sources: FileSourceInfo[],
  given: OwnerIdentity,
  now: Date,
  givenOpts: ScanOptions = {},
): Steps<ScanStats> {
  // The scan's time reaches the version keeper: outside events carry it (MEMTRUST_NOW in tests).
  const opts: ScanOptions = { ...givenOpts, now: givenOpts.now ?? now };
  // The scan inspects with the set as it is on disk now, a salt made if there was none.
  const dir = opts.knownValuesDir;
  const owner: OwnerIdentity = dir ? { ...given, knownValues: openKnownValues(dir) } : given;
  const stats: ScanStats = { sources: sources.length, files: 0, read: 0, removed: 0, events: 0, errors: [] };
  const sourceRow = sqlite.prepare('SELECT root, kind, label, error FROM sources WHERE id = ?');
  const insertSource = sqlite.prepare(
    'INSERT OR REPLACE INTO sources (id, root, kind, label, scanned_at, error) VALUES (?, ?, ?, ?, ?, ?)',
  );
  // A root's row is written when it changes, not at every scan: at 220 roots the per-root
  // writes of an unchanged rescan were most of its time (docs/performance.md, "A home of 200
  // projects"); `scanned_at` is when the row last changed.
  const upsertSource = (id: string, root: string, kind: string, label: string, at: number, error: string | null) => {
    const r = sourceRow.get(id) as { root: string; kind: string; label: string; error: string | null } | undefined;
    if (r && r.root === root && r.kind === kind && r.label === label && r.error === error) return;
    insertSource.run(id, root, kind, label, at, error);
  };
  // A scan that died while full-text indexing was deferred left the flag: finish its job.
  if (sqlite.prepare('SELECT 1 FROM meta WHERE key = ?').get(FTS_FLAG)) rebuildFts(sqlite);
  restoreIndexes(sqlite);
  // Rows of roots no longer configured are dropped: the cache mirrors the current configuration.
  // Checked on the small sources table first, so a normal rescan never scans memories for it.
  const ids = sources.map((s) => s.id);
  // File roots only: a record root's row and entries are its reader's (lib/service/records/read.ts).
  const known = (sqlite.prepare(`SELECT id FROM sources WHERE ${FILE_SOURCE}`).all() as { id: string }[]).map(
    (r) => r.id,
  );
  if (known.some((id) => !ids.includes(id))) {
    sqlite.transaction(() => {
      const placeholders = ids.map(() => '?').join(',') || "''";
      sqlite
        .prepare(
          `DELETE FROM findings WHERE key IN (SELECT key FROM entries WHERE ${FILE_ENTRY} AND source NOT IN (${placeholders}))`,
        )
        .run(...ids);
      sqlite.prepare(`DELETE FROM entries WHERE ${FILE_ENTRY} AND source NOT IN (${placeholders})`).run(...ids);
      sqlite.prepare(`DELETE FROM sources WHERE ${FILE_SOURCE} AND id NOT IN (${placeholders})`).run(...ids);
      sqlite.prepare(`DELETE FROM index_findings WHERE source NOT IN (${placeholders})`).run(...ids);
      sqlite.prepare(`DELETE FROM credential_values WHERE source NOT IN (${placeholders})`).run(...ids);
      const stamp = sqlite.prepare('DELETE FROM meta WHERE key = ?');
      for (const id of known) if (!ids.includes(id)) stamp.run(indexStampKey(id));
    })();
  }
  // Rules or owner changed since the index was built: every file is inspected again (sizes and mtimes say nothing).
  const signature = rulesSignature(owner);
  const stored = sqlite.prepare('SELECT value FROM meta WHERE key = ?').get(RULES_KEY) as { value: string } | undefined;
  const force = stored?.value !== signature;
  // The watcher scanned under its own owner and rules: only a matching index is taken as it is.
  const skipFiles = opts.vouched === true && !force;
  if (skipFiles) stats.vouched = true;
  for (const source of skipFiles ? [] : sources) {
    if (source.error) {
      stats.errors.push(`${source.root}: ${source.error}`);
      upsertSource(source.id, source.root, source.kind, source.label, now.getTime(), source.error);
      continue;
    }
    // The audit mirror runs while the workers inspect, when there are workers; else after.
    let events = -1;
    scanOne(sqlite, source, owner, stats, opts, force, (tick) => {
      events = mirrorAudit(sqlite, source.id, source.root, tick);
    });
    stats.events += events >= 0 ? events : mirrorAudit(sqlite, source.id, source.root);
    upsertSource(source.id, source.root, source.kind, source.label, now.getTime(), null);
    yield;
  }
  if (dir && !skipFiles) {
    const recheck = { ...opts, workers: 0, onProgress: undefined, onListed: undefined, onRelisted: undefined };
    const done = propagateKnownValues(
      sqlite,
      sources,
      owner,
      dir,
      (source, rels, next) => {
        const listed = withNamesOnly(namesByDir(rels), () => source.adapter.files.list(source.root));
        const quiet: ScanStats = { sources: 0, files: 0, read: 0, removed: 0, events: 0, errors: [] };
        compareAndLoad(sqlite, source, next, quiet, recheck, true, listed, rels);
      },
      (source, next) => storeIndexFindings(sqlite, source, next),
    );
    if (done.rechecked > 0) stats.propagated = done.rechecked;
  }
  for (const source of opts.recordSources ?? [])
    if (!source.error) stats.events += mirrorAudit(sqlite, source.id, source.root);
  if (!skipFiles)
    sqlite.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('last_scan', ?)").run(String(now.getTime()));
  if (force) sqlite.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(RULES_KEY, signature);
  return stats;
}

function scanOne(
  sqlite: Database.Database,
  source: FileSourceInfo,
  owner: OwnerIdentity,
  stats: ScanStats,
  opts: ScanOptions,
  force: boolean,
  meanwhile: (tick: () => void) => void,
): void {
  const seen = opts.watched?.get(source.id);
  // A root with no row yet is read whole: its files are listed without an lstat and each
  // takes its size and mtime from the open file (docs/performance.md, "A first index stats
  // each file once").
  const later = !seen && !sqlite.prepare('SELECT 1 FROM entries WHERE source = ? LIMIT 1').get(source.id);
  const list = () => source.adapter.files.list(source.root);
  // The watcher's events named every file that changed, came or went since its listing: only
  // those names are looked at, no folder is read (docs/freshness.md, "Targeted rescans"). A
  // transition in flight shows a file where it was, which only a whole listing can do.
  if (seen && !(opts.machine && pendingIntents(source.root, opts.machine).length > 0)) {
    // Rows written by another connection, or new rules: every row is compared, with the whole listing.
    const targeted = seen.rowsCurrent && !force && seen.named.size <= TARGETED_MAX;
    const named = targeted ? seen.named : withDisagreements(sqlite, source.id, seen);
    const relisted = withNamesOnly(namesByDir(named), list);
    const listed = targeted ? relisted : keptListing(seen.last, named, relisted);
    let gone = 0;
    for (const rel of named) if (seen.last.has(rel)) gone++;
    stats.reused = (stats.reused ?? 0) + seen.last.size - gone;
    stats.files += seen.last.size - gone + relisted.length;
    opts.onRelisted?.(source.id, named, relisted); // the watcher may patch `seen.last` now
    // The named files are the only ones that can differ from their rows.
    const compare = targeted ? new Set(named) : null;
    if (compare) stats.compared = (stats.compared ?? 0) + compare.size;
    compareAndLoad(sqlite, source, owner, stats, opts, force, listed, compare);
    return;
  }
  const raw = later ? withStatLater(list) : list();
  if (!later) opts.onListed?.(source.id, raw);
  const listed = opts.machine ? committedListing(source.root, opts.machine, raw) : raw;
  stats.files += listed.length;
  compareAndLoad(sqlite, source, owner, stats, opts, force, listed, null, later ? raw : null, meanwhile);
}

/** A listed file to read, and whether it had no row. */
type Changed = ListedFile & { isNew: boolean };

/** Each folder's named files (paths relative to the root), for withNamesOnly. */
function namesByDir(named: ReadonlySet<string>): (relDir: string) => string[] {
  const byDir = new Map<string, string[]>();
  for (const rel of named) {
    const cut = rel.lastIndexOf('/');
    const dir = cut < 0 ? '' : rel.slice(0, cut);
    const names = byDir.get(dir) ?? [];
    names.push(rel.slice(cut + 1));
    byDir.set(dir, names);
  }
  return (relDir) => byDir.get(relDir) ?? [];
}

/** The whole listing now: the kept one without the named files, then what the named files are now. */
function keptListing(
  last: ReadonlyMap<string, ListedFile>,
  named: ReadonlySet<string>,
  relisted: ListedFile[],
): ListedFile[] {
  const out: ListedFile[] = [];
  for (const [rel, f] of last) if (!named.has(rel)) out.push(f);
  for (const f of relisted) out.push(f);
  return out;
}

/**
 * The named files, and every file where the kept listing and the rows disagree (docs/freshness.md,
 * "Targeted rescans"). The kept listing is current only up to the events this process has
 * read: a change whose event still waits in the queue (the keeper busy, or short of CPU) is
 * not in it, while another process's scan may have written its row from the disk as it is
 * now. Taken as it is, the kept listing would write back the old size and mtime, an error
 * row for a file deleted since, and remove the row of a file added since. Where they
 * disagree, an lstat now decides.
 */
function withDisagreements(sqlite: Database.Database, sourceId: string, seen: WatchedRoot): Set<string> {
  const names = new Set(seen.named);
  const rowed = new Set<string>();
  for (const r of sqlite
    .prepare('SELECT rel_path AS p, size, mtime_ms AS m FROM entries WHERE source = ?')
    .iterate(sourceId) as Iterable<{ p: string; size: number; m: number }>) {
    rowed.add(r.p);
    const f = seen.last.get(r.p);
    if (!f || f.size !== r.size || f.mtimeMs !== r.m) names.add(r.p);
  }
  for (const rel of seen.last.keys()) if (!rowed.has(rel)) names.add(rel);
  return names;
}

/**
 * Compares the listed files with their rows (all of them, or only `compare`'s), reads and
 * writes the ones that changed, drops the rows of the files gone, marks conflicts.
 * `statLaterRaw`: a first index's listing, handed to the watcher once the reads filled in
 * each file's size and mtime. `meanwhile`: work for the main thread while workers inspect
 * (not called when there are none).
 */
function compareAndLoad(
  sqlite: Database.Database,
  source: FileSourceInfo,
  owner: OwnerIdentity,
  stats: ScanStats,
  opts: ScanOptions,
  force: boolean,
  listed: ListedFile[],
  compare: Set<string> | null,
  statLaterRaw: ListedFile[] | null = null,
  meanwhile?: (tick: () => void) => void,
): void {
  const existing = new Map<string, { size: number; mtime: number }>();
  if (compare) {
    const one = sqlite.prepare('SELECT size, mtime_ms AS m FROM entries WHERE key = ?');
    for (const rel of compare) {
      const r = one.get(`${source.id}:${rel}`) as { size: number; m: number } | undefined;
      if (r) existing.set(rel, { size: r.size, mtime: r.m });
    }
  } else {
    for (const r of sqlite
      .prepare('SELECT rel_path AS p, size, mtime_ms AS m FROM entries WHERE source = ?')
      .iterate(source.id) as Iterable<{ p: string; size: number; m: number }>) {
      existing.set(r.p, { size: r.size, mtime: r.m });
    }
  }
  const writer = rowWriter(sqlite);
  // Versions and outside changes (docs/versions.md): told each batch before its rows, and the files gone.
  const versions = openVersionKeeper(sqlite, source, owner, opts.machine, opts.now);
  const changed: Changed[] = [];
  for (const f of listed) {
    if (compare && !compare.has(f.relPath)) continue; // its row is the watcher's listing's
    const row = existing.get(f.relPath);
    existing.delete(f.relPath);
    if (force || !row || row.size !== f.size || row.mtime !== f.mtimeMs) changed.push({ ...f, isNew: !row });
  }
  // A large first index builds full-text search and the secondary indexes once at the end
  // instead of row by row (docs/performance.md, "Deferred indexes").
  const defer = changed.length >= FTS_DEFER_MIN && changed.every((f) => f.isNew);
  // A file whose bytes hash as its row says changed only its mtime: the row's findings stand
  // (same bytes, same rules, same owner), only the mtime-based columns move.
  const prior = sqlite.prepare('SELECT sha256 FROM entries WHERE key = ? AND error IS NULL');
  const priorSha = (f: Changed): string | null =>
    force || f.isNew
      ? null
      : ((prior.get(`${source.id}:${f.relPath}`) as { sha256: string } | undefined)?.sha256 ?? null);
  const workers = opts.workers ?? 0;
  const batches: Changed[][] = [];
  for (let i = 0; i < changed.length; i += BATCH) batches.push(changed.slice(i, i + BATCH));
  // With workers, each file's prior hash is looked up once, for whichever thread reads it.
  const priors =
    workers > 0 && changed.length >= (opts.poolMinFiles ?? POOL_MIN_FILES)
      ? batches.map((files) => files.map(priorSha))
      : null;
  const pool = priors
    ? openInspectPool(
        workers,
        owner,
        source.root,
        source.id,
        batches.map((files, k) => ({ files, prior: priors[k]! })),
        { mainHelps: opts.poolMainHelps, keepBytes: versions !== null },
      )
    : null;
  if (pool) {
    stats.workers = Math.max(stats.workers ?? 0, workers);
    // The audit trail is mirrored while the workers start on the files; meanwhile the files
    // they have read and checked are reported as progress.
    opts.onProgress?.(0, changed.length);
    let shown = 0;
    meanwhile?.(() => {
      const checked = pool.poll();
      if (checked <= shown) return;
      shown = checked;
      opts.onProgress?.(checked, changed.length);
    });
  }
  /** Batch k read and inspected on this thread, as a worker answers it. */
  const here = (k: number): PoolFileResult[] =>
    batches[k]!.map((f, i) => {
      const result = readPrepared(
        source.root,
        source.id,
        f,
        owner,
        priors ? priors[k]![i]! : priorSha(f),
        versions !== null,
      );
      return { size: f.size, mtimeMs: f.mtimeMs, result };
    });
  /** Batch k's files with their results: a worker's answer carries the size and mtime it found. */
  const results = (k: number): { f: Changed; result: PreparedResult }[] => {
    const got = pool ? pool.take(k, here) : here(k);
    return batches[k]!.map((f, i) => {
      const r = got[i]!;
      f.size = r.size;
      f.mtimeMs = r.mtimeMs;
      return { f, result: r.result };
    });
  };
  const load = () => {
    for (let k = 0, i = 0; k < batches.length; k++, i += BATCH) {
      const batch = results(k);
      versions?.keep(batch);
      sqlite.transaction(() => {
        for (const { f, result } of batch) {
          if ('gone' in result) continue; // removed since the readdir: no row, as if never listed
          if ('error' in result) writer.upsertError(source.id, f, result.error, f.isNew);
          else if ('touched' in result) writer.touch(`${source.id}:${f.relPath}`, f, result.touched);
          else {
            writer.insertPrepared(result.row, f.isNew);
            opts.onRewritten?.(source.id, f.filename);
          }
        }
      })();
      stats.read += batch.length;
      // With workers, files read and checked may run ahead of the rows written.
      const written = Math.min(i + BATCH, changed.length);
      opts.onProgress?.(pool ? Math.max(written, pool.poll()) : written, changed.length);
    }
  };
  try {
    if (defer) {
      deferFts(sqlite);
      withBulkLoad(sqlite, ['entries', 'findings'], () => {
        load();
        rebuildFts(sqlite);
      });
    } else load();
  } finally {
    pool?.close();
  }
  if (statLaterRaw) {
    // The watcher keeps this listing for its next scan: with the sizes and mtimes the reads
    // found. A file not opened (removed meanwhile) is left out: the next scan lists it anew.
    const raw = statLaterRaw;
    const found = new Map(changed.map((c) => [c.relPath, c]));
    for (const f of raw) {
      const c = found.get(f.relPath);
      if (c && f.size === STAT_LATER) {
        f.size = c.size;
        f.mtimeMs = c.mtimeMs;
      }
    }
    opts.onListed?.(
      source.id,
      raw.filter((f) => f.size !== STAT_LATER),
    );
  }
  versions?.done(existing.keys());
  if (existing.size > 0) {
    sqlite.transaction(() => {
      for (const rel of existing.keys()) writer.remove(`${source.id}:${rel}`);
    })();
    stats.removed += existing.size;
  }
  if (compare) {
    // Only the ids of the files compared can have gained or lost a twin (same rule, per id).
    if (changed.length > 0 || existing.size > 0)
      sqlite.transaction(() => {
        for (const id of new Set([...compare].map((rel) => `${source.id}:${path.posix.basename(rel)}`)))
          markConflictFor(sqlite, id);
      })();
  } else if (changed.length > 0 || stats.removed > 0) markConflicts(sqlite, source.id);
  // An unchanged root writes nothing here either (claude/index-file-stamp.ts).
  if (source.adapter.files?.indexFile)
    refreshIndexFile(sqlite, source, owner, force || changed.length > 0 || existing.size > 0, versions);
  const outside = versions?.close() ?? 0;
  if (outside > 0) {
    stats.outside = (stats.outside ?? 0) + outside;
    stats.events += outside;
  }
}
