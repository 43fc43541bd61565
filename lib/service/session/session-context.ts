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
import { describeSource, type SourceInfo } from '../../sources';
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
}

interface CachedRow {
  size: number;
  mtimeMs: number;
  name: string | null;
  trustLevel: string | null;
  type: string | null;
  createdAt: string | null;
  lastVerified: string | null;
  secretExit: number;
  injectionExit: number;
  body: string;
  credentialLines: number[];
}

type Cache = (sourceId: string) => Map<string, CachedRow>;

/** Rows of one source keyed by rel_path; any failure (no file, old schema, locked) means no cache. */
function openCache(db: string | Database.Database | null | undefined): { get: Cache; close(): void } | null {
  if (!db) return null;
  let sqlite: Database.Database;
  let own = false;
  try {
    if (typeof db === 'string') {
      if (!fs.existsSync(db)) return null;
      sqlite = new Database(db, { readonly: true, fileMustExist: true });
      own = true;
    } else sqlite = db;
    const rows = sqlite.prepare(
      `SELECT rel_path AS relPath, size, mtime_ms AS mtimeMs, name, trust_level AS trustLevel, type, created_at AS createdAt,
              last_verified AS lastVerified, secret_exit AS secretExit, injection_exit AS injectionExit, body
       FROM memories WHERE source = ? AND location = 'memories' AND error IS NULL`,
    );
    const secrets = sqlite.prepare(
      `SELECT key, code, line FROM findings WHERE "check" = 'secret' AND key >= ? AND key < ?`,
    );
    const get: Cache = (sourceId) => {
      const out = new Map<string, CachedRow>();
      try {
        for (const r of rows.iterate(sourceId) as Iterable<CachedRow & { relPath: string }>)
          out.set(r.relPath, { ...r, credentialLines: [] });
        const prefix = `${sourceId}:`;
        for (const f of secrets.iterate(prefix, `${sourceId};`) as Iterable<{
          key: string;
          code: string;
          line: number | null;
        }>) {
          if (findingClass(f.code) !== 'credential') continue;
          const row = out.get(f.key.slice(prefix.length));
          if (row && !row.credentialLines.includes(f.line ?? 1)) row.credentialLines.push(f.line ?? 1);
        }
      } catch {
        out.clear();
      }
      for (const r of out.values()) r.credentialLines.sort((a, b) => a - b);
      return out;
    };
    return { get, close: () => (own ? sqlite.close() : undefined) };
  } catch {
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

/** One root as the planner needs it. */
export function readContextRoot(
  source: SourceInfo,
  owner: OwnerIdentity,
  home: string,
  cache?: Map<string, CachedRow>,
): ContextRootInput {
  const base = { id: source.id, root: source.root, display: display(source.root, home), layout: source.kind };
  if (source.error) return { ...base, error: source.error, memories: [] };
  let files: ReturnType<typeof source.adapter.list>;
  try {
    files = source.adapter.list(source.root);
  } catch (e) {
    return { ...base, error: `could not be listed: ${(e as Error).message}`, memories: [] };
  }
  const bodies = source.kind === 'trust-root';
  const inMemories = new Set(files.filter((f) => f.location === 'memories').map((f) => f.filename));
  const inQuarantine = new Set(files.filter((f) => f.location === 'quarantine').map((f) => f.filename));
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
    const row = cache?.get(f.relPath);
    const fresh = row && row.size === f.size && row.mtimeMs === f.mtimeMs;
    // The row's body is the file's body unless a secret line was redacted or it was capped.
    if (
      fresh &&
      (!bodies || row.credentialLines.length > 0 || (row.secretExit === 0 && row.body.length < BODY_INDEX_CHARS))
    ) {
      m.name = row.name ?? '';
      Object.assign(m.facts, {
        trustLevel: row.trustLevel ?? undefined,
        type: row.type ?? undefined,
        createdAt: row.createdAt ?? undefined,
        lastVerified: row.lastVerified ?? undefined,
      });
      m.credentialLines = row.credentialLines;
      m.injection = row.injectionExit !== 0;
      if (bodies && row.credentialLines.length === 0) m.body = row.body;
      continue;
    }
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
      m.credentialLines = credentialLines(bytes, owner);
      m.injection = injectionCheck(bytes).exit !== 0;
      if (bodies && m.credentialLines.length === 0) m.body = body.toString('utf8');
    } catch (e) {
      m.problem = `unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
    }
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
      return readContextRoot(source, req.owner, home, cache?.get(source.id));
    });
    return sessionContext({ roots, now: req.now, budget: clampBudget(req.budget), problems: req.problems });
  } finally {
    cache?.close();
  }
}
