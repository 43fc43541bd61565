/**
 * `memtrust context`: what an assistant session gets (docs/session-context.md), from the files as
 * they are this second. The index database is only a cache of checks: a file whose size
 * and mtime match its row (the scan's own freshness rule) takes its fields, findings and
 * body from the row; anything else is read and checked here. Never throws: a hook must
 * not block a session, so every problem becomes a line inside the text.
 * Decisions: docs/session-context.md.
 */
import { splitHints } from '../../validators/hints';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import os from 'node:os';
import path from 'node:path';
import type { Env } from '../../core/env';
import { describeSource, isFileSource, type FileSourceInfo, type ListedFile, type SourceInfo } from '../../sources';
import { refusedLink } from '../../sources/list-dir';
import {
  contextRows,
  type ContextIndexRow,
  type ContextOtherRow,
  type ContextRows,
} from '../../../db/queries/context-rows';
import { BODY_INDEX_CHARS, readFields } from '../index/inspect';
import { findingClass } from '../../validators/types';
import { readSettings } from '../../core/settings';
import { secretCheck } from '../../validators/secrets';
import { injectionCheck } from '../../validators/injection';
import { FILE_CAP_BYTES, type OwnerIdentity } from '../../validators/types';
import {
  clampBudget,
  DEFAULT_CONTEXT_BUDGET,
  sessionContext,
  type ContextMemory,
  type ContextPlan,
  type ContextProblem,
  type ContextRootInput,
  type BlockLengths,
  type LazyBody,
} from '../../trust/context';
import { readIndex } from '../claude/claude-index';
import { withOriginFlags } from '../origin/context-origin';
import { type CheckedFile, openCheckCache, type RootChecks } from './check-cache';
import { rulesSignature } from '../index/rules-signature';
import { ORIGIN_REVIEWED } from '../../trust/assistant-write';
import { batched } from '../origin/origin-cache';
import { withSharedReads } from '../../sources/read-dir';
import { markChecksRan } from '../../core/code-cache-hint';
import { lifecycleHorizon } from '../../trust/lifecycle';
import { recorder } from './text-cache';

export interface ContextRequest {
  roots: string[];
  now: Date;
  owner: OwnerIdentity;
  /** Characters; clamped to 1,000–10,000. */
  budget: number;
  problems?: ContextProblem[];
  home?: string;
  /** The index database (a path, or an open handle) used as a cache; null: check every file. */
  cache?: string | Database.Database | null;
  /**
   * Where the list of files comes from. `disk` (the default: the hook and the CLI, which
   * run no scan): readdir + lstat of every folder, and a row is used only when its size and
   * mtime match. `index`: the caller has just brought the index up to date with the disk
   * (the dashboard's freshContext), so the rows are the list and nothing is stat'ed.
   */
  listing?: 'disk' | 'index';
  /**
   * With `listing: 'index'` and an open handle: what the last plan on this handle kept
   * (`contextKeepOf`), reused for the rows that did not change (docs/session-context.md, "Between changes").
   */
  keep?: ContextKeep | null;
  /**
   * Milliseconds this plan may spend reading session transcripts not yet in the cache
   * (default CONTEXT_ORIGIN_MS, the session start's allowance). The dashboard passes 0: its
   * Context X-ray never waits on a transcript, which it reads in the background
   * (docs/origin.md "In the dashboard").
   */
  originReadMs?: number;
  /** Told each memory file read from disk, with its bytes: the SessionStart hook keeps them as versions (docs/versions.md). */
  onRead?: OnRead;
  /** false: no kept checks (check-cache.ts) are read or written; tests compare with and without. */
  checks?: false;
}

/** A memory file read on the spot: its root, listing, bytes and whether they hold a credential. */
export type OnRead = (source: SourceInfo, f: ListedFile, bytes: Buffer, credential: boolean) => void;

/** A memories/ row with its credential lines, as the planner takes it. */
interface CachedRow extends ContextIndexRow {
  credentialLines: number[];
}

/** What the index knows of one source. */
interface SourceRows {
  memories: Map<string, CachedRow>;
  /** quarantine/ and archive/ rows (read only when the index is the list). */
  others(): ContextOtherRow[];
  body(relPath: string): string | null;
}

interface Cache {
  get(sourceId: string): SourceRows | null;
  /** The handle (null when the cache opened its own file) and its queries. */
  sqlite: Database.Database | null;
  rows: ContextRows;
  close(): void;
}

/**
 * The index as a cache, read inside one read transaction so that a body read late (only
 * when the budget quotes it) belongs to the same version as its row. Any failure (no
 * file, old schema, locked) means no cache.
 */
