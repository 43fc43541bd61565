/**
 * A trust transition, end to end (CONTRACT §3, §5, §6): under the root's lock,
 * check preconditions against the file as it is now, journal the intent, write
 * the new bytes beside the destination, fsync, link without clobbering, remove
 * the source, append the audit event, mirror it in the index.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AuditEvent, Actor, AuditFindingRef, AuditAction, EventTier } from '../audit/event';
import { rewriteFrontmatter, RewriteError } from '../memory-file/rewrite';
import { replaceBody } from './compose';
import { decide, type Move } from '../trust/transitions';
import { sanitiseReason } from '../trust/reason';
import { containsSecret } from '../validators/withhold';
import { isoNow } from '../trust/dates';
import type { MemoryAction } from '../trust/tiers';
import type { ServiceContext } from './context';
import { inspect, sha256, type Inspected } from './inspect';
import { resolveMemory, type Located } from './resolve';
import { withRootLock } from './lock';
import { clearIntent, writeIntent, type Intent, type IndexEdit } from './journal';
import { fsyncDir, linkNoClobber, unlinkIfExists, writeFileDurable } from './fs-atomic';
import { crashPoint } from './crash';
import { planIndexEdit } from './index-edit';
import { recordGitRename } from './git';
import { eventApplied } from './index-commit';
import { finishIntent } from './finish';
import { recoverSource } from './recover';
import { mirrorAudit } from './audit-mirror';

export interface MemoryRequest {
  /** A filename or a path inside a root. */
  ref: string;
  sourceId?: string;
  actor: Actor;
  /** Operation id: a retry with the same id is applied once. */
  opId?: string;
  /** sha256 of the bytes the user looked at: refuse if the file changed since. */
  expectSha?: string;
}

export interface TransitionRequest extends MemoryRequest {
  action: MemoryAction;
  reason?: string;
}

export type TransitionResult =
  | { ok: true; noop: boolean; op: string; memory: string; from: string | null; to: string | null; path: string; message: string }
  | { ok: false; code: string; message: string; paths?: string[] };

/** What a planner decides for one memory: edits and a move, "nothing to do", or a refusal. */
export type Plan =
  | {
      ok: true; noop: false; action: AuditAction; from: EventTier; to: EventTier; set: Record<string, string>; remove: string[]; move: Move; reason: string | null;
      /** Content edits only (the user's edit-and-save): new body bytes after the rewritten frontmatter. */
      body?: Buffer;
      /** Repair / field edits: the whole new file, instead of set/remove/body (see lib/service/repair.ts). */
      replace?: Buffer;
    }
  | { ok: true; noop: true; from: string | null; to: string | null; message: string }
  | { ok: false; code: string; message: string };

export type Planner = (ins: Inspected, found: Located, now: Date) => Plan;

const refuse = (code: string, message: string, paths?: string[]): TransitionResult => ({ ok: false, code, message, paths });

/** A trust-model transition (CONTRACT §3), decided by lib/trust. */
export function transition(ctx: ServiceContext, req: TransitionRequest): TransitionResult {
  // A reason is written to the file, the audit trail and the index: it must not carry a secret.
  if (req.reason && containsSecret(req.reason, ctx.owner())) {
    return refuse('reason-has-secret', `${req.action} refused: the reason looks like it contains a secret (a token, key, private address or e-mail); describe the problem without the value`);
  }
  return applyToMemory(ctx, req, (ins, _found, now) => {
    const d = decide(req.action, ins.facts, {
      now,
      machine: ctx.machine,
      reason: req.reason,
      actor: req.actor === 'validator' ? 'validator' : 'user',
      checks: { validateExit: ins.verdicts.validate.exit, secretExit: ins.verdicts.secret.exit },
    });
    if (!d.ok || d.noop) return d.ok ? { ok: true, noop: true, from: d.from, to: d.to, message: d.message } : d;
    const reason = d.set['quarantine-reason'] ?? (sanitiseReason(req.reason ?? '') || null);
    return { ok: true, noop: false, action: req.action, from: d.from, to: d.to, set: d.set, remove: d.remove, move: d.move, reason };
  });
}

/** Locks the memory's root, recovers, checks idempotency, re-reads the file and runs the planner. */
export function applyToMemory(ctx: ServiceContext, req: MemoryRequest, planner: Planner): TransitionResult {
  const op = req.opId ?? crypto.randomUUID();
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(op)) return refuse('bad-op', 'operation id must be 1–80 letters, digits, - or _');
  const first = resolveMemory(ctx.sources, req.ref, { sourceId: req.sourceId });
  if (!first.ok) return refuse(first.code, first.message);
  const source = first.found.source;
  return withRootLock(source.root, ctx.machine, () => {
    recoverSource(ctx, source);
    mirrorAudit(ctx.handle.sqlite, source.id, source.root);
    if (eventApplied(ctx.handle.sqlite, source.id, op)) {
      return { ok: true, noop: true, op, memory: first.found.filename, from: null, to: null, path: first.found.abs, message: `operation ${op} was already applied` };
    }
    // Re-resolve under the lock: another writer may have moved the file meanwhile.
    const again = resolveMemory([source], first.found.filename);
    if (!again.ok) return refuse(again.code, again.message);
    if (again.conflictWith) {
      return refuse('conflict', `${again.found.filename} exists in both ${again.found.relPath} and ${again.conflictWith.relPath}: resolve the conflict first (keep one copy)`, [again.found.abs, again.conflictWith.abs]);
    }
    return applyLocked(ctx, req, op, again.found, planner);
  });
}

