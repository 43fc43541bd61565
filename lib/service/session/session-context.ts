/**
 * `memtrust context`: what an assistant session gets (docs/session-context.md), from the files as
 * they are this second. The index database is only a cache of checks: a file whose size
 * and mtime match its row (the scan's own freshness rule) takes its fields, findings and
 * body from the row; anything else is read and checked here. Never throws: a hook must
 * not block a session, so every problem becomes a line inside the text.
 * Decisions: docs/session-context.md.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import os from 'node:os';
import path from 'node:path';
import type { Env } from '../../env';
import { describeSource, type ListedFile, type SourceInfo } from '../../sources';
import { contextRows, type ContextIndexRow, type ContextOtherRow } from '../../../db/queries/context-rows';
import { BODY_INDEX_CHARS, readFields } from '../index/inspect';
import { findingClass } from '../../validators/types';
import { readSettings } from '../../settings';
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
  type LazyBody,
} from '../../trust/context';
import { readIndex } from '../claude/claude-index';

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
}

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
    return { get, close };
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
  if (st.isSymbolicLink())
    return { relPath, filename, location, size: 0, mtimeMs: 0, refused: 'symlinked memory files are refused' };
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
 * Takes a memory from its row when the row can stand for the file: its fields and checks
 * always, its body unless a secret line was redacted from the stored body or it was
 * capped. The body stays in the index until the planner quotes or measures it.
 */
function fromRow(m: ContextMemory, row: CachedRow, bodies: boolean, rows: SourceRows): boolean {
  const length = row.asciiLength ?? row.wide?.length ?? 0;
  const withheld = row.credentialLines.length > 0;
  if (bodies && !withheld && !(row.secretExit === 0 && length < BODY_INDEX_CHARS)) return false;
  m.name = row.name ?? '';
  Object.assign(m.facts, {
    trustLevel: row.trustLevel ?? undefined,
    type: row.type ?? undefined,
    createdAt: row.createdAt ?? undefined,
    lastVerified: row.lastVerified ?? undefined,
  });
  m.credentialLines = row.credentialLines;
  m.injection = row.injectionExit !== 0;
  if (bodies && !withheld) {
    const relPath = row.relPath;
    m.body =
      row.wide ??
      ({
        trimmedLength: row.asciiTrimmed ?? 0,
        read: () => {
          const body = rows.body(relPath);
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
  checked?: CachedRow,
): void {
  try {
    const bytes = fs.readFileSync(path.join(source.root, f.relPath));
    const { fields, body } = readFields(bytes);
    m.name = fields.name ?? '';
    Object.assign(m.facts, {
      trustLevel: fields['trust-level'],
      type: fields.type,
      createdAt: fields['created-at'],
      lastVerified: fields['last-verified'],
    });
    m.credentialLines = checked ? checked.credentialLines : credentialLines(bytes, owner);
    m.injection = checked ? checked.injectionExit !== 0 : injectionCheck(bytes).exit !== 0;
    if (bodies && m.credentialLines.length === 0) m.body = body.toString('utf8');
  } catch (e) {
    m.problem = `unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}

/**
 * One root as the planner needs it. `rows`: the index's rows of this source (a cache, or
 * with `listing: 'index'` the list itself).
 */
export function readContextRoot(
  source: SourceInfo,
  owner: OwnerIdentity,
  home: string,
  rows?: SourceRows | null,
  listing: 'disk' | 'index' = 'disk',
): ContextRootInput {
  const base = { id: source.id, root: source.root, display: display(source.root, home), layout: source.kind };
  if (source.error) return { ...base, error: source.error, memories: [] };
  let files: ListedFile[];
  try {
    files =
      listing === 'index' && rows && !source.records ? listFromIndex(source, rows) : source.adapter.list(source.root);
  } catch (e) {
    return { ...base, error: `could not be listed: ${(e as Error).message}`, memories: [] };
  }
  const bodies = source.kind === 'trust-root';
  const inMemories = new Set<string>();
  const inQuarantine = new Set<string>();
  for (const f of files) {
    if (f.location === 'memories') inMemories.add(f.filename);
    else if (f.location === 'quarantine') inQuarantine.add(f.filename);
  }
  const memories: ContextMemory[] = [];
  for (const f of files) {
    const conflict = f.location !== 'archive' && inMemories.has(f.filename) && inQuarantine.has(f.filename);
    const m: ContextMemory = {
      id: `${source.id}:${f.filename}`,
      filename: f.filename,
      name: '',
      body: '',
      facts: { filename: f.filename, location: f.location, mtime: new Date(f.mtimeMs), conflict },
      credentialLines: [],
      injection: false,
    };
    memories.push(m);
    // quarantine/ and archive/ are never loaded and their tier is their directory: no read.
    if (f.location !== 'memories') continue;
    if (f.refused) {
      m.problem = f.refused;
      continue;
    }
    if (f.size > FILE_CAP_BYTES) {
      m.problem = `too large to load (${f.size} bytes)`;
      continue;
    }
    const row = rows?.memories.get(f.relPath);
    // The scan's own freshness rule: same size and mtime; a row with an error is no cache.
    const fresh = row && row.error === null && row.size === f.size && row.mtimeMs === f.mtimeMs;
    if (fresh && fromRow(m, row, bodies, rows!)) continue;
    fromFile(m, source, f, owner, bodies, fresh ? row : undefined);
  }
  memories.sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
  if (!source.adapter.indexFile) return { ...base, memories };
  const text = readIndex(source.root, source.adapter.indexFile);
  return {
    ...base,
    memories,
    index: { text, credentialLines: text === null ? [] : credentialLines(Buffer.from(text, 'utf8'), owner) },
  };
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
    .filter((s) => s.adapter.indexFile && !s.error)
    .map((s) => {
      try {
        const st = fs.statSync(path.join(s.root, s.adapter.indexFile!));
        return `${s.id}:${st.size}:${st.mtimeMs}`;
      } catch {
        return `${s.id}:-`;
      }
    });
  return `context:${JSON.stringify([sources.map((s) => s.root), setting, now.toISOString().slice(0, 16), indexFiles])}`;
}

export function buildSessionContext(req: ContextRequest): ContextPlan {
  const home = req.home ?? os.homedir();
  const cache = openCache(req.cache);
  try {
    const roots = req.roots.map((r) => {
      const source = describeSource(r);
      return readContextRoot(source, req.owner, home, cache?.get(source.id), req.listing);
    });
    return sessionContext({ roots, now: req.now, budget: clampBudget(req.budget), problems: req.problems });
  } finally {
    cache?.close();
  }
}