function openCache(db: string | Database.Database | null | undefined): Cache | null {
  if (!db) return null;
  let sqlite: Database.Database;
  let own = false;
  try {
    if (typeof db === 'string') {
      if (!fs.existsSync(db)) return null;
      sqlite = new Database(db, { readonly: true, fileMustExist: true });
      own = true;
    } else sqlite = db;
  } catch {
    return null;
  }
  let began = false;
  const close = () => {
    try {
      if (began && sqlite.inTransaction) sqlite.exec('COMMIT');
    } catch {
      // a read transaction has nothing to lose
    }
    if (own) sqlite.close();
  };
  try {
    const q = contextRows(sqlite);
    if (!sqlite.inTransaction) {
      sqlite.exec('BEGIN');
      began = true;
    }
    const get = (sourceId: string): SourceRows | null => {
      const memories = new Map<string, CachedRow>();
      try {
        for (const r of q.memories(sourceId)) memories.set(r.relPath, Object.assign(r, { credentialLines: [] }));
        for (const f of q.secretFindings(sourceId)) {
          if (findingClass(f.code) !== 'credential') continue;
          const row = memories.get(f.relPath);
          if (row && !row.credentialLines.includes(f.line ?? 1)) row.credentialLines.push(f.line ?? 1);
        }
      } catch {
        return null;
      }
      for (const r of memories.values()) r.credentialLines.sort((a, b) => a - b);
      return { memories, others: () => q.others(sourceId), body: (relPath) => q.body(sourceId, relPath) };
    };
    return { get, close, sqlite: own ? null : sqlite, rows: q };
  } catch {
    close();
    return null;
  }
}

/** The budget from user settings (docs/configuration.md `contextBudget`); a broken settings file falls back to the default and says so. */
export function contextBudgetSetting(env: Env = process.env): { budget: number; problem?: ContextProblem } {
  try {
    const s = readSettings(env);
    return { budget: s.contextBudget ?? DEFAULT_CONTEXT_BUDGET };
  } catch (e) {
    return {
      budget: DEFAULT_CONTEXT_BUDGET,
      problem: {
        path: 'settings',
        message: `${(e as Error).message}; using the default budget of ${DEFAULT_CONTEXT_BUDGET} characters`,
      },
    };
  }
}

function display(root: string, home: string): string {
  return home && (root === home || root.startsWith(home + path.sep)) ? `~${root.slice(home.length)}` : root;
}

function credentialLines(bytes: Buffer, owner: OwnerIdentity): number[] {
  const lines = secretCheck(bytes, owner)
    .findings.filter((f) => f.class === 'credential')
    .map((f) => f.line ?? 1);
  return [...new Set(lines)].sort((a, b) => a - b);
}

/** The list entry of one file as `listMarkdown` makes it (a row with an error is looked at again). */
function relist(root: string, relPath: string, location: ListedFile['location']): ListedFile | null {
  const filename = relPath.slice(relPath.lastIndexOf('/') + 1);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(path.join(root, relPath));
  } catch {
    return null;
  }
  if (st.isSymbolicLink()) return refusedLink(relPath, filename, location, Math.floor(st.mtimeMs));
  if (!st.isFile()) return null;
  return { relPath, filename, location, size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
}

/** The files of a source from its rows, in the adapter's order (memories/, quarantine/, archive/). */
function listFromIndex(source: SourceInfo, rows: SourceRows): ListedFile[] {
  const files: ListedFile[] = [];
  const add = (
    r: { relPath: string; filename: string; size: number; mtimeMs: number; error: string | null },
    location: ListedFile['location'],
  ) => {
    const f = r.error
      ? relist(source.root, r.relPath, location)
      : { relPath: r.relPath, filename: r.filename, location, size: r.size, mtimeMs: r.mtimeMs };
    if (f) files.push(f);
  };
  for (const r of rows.memories.values()) add(r, 'memories');
  const others = rows.others();
  for (const r of others) if (r.location === 'quarantine') add(r, 'quarantine');
  for (const r of others) if (r.location === 'archive') add(r, 'archive');
  return files;
}

/**
 * A memory's trust fields, set one by one rather than an object literal merged with
 * Object.assign per memory (docs/performance.md, "The hooks").
 */
function trustFields(
  m: ContextMemory,
  trustLevel: string | undefined,
  type: string | undefined,
  createdAt: string | undefined,
  lastVerified: string | undefined,
): void {
  m.facts.trustLevel = trustLevel;
  m.facts.type = type;
  m.facts.createdAt = createdAt;
  m.facts.lastVerified = lastVerified;
}