function applyLocked(ctx: ServiceContext, req: MemoryRequest, op: string, found: Located, planner: Planner): TransitionResult {
  const now = ctx.now();
  const bytes = fs.readFileSync(found.abs);
  const beforeSha = sha256(bytes);
  if (req.expectSha && req.expectSha !== beforeSha) {
    return refuse('conflict', `${found.filename} changed on disk since it was shown: reload and try again`, [found.abs]);
  }
  const st = fs.statSync(found.abs);
  const ins = inspect(bytes, { filename: found.filename, location: found.location, mtimeMs: st.mtimeMs }, ctx.owner());
  const plan = planner(ins, found, now);
  if (!plan.ok) return refuse(plan.code, plan.message);
  if (plan.noop) return { ok: true, noop: true, op, memory: found.filename, from: plan.from, to: plan.to, path: found.abs, message: plan.message };
  let after: Buffer;
  let reason = plan.reason;
  try {
    const edits = { set: plan.set, remove: plan.remove };
    after = plan.replace ?? (Object.keys(edits.set).length || edits.remove.length ? rewriteFrontmatter(bytes, edits) : bytes);
    if (plan.body) after = replaceBody(after, plan.body);
  } catch (e) {
    if (!(e instanceof RewriteError)) throw e;
    // A file whose frontmatter cannot be rewritten safely can still be isolated:
    // quarantine keeps it byte-for-byte, and the audit event carries the facts instead.
    if (plan.action !== 'demote') return refuse('unwritable', `${found.filename}: ${e.message}`);
    after = bytes;
    reason = `${reason ?? 'demoted'} (frontmatter not rewritable, file moved unchanged)`;
  }
  const adapter = found.source.adapter;
  const dstDirRel = plan.move ? adapter.dirOf(plan.move.dir, plan.move.month) : path.posix.dirname(found.relPath);
  const dstRel = plan.move ? path.posix.join(dstDirRel, found.filename) : found.relPath;
  const dstAbs = path.join(found.source.root, dstRel);
  if (dstRel !== found.relPath && fs.existsSync(dstAbs)) {
    return refuse('conflict', `${found.filename} already exists in ${dstDirRel || 'the memory folder'}: nothing was moved`, [found.abs, dstAbs]);
  }
  const findings: AuditFindingRef[] = req.actor === 'validator'
    ? ins.findings.filter((f) => f.label !== 'WARN-SEMANTIC' && f.check !== 'injection').map((f) => ({ check: f.check, code: f.code, line: f.line, message: f.message }))
    : [];
  const event: AuditEvent = {
    v: 1, id: op, at: isoNow(now), machine: ctx.machine, actor: req.actor, action: plan.action, memory: found.filename,
    from: plan.from, to: plan.to, reason, findings, before_sha256: beforeSha, after_sha256: sha256(after), recovered: false,
  };
  const indexEdit: IndexEdit | undefined = planIndexEdit(found, plan.from, plan.to, ins.fields);
  const tmpRel = path.posix.join(dstDirRel, `.${found.filename}.${op}.tmp`);
  const intent: Intent = { v: 1, op, machine: ctx.machine, src: found.relPath, dst: dstRel, tmp: tmpRel, beforeSha, afterSha: event.after_sha256!, event, indexEdit };
  return execute(ctx, found, intent, after);
}

/** The durable steps; every crash point between them is covered by recover.ts. */
function execute(ctx: ServiceContext, found: Located, intent: Intent, after: Buffer): TransitionResult {
  const root = found.source.root;
  const abs = (rel: string) => path.join(root, rel);
  writeIntent(root, intent);
  crashPoint('after-journal');
  fs.mkdirSync(path.dirname(abs(intent.dst)), { recursive: true });
  unlinkIfExists(abs(intent.tmp));
  writeFileDurable(abs(intent.tmp), after);
  crashPoint('after-temp-write');
  // Last look before the switch: a file edited since we read it is never overwritten.
  const current = fs.readFileSync(abs(intent.src));
  if (sha256(current) !== intent.beforeSha) {
    unlinkIfExists(abs(intent.tmp));
    clearIntent(root, ctx.machine, intent.op);
    return refuse('conflict', `${found.filename} changed on disk while the transition ran: nothing was written`, [abs(intent.src)]);
  }
  if (intent.dst === intent.src) {
    fs.renameSync(abs(intent.tmp), abs(intent.src));
    fsyncDir(path.dirname(abs(intent.src)));
    crashPoint('after-link');
  } else {
    if (!linkNoClobber(abs(intent.tmp), abs(intent.dst))) {
      unlinkIfExists(abs(intent.tmp));
      clearIntent(root, ctx.machine, intent.op);
      return refuse('conflict', `${found.filename} appeared in the destination meanwhile: nothing was moved`, [abs(intent.src), abs(intent.dst)]);
    }
    fsyncDir(path.dirname(abs(intent.dst)));
    crashPoint('after-link');
    unlinkIfExists(abs(intent.tmp));
    crashPoint('after-temp-unlink');
    unlinkIfExists(abs(intent.src));
    fsyncDir(path.dirname(abs(intent.src)));
    crashPoint('after-source-unlink');
    recordGitRename(root, intent.src, intent.dst);
  }
  finishIntent(ctx, found.source, intent, false);
  const e = intent.event;
  const moved = intent.dst !== intent.src ? ` (moved to ${intent.dst})` : '';
  return {
    ok: true, noop: false, op: intent.op, memory: found.filename, from: e.from, to: e.to, path: abs(intent.dst),
    message: `${found.filename}: ${e.action} done, ${e.from ?? 'no trust-level'} → ${e.to}${moved}`,
  };
}
