/**
 * Where a Claude Code memory came from (docs/origin.md; CONTRACT §3.1): its session's
 * transcript, found from `originSessionId` beside the memory folder, read in one bounded
 * pass (lib/origin) and kept by size and mtime (./origin-cache.ts). Every failure — no
 * session id, no transcript, an unreadable one, no write of this file in it — is an
 * "origin unknown" answer with the reason, never an error.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  scanSession,
  scanSessionAsync,
  type FileWrite,
  type SessionFacts,
  type SessionScan,
} from '../../origin/session-scan';
import { maskValues } from '../../validators/mask-inline';
import type { OwnerIdentity } from '../../validators/types';
import { originFlagNames, originFlags, type UntrustedOrigin } from '../../trust/origin';
import { cachedScan, keepScan, type CachedScan } from './origin-cache';

/** Characters of the user's message shown. */
export const USER_MESSAGE_SHOWN = 200;
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export interface OriginKnown {
  status: 'known';
  session: { id: string; project: string; startedAt: string | null; cwd: string | null; transcript: string };
  write: {
    tool: string;
    toolUseId: string;
    at: string | null;
    /** Transcript line and user turn (the transcript view opens at that turn). */
    line: number;
    turn: number;
    sidechain: boolean;
    /** Calls that wrote the file in this session (the last is shown). */
    count: number;
  };
  /** The user message of that turn: its first 200 characters, masked. */
  userMessage: string | null;
  flags: string[];
  untrustedOrigin: UntrustedOrigin | null;
  userRequested: boolean;
}

export interface OriginUnknown {
  status: 'unknown';
  why: string;
  /**
   * Only with `cacheOnly`: the transcript exists but its pass is not in the cache yet; the
   * dashboard reads it in the background and shows "reading the session transcript…"
   * meanwhile (docs/origin.md "In the dashboard"). Never in `show --json`.
   */
  reading?: true;
  /** With `reading`: the transcript to read. */
  transcript?: string;
}

export type MemoryOrigin = OriginKnown | OriginUnknown;

export interface OriginRequest {
  /** The memory's root (a Claude Code folder: `…/projects/<project>/memory`). */
  root: string;
  /** Its current path, and its filename (a quarantined memory was written at `<root>/<filename>`). */
  abs: string;
  filename: string;
  sessionId: string | undefined;
  owner: OwnerIdentity;
  /** Where the cross-process cache file lives (null: memory only). */
  dataDir: string | null;
  /**
   * Use a cached pass only; a transcript not read before is "origin unknown" with
   * `reading: true` (a time allowance ran out, or a page that must not wait). A pass of a
   * transcript that has only grown since is used when the memory was last written before
   * that pass (origin-cache.ts `cachedScan`).
   */
  cacheOnly?: boolean;
}

const unknown = (why: string): OriginUnknown => ({ status: 'unknown', why });

/** The transcript a session id names, confined to the project folder; a reason when there is none. */
export function transcriptPath(root: string, sessionId: string | undefined): { file: string } | { why: string } {
  if (!sessionId) return { why: 'no originSessionId in the frontmatter' };
  if (!SESSION_ID.test(sessionId)) return { why: 'originSessionId is not a session id' };
  const projectDir = path.dirname(path.resolve(root));
  const file = path.join(projectDir, `${sessionId}.jsonl`);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return { why: `no transcript for session ${sessionId} beside the memory folder (Claude Code may have removed it)` };
  }
  if (!st.isFile()) return { why: `the transcript of session ${sessionId} is not a regular file` };
  return { file };
}

/** Mask first, cut after, and never through a mask (a cut secret would escape the detector). */
export function maskAndCut(text: string, owner: OwnerIdentity, max: number): string {
  const masked = maskValues(text, owner).text;
  const chars = [...masked];
  if (chars.length <= max) return masked;
  let out = chars.slice(0, max).join('');
  const open = out.lastIndexOf('⟦');
  if (open !== -1 && out.indexOf('⟧', open) === -1) {
    const close = masked.indexOf('⟧', open);
    out = close === -1 ? out.slice(0, open) : masked.slice(0, close + 1);
  }
  return `${out}…`;
}

/** A transcript's pass, or why there is none (`reading`: not in the cache, and the caller would not wait). */
export type ScanAnswer = { ok: true; scan: CachedScan } | { ok: false; why: string; reading?: true };