/**
 * Takes a memory from its row when the row can stand for the file: its fields and checks
 * always, its body unless a secret line was redacted from the stored body or it was
 * capped. The body stays in the index until the planner quotes or measures it.
 */
function fromRow(
  m: ContextMemory,
  row: CachedRow,
  bodies: boolean,
  storedBody: (relPath: string) => string | null,
): boolean {
  const length = row.asciiLength ?? row.wide?.length ?? 0;
  const withheld = row.credentialLines.length > 0;
  if (bodies && !withheld && !(row.secretExit === 0 && length < BODY_INDEX_CHARS)) return false;
  m.name = row.name ?? '';
  trustFields(
    m,
    row.trustLevel ?? undefined,
    row.type ?? undefined,
    row.createdAt ?? undefined,
    row.lastVerified ?? undefined,
  );
  m.credentialLines = row.credentialLines;
  m.injection = row.injectionExit !== 0;
  m.origin = { session: row.originSession ?? undefined, reviewed: row.originReviewed ?? undefined };
  if (bodies && !withheld) {
    const relPath = row.relPath;
    m.body =
      row.wide ??
      ({
        trimmedLength: row.asciiTrimmed ?? 0,
        read: () => {
          const body = storedBody(relPath);
          if (body === null) throw new Error(`${relPath}: its index row went away while the context was planned`);
          return body;
        },
      } satisfies LazyBody);
  }
  return true;
}

/**
 * Reads one memory file on the spot: no row, a stale one, or a fresh row whose stored body
 * is redacted or capped — then the row's checks stand (same bytes, same verdicts) and only
 * the fields and the body come from the file.
 */
