/**
 * The PostToolUse stamp (docs/hooks.md "The stamp"): after the
 * assistant wrote a memory, put memtrust's fields right — a new memory becomes
 * inferred, an edited verified memory keeps its tier and gets changed-since-verified —
 * through the one write path (applyToMemory: lock, journal, no-clobber, audit event
 * with actor `assistant`). The file is re-read under the lock; if it changes again
 * before the switch, nothing is written (conflict).
 */
import type { ServiceContext } from '../context';
import { applyToMemory, type TransitionResult } from '../write/transition';
import {
  ORIGIN_SESSION_KEY,
  ORIGIN_TOOL_USE_KEY,
  planAssistantWrite,
  PROTECTED_FIELDS,
} from '../../trust/assistant-write';
import type { PriorState } from '../../hooks/pre-write';
import { takePriorNote } from './hook-prior';
import { sha256 } from '../index/inspect';
import fs from 'node:fs';
import path from 'node:path';

export interface StampRequest {
  /** Real path of the written file (inside a configured root). */
  abs: string;
  /** Its real root and the path relative to it. */
  realRoot: string;
  relPath: string;
  toolName: string;
  toolUseId?: string;
  /** The hook JSON's session_id: stamped as originSessionId when Claude Code wrote none (docs/origin.md). */
  sessionId?: string;
}

export type StampResult = TransitionResult & { priorFrom?: 'pre-write' | 'index' | 'none' };

/** The state before the write when the pre-write note is missing: the index, if it predates the write. */
function priorFromIndex(ctx: ServiceContext, sourceId: string, relPath: string, currentSha: string): PriorState | null {
  const row = ctx.handle.sqlite
    .prepare(
      `SELECT trust_level AS t, created_at AS c, last_verified AS lv, source_machine AS sm, quarantined_at AS qa, mtime_ms AS mt, sha256 AS sha
       FROM entries WHERE source = ? AND rel_path = ?`,
    )
    .get(sourceId, relPath) as
    | {
        t: string | null;
        c: string | null;
        lv: string | null;
        sm: string | null;
        qa: string | null;
        mt: number;
        sha: string;
      }
    | undefined;
  // A row already showing the new bytes was indexed after the write: it says nothing about before.
  if (!row || row.sha === currentSha) return null;
  const fields: Record<string, string> = {};
  if (row.t) fields['trust-level'] = row.t;
  if (row.c) fields['created-at'] = row.c;
  if (row.lv) fields['last-verified'] = row.lv;
  if (row.sm) fields['source-machine'] = row.sm;
  return { relPath, existed: true, sha256: row.sha, mtimeMs: row.mt, fields };
}

export function stampAssistantWrite(ctx: ServiceContext, req: StampRequest): StampResult {
  const source = ctx.sources.find((s) => !s.error && safeReal(s.root) === req.realRoot);
  if (!source) return { ok: false, code: 'not-found', message: `${req.relPath}: its root is not configured` };
  const now = ctx.now();
  let priorFrom: StampResult['priorFrom'] = 'pre-write';
  let prior: PriorState | null = takePriorNote(source.root, ctx.machine, req.toolUseId, req.relPath, now);
  if (!prior) {
    let current: Buffer | null = null;
    try {
      current = fs.readFileSync(req.abs);
    } catch {
      return { ok: false, code: 'not-found', message: `${req.relPath}: not found after the write` };
    }
    // Without an index (the plugin's hooks) only the note can tell: see docs/install.md.
    prior = ctx.noIndex ? null : priorFromIndex(ctx, source.id, req.relPath, sha256(current));
    priorFrom = prior ? 'index' : 'none';
    // Without either, an Edit still proves the file existed: its history is unknown, so inferred.
    if (!prior && req.toolName !== 'Write')
      prior = { relPath: req.relPath, existed: true, sha256: null, mtimeMs: null, fields: {} };
  }
  const before = prior?.existed ? prior : null;
  const opId = req.toolUseId && /^[A-Za-z0-9_-]{1,70}$/.test(req.toolUseId) ? `hook-${req.toolUseId}` : undefined;
  // Named through the configured root, not the real path: a root given through a symlink still matches.
  const ref = path.join(source.root, ...req.relPath.split('/'));
  const result = applyToMemory(ctx, { ref, sourceId: source.id, actor: 'assistant', opId }, (ins, found, at) => {
    if (found.location !== 'memories')
      return { ok: false, code: 'not-a-memory', message: `${found.relPath} is not in the memory folder` };
    const current: Record<string, string> = {};
    for (const k of PROTECTED_FIELDS) if (ins.fields[k] !== undefined) current[k] = ins.fields[k]!;
    const plan = planAssistantWrite({
      prior: before ? before.fields : null,
      priorMtime: before?.mtimeMs != null ? new Date(before.mtimeMs) : undefined,
      current,
      now: at,
      machine: ctx.machine,
      origin: {
        sessionId: req.sessionId,
        toolUseId: req.toolUseId,
        current: { sessionId: ins.fields[ORIGIN_SESSION_KEY], toolUseId: ins.fields[ORIGIN_TOOL_USE_KEY] },
      },
    });
    if (plan.noop)
      return { ok: true, noop: true, from: plan.tier, to: plan.tier, message: `${found.filename}: ${plan.message}` };
    return {
      ok: true,
      noop: false,
      action: plan.action,
      from: plan.from,
      to: plan.to,
      set: plan.set,
      remove: plan.remove,
      move: null,
      reason: plan.reason,
    };
  });
  return { ...result, priorFrom };
}

function safeReal(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}