const cannotRead = (e: unknown): { ok: false; why: string } => ({
  ok: false,
  why: `the transcript cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
});

/** Masks what a pass keeps and keeps it in the cache under the size and mtime it was read at. */
function keepPass(
  file: string,
  st: fs.Stats,
  s: SessionScan,
  owner: OwnerIdentity,
  dataDir: string | null,
): CachedScan {
  const writes: FileWrite[] = [];
  for (const w of s.writes.values()) {
    writes.push({
      ...w,
      userText: w.userText === null ? null : maskValues(w.userText, owner).text,
      reads: w.reads.map((r) => ({ ...r, source: maskValues(r.source, owner).text })),
    });
  }
  const scan: CachedScan = { size: st.size, mtimeMs: st.mtimeMs, facts: s.facts, writes };
  keepScan(file, scan, dataDir);
  return scan;
}

/** The transcript's pass, from the cache or read now (masked before it is kept). */
export function sessionScan(
  file: string,
  owner: OwnerIdentity,
  dataDir: string | null,
  cacheOnly = false,
  /** With cacheOnly: the memory's mtime, so a pass of a transcript that only grew since still answers. */
  writtenMs?: number,
): ScanAnswer {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (e) {
    return cannotRead(e);
  }
  const hit = cachedScan(file, st, dataDir, cacheOnly ? writtenMs : undefined);
  if (hit) return { ok: true, scan: hit };
  if (cacheOnly) return { ok: false, why: 'the session transcript has not been read yet', reading: true };
  try {
    return { ok: true, scan: keepPass(file, st, scanSession(file), owner, dataDir) };
  } catch (e) {
    return cannotRead(e);
  }
}

/**
 * The same pass read asynchronously, chunk by chunk (lib/origin/lines.ts `eachLineAsync`):
 * the dashboard's background reading, which never holds up a request.
 */
export async function sessionScanAsync(
  file: string,
  owner: OwnerIdentity,
  dataDir: string | null,
): Promise<ScanAnswer> {
  let st: fs.Stats;
  try {
    st = await fs.promises.stat(file);
  } catch (e) {
    return cannotRead(e);
  }
  const hit = cachedScan(file, st, dataDir);
  if (hit) return { ok: true, scan: hit };
  try {
    return { ok: true, scan: keepPass(file, st, await scanSessionAsync(file), owner, dataDir) };
  } catch (e) {
    return cannotRead(e);
  }
}

/** The write of this memory in the pass: the call whose file_path is the memory's path. */
function findWrite(scan: CachedScan, req: OriginRequest): FileWrite | null {
  const wanted = new Set<string>();
  const add = (p: string) => {
    wanted.add(path.resolve(p));
    try {
      wanted.add(fs.realpathSync(p));
    } catch {
      // gone or moved: the plain path is enough
    }
  };
  add(req.abs);
  add(path.join(req.root, req.filename));
  let found: FileWrite | null = null;
  for (const w of scan.writes) {
    const base = w.cwd ?? scan.facts.cwd ?? '/';
    if (wanted.has(path.resolve(base, w.filePath)) && (!found || w.line > found.line)) found = w;
  }
  return found;
}

export function memoryOrigin(req: OriginRequest): MemoryOrigin {
  const t = transcriptPath(req.root, req.sessionId);
  if ('why' in t) return unknown(t.why);
  const r = sessionScan(t.file, req.owner, req.dataDir, req.cacheOnly, req.cacheOnly ? writtenMs(req.abs) : undefined);
  if (!r.ok) return r.reading ? { ...unknown(r.why), reading: true, transcript: t.file } : unknown(r.why);
  const w = findWrite(r.scan, req);
  if (!w) return unknown(`session ${req.sessionId}'s transcript has no Write, Edit or MultiEdit of ${req.filename}`);
  return knownOrigin(r.scan.facts, w, req, t.file);
}

function writtenMs(abs: string): number | undefined {
  try {
    return fs.statSync(abs).mtimeMs;
  } catch {
    return undefined;
  }
}

function knownOrigin(facts: SessionFacts, w: FileWrite, req: OriginRequest, transcript: string): OriginKnown {
  const flags = originFlags({
    reads: w.reads,
    userText: w.userText,
    cwd: w.cwd ?? facts.cwd ?? undefined,
    memoryDir: path.resolve(req.root),
  });
  return {
    status: 'known',
    session: {
      id: facts.sessionId ?? req.sessionId!,
      project: path.basename(path.dirname(path.resolve(req.root))),
      startedAt: facts.startedAt,
      cwd: facts.cwd,
      transcript,
    },
    write: {
      tool: w.tool,
      toolUseId: w.toolUseId,
      at: w.at,
      line: w.line,
      turn: w.turn,
      sidechain: w.sidechain,
      count: w.writes,
    },
    userMessage: w.userText === null ? null : maskAndCut(w.userText, req.owner, USER_MESSAGE_SHOWN),
    flags: originFlagNames(flags),
    untrustedOrigin: flags.untrustedOrigin,
    userRequested: flags.userRequested,
  };
}

/** Just the untrusted-origin part, for the rules that need no more (promote, backfill, context). */
export function untrustedOriginOf(req: OriginRequest): UntrustedOrigin | null {
  const o = memoryOrigin(req);
  return o.status === 'known' ? o.untrustedOrigin : null;
}