function fromFile(
  m: ContextMemory,
  source: SourceInfo,
  f: ListedFile,
  owner: OwnerIdentity,
  bodies: boolean,
  checked?: { credentialLines: number[]; injection: boolean },
  onRead?: OnRead,
  checks?: RootChecks,
): void {
  try {
    const abs = path.join(source.root, f.relPath);
    const bytes = fs.readFileSync(abs);
    const { fields, body } = readFields(bytes);
    m.origin = { session: fields.originSessionId, reviewed: fields[ORIGIN_REVIEWED] };
    m.name = fields.name ?? '';
    trustFields(m, fields['trust-level'], fields.type, fields['created-at'], fields['last-verified']);
    // The validators run (below, unless checked before): the hook's code cache should hold them (code-cache-hint.ts).
    if (!checked) markChecksRan();
    m.credentialLines = checked ? checked.credentialLines : credentialLines(bytes, owner);
    onRead?.(source, f, bytes, m.credentialLines.length > 0);
    m.injection = checked ? checked.injection : splitHints(injectionCheck(bytes)).injection.exit !== 0;
    if (bodies && m.credentialLines.length === 0) m.body = body.toString('utf8');
    // Kept for the listing's size and mtime only when the bytes read are still those (no write in between).
    if (checks && !checked && bytes.length === f.size && sameStat(abs, f.size, f.mtimeMs))
      checks.put(f.relPath, {
        size: f.size,
        mtimeMs: f.mtimeMs,
        name: m.name,
        trustLevel: fields['trust-level'],
        type: fields.type,
        createdAt: fields['created-at'],
        lastVerified: fields['last-verified'],
        originSession: fields.originSessionId,
        originReviewed: fields[ORIGIN_REVIEWED],
        credentialLines: m.credentialLines,
        injection: m.injection,
      });
  } catch (e) {
    m.problem = `unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}

/** The file still has this size and mtime (as the listing floors it). */
function sameStat(abs: string, size: number, mtimeMs: number): boolean {
  try {
    const st = fs.lstatSync(abs);
    return st.isFile() && st.size === size && Math.floor(st.mtimeMs) === mtimeMs;
  } catch {
    return false;
  }
}

/**
 * Takes a memory from the hook's kept checks (check-cache.ts), as from a fresh row whose body
 * is not stored: a body the plan may quote is read from the file, with the kept checks.
 */
function fromChecked(m: ContextMemory, c: CheckedFile, bodies: boolean): boolean {
  if (bodies && c.credentialLines.length === 0) return false;
  m.name = c.name;
  trustFields(m, c.trustLevel, c.type, c.createdAt, c.lastVerified);
  m.credentialLines = c.credentialLines;
  m.injection = c.injection;
  m.origin = { session: c.originSession, reviewed: c.originReviewed };
  return true;
}

/**
 * One listed file as the planner takes it: from the hook's kept checks, else from its row when
 * the row is fresh and can stand for the file, else read on the spot. quarantine/ and archive/
 * files are never opened. The rows are asked for (`rowOf`; the index opened) only for a file
 * the kept checks do not stand for: a session start in an unchanged project opens no SQLite
 * (docs/session-context.md, "The hook keeps its checks"). A row stands only when fresh and,
 * where `copyRows` is given (the hook), checked under the current rules and owner; it is then
 * kept like a check, so the next start needs no row.
 */
function memoryOf(
  source: SourceInfo,
  f: ListedFile,
  conflict: boolean,
  owner: OwnerIdentity,
  bodies: boolean,
  rowOf: ((relPath: string) => CachedRow | undefined) | undefined,
  storedBody: ((relPath: string) => string | null) | undefined,
  onRead?: OnRead,
  checks?: RootChecks,
  copyRows?: () => boolean,
  /** What `checks` said of this file when the caller asked already (null: nothing kept). */
  keptNow?: CheckedFile | null,
): ContextMemory {
  const m: ContextMemory = {
    id: `${source.id}:${f.filename}`,
    filename: f.filename,
    name: '',
    body: '',
    facts: { filename: f.filename, location: f.location, mtime: new Date(f.mtimeMs), conflict },
    credentialLines: [],
    injection: false,
  };
  // quarantine/ and archive/ are never loaded and their tier is their directory: no read.
  if (f.location !== 'memories') return m;
  if (f.refused) {
    m.problem = f.refused;
    return m;
  }
  if (f.size > FILE_CAP_BYTES) {
    m.problem = `too large to load (${f.size} bytes)`;
    return m;
  }
  const kept = keptNow === undefined ? checks?.file(f.relPath, f.size, f.mtimeMs) : (keptNow ?? undefined);
  if (kept) {
    // Checked before at this size and mtime, so its bytes were offered as a version then: not again.
    if (!fromChecked(m, kept, bodies)) fromFile(m, source, f, owner, bodies, kept);
    return m;
  }
  const row = rowOf?.(f.relPath);
  // The scan's own freshness rule: same size and mtime, and checked under these rules and this
  // owner (a scan by an older memtrust, or for another owner, may have missed a credential the
  // rules now find); a row with an error is no cache.
  if (row && row.error === null && row.size === f.size && row.mtimeMs === f.mtimeMs && (copyRows?.() ?? true)) {
    if (!fromRow(m, row, bodies, storedBody!))
      fromFile(
        m,
        source,
        f,
        owner,
        bodies,
        { credentialLines: row.credentialLines, injection: row.injectionExit !== 0 },
        onRead,
      );
    if (checks && !m.problem && copyRows) checks.put(f.relPath, checkedOfRow(row));
    return m;
  }
  fromFile(m, source, f, owner, bodies, undefined, onRead, checks);
  return m;
}

/** A fresh row as the hook's kept checks hold a file read on the spot (fromFile). */
function checkedOfRow(row: CachedRow): CheckedFile {
  return {
    size: row.size,
    mtimeMs: row.mtimeMs,
    name: row.name ?? '',
    trustLevel: row.trustLevel ?? undefined,
    type: row.type ?? undefined,
    createdAt: row.createdAt ?? undefined,
    lastVerified: row.lastVerified ?? undefined,
    originSession: row.originSession ?? undefined,
    originReviewed: row.originReviewed ?? undefined,
    credentialLines: row.credentialLines,
    injection: row.injectionExit !== 0,
  };
}

/**
 * One root as the planner needs it. `rows`: the index's rows of this source (a cache, or
 * with `listing: 'index'` the list itself); with the disk listing it may be a function, called
 * (once) only when a file needs its row. `copyRows`: whether the rows were checked under the
 * current rules and owner; a fresh row stands only then, and is kept in `checks` like a file read.
 */
export function readContextRoot(
  source: SourceInfo,
  owner: OwnerIdentity,
  home: string,
  rows?: SourceRows | null | (() => SourceRows | null | undefined),
  listing: 'disk' | 'index' = 'disk',
  onRead?: OnRead,
  checks?: RootChecks,
  copyRows?: () => boolean,
): ContextRootInput {
  const base = { id: source.id, root: source.root, display: display(source.root, home), layout: source.kind };
  if (source.error) return { ...base, error: source.error, memories: [] };
  // A root read as records has no memory files to load (docs/session-context.md).
  if (!isFileSource(source)) return { ...base, memories: [] };
  let asked = typeof rows !== 'function';
  let got: SourceRows | null | undefined = typeof rows === 'function' ? undefined : rows;
  const rowsNow = () => {
    if (!asked) {
      asked = true;
      got = (rows as () => SourceRows | null | undefined)();
    }
    return got;
  };
  let files: ListedFile[];
  try {
    files =
      listing === 'index' && rowsNow() ? listFromIndex(source, rowsNow()!) : source.adapter.files.list(source.root);
  } catch (e) {
    return { ...base, error: `could not be listed: ${(e as Error).message}`, memories: [] };
  }
  const bodies = source.kind === 'trust-root';
  const inMemories = new Set<string>();
  const inQuarantine = new Set<string>();
  // The files the kept checks do not stand for: when they are a few (a memory or two changed
  // since the last session start), reading them costs less than opening the index.
  let unkept = 0;
  // Each file's kept checks, looked up once here and handed to memoryOf.
  const keptAt: (CheckedFile | null | undefined)[] = new Array(files.length);
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    if (f.location === 'memories') {
      inMemories.add(f.filename);
      if (checks && !f.refused && f.size <= FILE_CAP_BYTES) {
        keptAt[i] = checks.file(f.relPath, f.size, f.mtimeMs) ?? null;
        if (keptAt[i] === null) unkept++;
      }
    } else if (f.location === 'quarantine') inQuarantine.add(f.filename);
  }
  if (checks && listing === 'disk' && typeof rows === 'function' && unkept <= ROWS_AFTER_UNKEPT) asked = true;
  const memories: ContextMemory[] = [];
  const rowOf = (rel: string) => rowsNow()?.memories.get(rel);
  const bodyOf = (rel: string) => rowsNow()?.body(rel) ?? null;
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    const conflict = f.location !== 'archive' && inMemories.has(f.filename) && inQuarantine.has(f.filename);
    memories.push(memoryOf(source, f, conflict, owner, bodies, rowOf, bodyOf, onRead, checks, copyRows, keptAt[i]));
  }
  memories.sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
  return withIndexFile({ ...base, memories }, source, owner, checks);
}

/**
 * Up to this many files of a root not in the hook's kept checks are read on the spot rather
 * than from the index: opening it (better-sqlite3 and the root's rows) costs a session start
 * about as much as reading and checking some twenty files (docs/performance.md, "The hooks").
 */
const ROWS_AFTER_UNKEPT = 16;

/** A Claude Code folder's MEMORY.md, read from disk (the index does not hold it); its credential lines kept like a memory's checks. */
function withIndexFile(
  input: ContextRootInput,
  source: FileSourceInfo,
  owner: OwnerIdentity,
  checks?: RootChecks,
): ContextRootInput {
  if (!source.adapter.files?.indexFile) return input;
  const abs = path.join(source.root, source.adapter.files?.indexFile);
  let before: fs.Stats | null = null;
  try {
    before = checks ? fs.statSync(abs) : null;
  } catch {
    // no MEMORY.md: nothing to keep
  }
  const stat = before && { size: before.size, mtimeMs: Math.floor(before.mtimeMs) };
  const kept = stat ? checks?.index(stat.size, stat.mtimeMs) : undefined;
  const text = readIndex(source.root, source.adapter.files?.indexFile);
  let lines: number[];
  if (text === null) lines = [];
  else if (kept && Buffer.byteLength(text, 'utf8') === stat!.size) lines = kept;
  else {
    lines = credentialLines(Buffer.from(text, 'utf8'), owner);
    if (stat && Buffer.byteLength(text, 'utf8') === stat.size && sameStat(abs, stat.size, stat.mtimeMs))
      checks!.putIndex({ ...stat, credentialLines: lines });
  }
  return { ...input, index: { text, credentialLines: lines } };
}

/** One file of a source as the last plan saw it (docs/session-context.md, "Between changes"). */
interface KeptFile {
  rowid: number;
  size: number;
  mtimeMs: number;
  file: ListedFile;
  /** Its memories/ row (credential lines included); null for quarantine/ and archive/. */
  row: CachedRow | null;
  /** The memory made of it, and the conflict flag it was made with. */
  memory: ContextMemory | null;
  conflict: boolean;
  /** Order of the index listing: memories/, quarantine/, archive/. */
  rank: number;
  /** The row's read error (a symlink, a file too large): such a row is looked at again on disk. */
  error: string | null;
  /** The last plan whose signatures named it. */
  epoch: number;
}

/**
 * What the dashboard keeps between its plans (docs/session-context.md, "Between changes"):
 * per source, every file's row signature and the memory made of it; the block lengths the
 * packing measured, by memory object. A plan made with it reads in full only the rows whose
 * signature moved and makes only their memories again; the plan is the same as without it.
 */
export interface ContextKeep {
  sqlite: Database.Database | null;
  /** The scan's rules signature and the owner the memories were made under. */
  signature: string | null;
  sources: Map<string, KeptSource>;
  lengths: BlockLengths;
  /** What the last plan did (the tests and bench/context.ts read it). */
  last: { rowsRead: number; memoriesMade: number; memoriesKept: number };
}

export function newContextKeep(): ContextKeep {
  return {
    sqlite: null,
    signature: null,
    sources: new Map(),
    lengths: new WeakMap(),
    last: { rowsRead: 0, memoriesMade: 0, memoriesKept: 0 },
  };
}

const keeps = new WeakMap<Database.Database, ContextKeep>();

/** The keep of one index handle (the dashboard's: one per server). */
export function contextKeepOf(sqlite: Database.Database): ContextKeep {
  let k = keeps.get(sqlite);
  if (!k) {
    k = newContextKeep();
    keeps.set(sqlite, k);
  }
  return k;
}

const RANK = { memories: 0, quarantine: 1, archive: 2 } as const;

function sameLines(a: number[], b: number[] | undefined): boolean {
  const c = b ?? [];
  return a.length === c.length && a.every((x, i) => x === c[i]);
}

/** `rowid size mtime_ms rel_path` (db/queries/context-rows.ts `signatures`) → its parts. */
function parseSignature(sig: string): [string, number, number, number] {
  const a = sig.indexOf(' ');
  const b = sig.indexOf(' ', a + 1);
  const c = sig.indexOf(' ', b + 1);
  return [sig.slice(c + 1), Number(sig.slice(0, a)), Number(sig.slice(a + 1, b)), Number(sig.slice(b + 1, c))];
}

function relPathOf(sig: string): string {
  return sig.slice(sig.indexOf(' ', sig.indexOf(' ', sig.indexOf(' ') + 1) + 1) + 1);
}

/** The order of `readContextRoot`'s memories: by filename, then memories/, quarantine/, archive/, then row order. */
function byListing(a: KeptFile, b: KeptFile): number {
  const x = a.file.filename;
  const y = b.file.filename;
  return (x < y ? -1 : x > y ? 1 : 0) || a.rank - b.rank || a.rowid - b.rowid;
}

/**
 * One source in the keep: the last plan's signatures (the text, split) and the file kept for
 * each (null: read again next time), and the same files in listing order.
 */
interface KeptSource {
  text: string;
  sigs: string[];
  kept: (KeptFile | null)[];
  sorted: KeptFile[];
  /** Bumped at every plan; a file not seen in this plan's signatures is gone. */
  epoch: number;
}

/**
 * `readContextRoot` with `listing: 'index'`, from the keep: every row's signature is read
 * (the rescan's covering index), the rows whose signature moved are read whole, and the
 * memories of the others are the ones the last plan made. The memories come out in the
 * order `readContextRoot` gives them (by filename; the same name in memories/, quarantine/,
 * archive/ in that order, then in row order), merged into the last plan's order rather
 * than sorted again.
 */
function readKeptRoot(
  source: FileSourceInfo,
  owner: OwnerIdentity,
  home: string,
  q: ContextRows,
  keep: ContextKeep,
): ContextRootInput {
  const base = { id: source.id, root: source.root, display: display(source.root, home), layout: source.kind };
  let ks = keep.sources.get(source.id);
  if (!ks) {
    ks = { text: '', sigs: [], kept: [], sorted: [], epoch: 0 };
    keep.sources.set(source.id, ks);
  }
  const epoch = ++ks.epoch;
  const credential = new Map<string, number[]>();
  for (const f of q.secretFindings(source.id)) {
    if (findingClass(f.code) !== 'credential') continue;
    const lines = credential.get(f.relPath) ?? [];
    if (!lines.includes(f.line ?? 1)) lines.push(f.line ?? 1);
    credential.set(f.relPath, lines);
  }
  for (const lines of credential.values()) lines.sort((a, b) => a - b);
  // This plan's signatures beside the last plan's, both in rel_path order: walked together,
  // a signature equal to the last one keeps its file; any other is read again. (The order
  // only decides how quickly they line up again after a file came or went: a file is kept
  // only for an identical signature.)
  const text = q.signatures(source.id);
  const sigs = text === ks.text ? ks.sigs : text === '' ? [] : text.split('\0');
  const at: (KeptFile | null)[] = new Array(sigs.length).fill(null);
  const moved: { sig: [string, number, number, number]; j: number }[] = [];
  const take = (k: KeptFile | null, j: number) => {
    if (k && (k.row === null || sameLines(k.row.credentialLines, credential.get(k.file.relPath)))) {
      k.epoch = epoch;
      at[j] = k;
    } else moved.push({ sig: parseSignature(sigs[j]!), j });
  };
  const before = ks.sigs;
  for (let i = 0, j = 0; i < before.length || j < sigs.length; ) {
    if (i < before.length && j < sigs.length && before[i] === sigs[j]) take(ks.kept[i++]!, j++);
    else if (j >= sigs.length)
      i++; // gone
    else if (i >= before.length)
      take(null, j++); // new
    else {
      const a = relPathOf(before[i]!);
      const b = relPathOf(sigs[j]!);
      if (a === b) {
        i++; // the same file, written again
        take(null, j++);
      } else if (Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0)
        i++; // gone
      else take(null, j++); // new
    }
  }
  // Many moved rows (the first plan, a rescan of everything): one pass over the table.
  const bulk = moved.length > 2_000;
  const memRows = bulk ? new Map(q.memories(source.id).map((r) => [r.relPath, r])) : null;
  const otherRows = bulk ? new Map(q.others(source.id).map((r) => [r.relPath, r])) : null;
  const fresh: KeptFile[] = [];
  for (const { sig, j } of moved) {
    const [relPath, rowid, size, mtimeMs] = sig;
    const r = bulk ? (memRows!.get(relPath) ?? otherRows!.get(relPath) ?? null) : q.one(source.id, relPath);
    if (!r) continue;
    const location: ListedFile['location'] = 'location' in r ? r.location : 'memories';
    const row: CachedRow | null =
      location === 'memories'
        ? Object.assign(r as ContextIndexRow, { credentialLines: credential.get(relPath) ?? [] })
        : null;
    let file: ListedFile | null = { relPath, filename: r.filename, location, size: r.size, mtimeMs: r.mtimeMs };
    // A row holding an error is looked at again on disk every time (listFromIndex) and never kept.
    if (r.error !== null) file = relist(source.root, relPath, location);
    if (!file) continue;
    const k: KeptFile = {
      rowid,
      size,
      mtimeMs,
      file,
      row,
      memory: null,
      conflict: false,
      rank: RANK[location],
      error: r.error,
      epoch,
    };
    fresh.push(k);
    // A row holding an error is read again next time (its KeptFile is not kept).
    if (r.error === null) at[j] = k;
  }
  ks.text = text;
  ks.sigs = sigs;
  ks.kept = at;
  keep.last.rowsRead += moved.length;
  // The last plan's order without what moved or went, merged with what is new. Each file that
  // moved or went is counted by place and name, and each new entry counted back off.
  // A file written again where it was takes over the conflict of the entry it replaces.
  const placeNames = new Map<string, { n: number; conflict: boolean }>();
  const key = (k: KeptFile) => `${k.file.location}\0${k.file.filename}`;
  const stay: KeptFile[] = [];
  for (const k of ks.sorted) {
    if (k.epoch === epoch) {
      stay.push(k);
      continue;
    }
    // Moved (its new entry is in `fresh`) or went.
    const c = placeNames.get(key(k));
    if (c) c.n++;
    else placeNames.set(key(k), { n: 1, conflict: k.conflict });
  }
  for (const k of fresh) {
    const c = placeNames.get(key(k));
    if (c) {
      c.n--;
      k.conflict = c.conflict;
    } else placeNames.set(key(k), { n: -1, conflict: false });
  }
  fresh.sort(byListing);
  const files: KeptFile[] = new Array(stay.length + fresh.length);
  for (let i = 0, a = 0, b = 0; i < files.length; i++)
    files[i] = b >= fresh.length || (a < stay.length && byListing(stay[a]!, fresh[b]!) < 0) ? stay[a++]! : fresh[b++]!;
  ks.sorted = files;
  // A conflict is a filename in both memories/ and quarantine/: it can change only when the
  // names in a place change — not when a file is written again where it was.
  let recheck = false;
  for (const c of placeNames.values()) if (c.n !== 0) recheck = true;
  const inMemories = new Set<string>();
  const inQuarantine = new Set<string>();
  if (recheck)
    for (const k of files) {
      if (k.file.location === 'memories') inMemories.add(k.file.filename);
      else if (k.file.location === 'quarantine') inQuarantine.add(k.file.filename);
    }
  const bodies = source.kind === 'trust-root';
  const storedBody = (relPath: string) => q.body(source.id, relPath);
  const memories: ContextMemory[] = new Array(files.length);
  for (let i = 0; i < files.length; i++) {
    const k = files[i]!;
    const f = k.file;
    const conflict = recheck
      ? f.location !== 'archive' && inMemories.has(f.filename) && inQuarantine.has(f.filename)
      : k.conflict;
    if (!k.memory || k.conflict !== conflict) {
      const row = k.row ?? undefined;
      k.memory = memoryOf(source, f, conflict, owner, bodies, () => row, storedBody);
      k.conflict = conflict;
      keep.last.memoriesMade++;
    } else keep.last.memoriesKept++;
    memories[i] = k.memory;
  }
  return withIndexFile({ ...base, memories }, source, owner);
}

/**
 * What a plan for the dashboard may be kept by, beside the index's own version (db/queries/memo.ts):
 * the roots, the budget setting, the minute, and each index file's stat — MEMORY.md is read
 * from disk, not from the index, so its edits must show without a scan writing anything.
 */
export function contextPlanKey(
  sources: readonly SourceInfo[],
  setting: { budget: number; problem?: ContextProblem },
  now: Date,
): string {
  const indexFiles = sources
    .filter((s) => s.adapter.files?.indexFile && !s.error)
    .map((s) => {
      try {
        const st = fs.statSync(path.join(s.root, s.adapter.files!.indexFile!));
        return `${s.id}:${st.size}:${st.mtimeMs}`;
      } catch {
        return `${s.id}:-`;
      }
    });
  return `context:${JSON.stringify([sources.map((s) => s.root), setting, now.toISOString().slice(0, 16), indexFiles])}`;
}

/** The origin cache sits beside the index database (lib/service/origin/memory-origin.ts). */
function originCacheDir(cache: ContextRequest['cache']): string | null {
  const file = typeof cache === 'string' ? cache : (cache?.name ?? null);
  return file && file !== ':memory:' ? path.dirname(path.resolve(file)) : null;
}

export function buildSessionContext(req: ContextRequest): ContextPlan {
  const home = req.home ?? os.homedir();
  // Read from disk, the index is opened only when a file needs its row (memoryOf).
  const lazy = req.listing !== 'index';
  let opened = !lazy;
  let cache = lazy ? null : openCache(req.cache);
  const cacheNow = () => {
    if (!opened) {
      opened = true;
      cache = openCache(req.cache);
    }
    return cache;
  };
  let copyRows: boolean | undefined;
  try {
    const keep = req.keep && req.listing === 'index' && cache?.sqlite !== null ? req.keep : null;
    if (keep && cache) {
      const signature = JSON.stringify([cache.rows.rulesSignature(), req.owner]);
      if (keep.sqlite !== cache.sqlite || keep.signature !== signature) {
        Object.assign(keep, newContextKeep(), { sqlite: cache.sqlite, signature });
      }
      keep.last = { rowsRead: 0, memoriesMade: 0, memoriesKept: 0 };
    }
    const seen = new Set<string>();
    // The hook's kept checks for files no fresh row stands for (check-cache.ts); the dashboard has its index.
    const checks =
      req.checks !== false && req.listing !== 'index' ? openCheckCache(originCacheDir(req.cache), req.owner) : null;
    // Each folder read once: its layout's detection and its listing share the readdir (read-dir.ts).
    const roots = withSharedReads(() =>
      req.roots.map((r) => {
        const source = describeSource(r);
        seen.add(source.id);
        if (keep && cache && !source.error && isFileSource(source)) {
          try {
            return readKeptRoot(source, req.owner, home, cache.rows, keep);
          } catch {
            keep.sources.delete(source.id); // the rows could not be read this way: as without a keep
          }
        }
        return readContextRoot(
          source,
          req.owner,
          home,
          lazy ? () => cacheNow()?.get(source.id) : cache?.get(source.id),
          req.listing,
          req.onRead,
          checks?.root(source.id, source.root),
          // Only rows checked under these rules and this owner stand, as kept checks do (the scan's own rule, scan.ts).
          lazy ? () => (copyRows ??= cache?.rows.rulesSignature() === rulesSignature(req.owner)) : undefined,
        );
      }),
    );
    checks?.save();
    if (keep) for (const id of [...keep.sources.keys()]) if (!seen.has(id)) keep.sources.delete(id);
    // Claude Code memories written after reading outside content are flagged, never verified (docs/origin.md).
    const dataDir = originCacheDir(req.cache);
    batched(dataDir, () => {
      for (const r of roots) withOriginFlags(r, req.owner, dataDir, Date.now, req.originReadMs, (m) => m.origin);
    });
    // A kept session text holds until the first lifecycle answers differently (text-cache.ts).
    const rec = recorder();
    rec?.until(() => {
      let h = Number.POSITIVE_INFINITY;
      for (const r of roots) for (const m of r.memories) h = Math.min(h, lifecycleHorizon(m.facts, req.now));
      return h;
    });
    return sessionContext({
      roots,
      now: req.now,
      budget: clampBudget(req.budget),
      problems: req.problems,
      lengths: keep?.lengths,
    });
  } finally {
    cache?.close();
  }
}
