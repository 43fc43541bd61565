/**
 * A trust transition, end to end (docs/trust-model.md, docs/audit-trail.md,
 * docs/crash-safety.md): under the root's lock,
 * check preconditions against the file as it is now, journal the intent, write
 * the new bytes beside the destination, fsync, link without clobbering, remove
 * the source, append the audit event, mirror it in the index.
 */
import type { ErrorCode } from '../../core/error-codes';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AuditEvent, Actor, AuditFindingRef, AuditAction, EventTier } from '../../audit/event';
import { rewriteFrontmatter, RewriteError } from '../../memory-file/rewrite';
import { replaceBody } from './compose';
import { decide, type Move } from '../../trust/transitions';
import { fileBlock, restoreRefusal } from '../../trust/allowed';
import { originPromoteBlock } from '../../trust/origin';
import { ORIGIN_REVIEWED } from '../../trust/assistant-write';
import { today } from '../../trust/dates';
import { untrustedOriginOfFound } from '../origin/memory-origin';
import { sanitiseReason } from '../../trust/reason';
import { containsSecret } from '../../validators/withhold';
import { isoNow } from '../../trust/dates';
import type { MemoryAction } from '../../trust/tiers';
import type { ServiceContext } from '../context';
import { sha256, type Inspected } from '../index/inspect';
import { inspectLocated } from '../index/inspect-located';
import { resolveMemory, type Located } from '../index/resolve';
import { unsupportedAction, type SourceInfo } from '../../sources';
import { withRootLock } from './lock';
import { clearIntent, writeIntent, type Intent, type IndexEdit } from './journal';
import {
  fsx,
  fsyncDir,
  linkNoClobber,
  mkdirp,
  renameIfExists,
  statIfExists,
  unlinkIfExists,
  writeFileDurable,
} from './fs-atomic';
import { crashPoint } from './crash';
import { planIndexEdit } from '../claude/index-edit';
import { recordGitRename } from './git';
import { finishIntent } from './finish';
import { recoverSource } from './recover';
import { mirrorIfIndexed, opApplied } from '../index/index-optional';

export interface MemoryRequest {
  /** A filename or a path inside a root. */
  ref: string;
  sourceId?: string;
  actor: Actor;
  /** Operation id: a retry with the same id is applied once. */
  opId?: string;
  /** sha256 of the bytes the user looked at: refuse if the file changed since. */
  expectSha?: string;
  /** The batch this transition belongs to; alone it is a batch of one, its op id (docs/batches.md). */
  batch?: string;
}

export interface TransitionRequest extends MemoryRequest {
  action: MemoryAction;
  reason?: string;
  /** The user was shown the memory's origin (docs/origin.md): promote of an untrusted-origin memory needs it. */
  ackOrigin?: boolean;
}

export type TransitionResult =
  | {
      ok: true;
      noop: boolean;
      op: string;
      memory: string;
      from: string | null;
      to: string | null;
      path: string;
      message: string;
    }
  | { ok: false; code: ErrorCode; message: string; paths?: string[] };

/** What a planner decides for one memory: edits and a move, "nothing to do", or a refusal. */
export type Plan =
  | {
      ok: true;
      noop: false;
      action: AuditAction;
      from: EventTier;
      to: EventTier;
      set: Record<string, string>;
      remove: string[];
      move: Move;
      reason: string | null;
      /** Content edits only (the user's edit-and-save): new body bytes after the rewritten frontmatter. */
      body?: Buffer;
      /** Undo only: the whole file becomes these exact bytes (no frontmatter rewrite; docs/batches.md). */
      bytes?: Buffer;
      /** Repair / field edits: the whole new file, instead of set/remove/body (see lib/service/write/repair.ts). */
      replace?: Buffer;
    }
  | { ok: true; noop: true; from: string | null; to: string | null; message: string }
  | { ok: false; code: ErrorCode; message: string };

export type Planner = (ins: Inspected, found: Located, now: Date) => Plan;

const refuse = (code: ErrorCode, message: string, paths?: string[]): TransitionResult => ({
  ok: false,
  code,
  message,
  paths,
});

/** A trust-model transition (docs/trust-model.md), decided by lib/trust. */
export function transition(ctx: ServiceContext, req: TransitionRequest): TransitionResult {
  // A reason is written to the file, the audit trail and the index: it must not carry a secret.
  if (req.reason && containsSecret(req.reason, ctx.owner())) {
    return refuse(
      'reason-has-secret',
      `${req.action} refused: the reason looks like it contains a secret (a token, key, private address or e-mail); describe the problem without the value`,
    );
  }
  const planner: Planner = (ins, found, now) => {
    const state = {
      validateExit: ins.verdicts.validate.exit,
      secretExit: ins.verdicts.secret.exit,
      findings: ins.findings,
    };
    const d = decide(req.action, ins.facts, {
      now,
      machine: ctx.machine,
      reason: req.reason,
      actor: req.actor === 'validator' ? 'validator' : 'user',
      checks: state,
    });
    // Refusals teach (docs/trust-model.md): a refused restore names each blocking finding and the way out.
    if (!d.ok && d.code === 'validators-fail' && req.action === 'restore') {
      return {
        ok: false,
        code: d.code,
        message: restoreRefusal(found.filename, ins.findings, `${path.posix.dirname(found.relPath)}/`) ?? d.message,
      };
    }
    if (!d.ok || d.noop) return d.ok ? { ok: true, noop: true, from: d.from, to: d.to, message: d.message } : d;
    const unsupported = unsupportedAction(found.source.adapter, req.action);
    if (unsupported) return { ok: false, code: 'refused', message: unsupported };
    // The same file rule the CLI and the dashboard offer actions by (lib/trust/allowed.ts).
    const blocked = req.actor === 'validator' ? null : fileBlock(req.action, state);
    if (blocked) return { ok: false, code: 'file-blocks', message: blocked };
    let set = d.set;
    if (req.action === 'promote') {
      const untrusted = untrustedOriginOfFound(ctx, found, ins);
      const shown = originPromoteBlock(untrusted, req.ackOrigin === true);
      if (shown) return { ok: false, code: 'origin-not-shown', message: shown };
      // Promoted with the origin shown: context stops flagging it (docs/origin.md).
      if (untrusted) set = { ...set, [ORIGIN_REVIEWED]: today(now) };
    }
    const reason = d.set['quarantine-reason'] ?? (sanitiseReason(req.reason ?? '') || null);
    return {
      ok: true,
      noop: false,
      action: req.action,
      from: d.from,
      to: d.to,
      set,
      remove: d.remove,
      move: d.move,
      reason,
    };
  };
  return refusedBeforeLock(ctx, req, planner) ?? applyToMemory(ctx, req, planner);
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
    mirrorIfIndexed(ctx, source);
    if (opApplied(ctx, source, op)) {
      return {
        ok: true,
        noop: true,
        op,
        memory: first.found.filename,
        from: null,
        to: null,
        path: first.found.abs,
        message: `operation ${op} was already applied`,
      };
    }
    // Re-resolve under the lock: another writer may have moved the file meanwhile.
    const again = resolveMemory([source], first.found.filename);
    if (!again.ok) return refuse(again.code, again.message);
    if (again.conflictWith) {
      return refuse(
        'conflict',
        `${again.found.filename} exists in both ${again.found.relPath} and ${again.conflictWith.relPath}: resolve the conflict first (keep one copy)`,
        [again.found.abs, again.conflictWith.abs],
      );
    }
    return applyLocked(ctx, req, op, again.found, planner);
  });
}

/**
 * A request the file already refuses is answered before the root's lock is taken, so a
 * refusal leaves the root exactly as it was — not even a lock or journal folder appears
 * (docs/claude-code-folders.md). Only refusals short-cut: anything else, and any retry of
 * an operation already in the trail, goes through the locked path, which decides again.
 * Used by `transition` (pure planner); other planners go straight to the locked path.
 */
function refusedBeforeLock(ctx: ServiceContext, req: MemoryRequest, planner: Planner): TransitionResult | null {
  const first = resolveMemory(ctx.sources, req.ref, { sourceId: req.sourceId });
  if (!first.ok || first.conflictWith) return null;
  const found = first.found;
  if (req.opId) {
    mirrorIfIndexed(ctx, found.source);
    if (opApplied(ctx, found.source, req.opId)) return null;
  }
  let bytes: Buffer;
  let st: fs.Stats;
  try {
    bytes = fs.readFileSync(found.abs);
    st = fs.statSync(found.abs);
  } catch {
    return null;
  }
  const ins = inspectLocated(ctx, found, bytes, st.mtimeMs);
  const plan = planner(ins, found, ctx.now());
  return plan.ok ? null : refuse(plan.code, plan.message);
}

function applyLocked(
  ctx: ServiceContext,
  req: MemoryRequest,
  op: string,
  found: Located,
  planner: Planner,
): TransitionResult {
  const now = ctx.now();
  const bytes = fs.readFileSync(found.abs);
  const beforeSha = sha256(bytes);
  if (req.expectSha && req.expectSha !== beforeSha) {
    return refuse('conflict', `${found.filename} changed on disk since it was shown: reload and try again`, [
      found.abs,
    ]);
  }
  const st = fs.statSync(found.abs);
  const ins = inspectLocated(ctx, found, bytes, st.mtimeMs);
  const plan = planner(ins, found, now);
  if (!plan.ok) return refuse(plan.code, plan.message);
  if (plan.noop)
    return {
      ok: true,
      noop: true,
      op,
      memory: found.filename,
      from: plan.from,
      to: plan.to,
      path: found.abs,
      message: plan.message,
    };
  let after: Buffer;
  let reason = plan.reason;
  try {
    const edits = { set: keepAge(plan.set, plan.remove, ins), remove: plan.remove };
    after =
      plan.replace ?? (Object.keys(edits.set).length || edits.remove.length ? rewriteFrontmatter(bytes, edits) : bytes);
    if (plan.body) after = replaceBody(after, plan.body);
    if (plan.bytes) after = plan.bytes;
  } catch (e) {
    if (!(e instanceof RewriteError)) throw e;
    // A file whose frontmatter cannot be rewritten safely can still be isolated:
    // quarantine keeps it byte-for-byte, and the audit event carries the facts instead.
    if (plan.action !== 'demote') return refuse('unwritable', `${found.filename}: ${e.message}`);
    after = bytes;
    reason = `${reason ?? 'demoted'} (frontmatter not rewritable, file moved unchanged)`;
  }
  const adapter = found.source.adapter;
  const dstDirRel = plan.move ? adapter.files.dirOf(plan.move.dir, plan.move.month) : path.posix.dirname(found.relPath);
  const dstRel = plan.move ? path.posix.join(dstDirRel, found.filename) : found.relPath;
  const dstAbs = path.join(found.source.root, dstRel);
  if (dstRel !== found.relPath && fs.existsSync(dstAbs)) {
    return refuse(
      'conflict',
      `${found.filename} already exists in ${dstDirRel || 'the memory folder'}: nothing was moved`,
      [found.abs, dstAbs],
    );
  }
  const findings: AuditFindingRef[] =
    req.actor === 'validator'
      ? ins.findings
          .filter(
            (f): f is typeof f & { check: 'validate' | 'secret' } =>
              f.label !== 'WARN-SEMANTIC' && f.check !== 'injection' && f.check !== 'hint',
          )
          .map((f) => ({ check: f.check, code: f.code, line: f.line, message: f.message }))
      : [];
  const event: AuditEvent = {
    v: 1,
    id: op,
    at: isoNow(now),
    machine: ctx.machine,
    actor: req.actor,
    action: plan.action,
    memory: found.filename,
    from: plan.from,
    to: plan.to,
    reason,
    findings,
    before_sha256: beforeSha,
    after_sha256: sha256(after),
    recovered: false,
    batch: req.batch ?? op,
  };
  const indexEdit: IndexEdit | undefined = planIndexEdit(found, plan.from, plan.to, ins.fields);
  const tmpRel = path.posix.join(dstDirRel, `.${found.filename}.${op}.tmp`);
  const intent: Intent = {
    v: 1,
    op,
    machine: ctx.machine,
    src: found.relPath,
    dst: dstRel,
    tmp: tmpRel,
    beforeSha,
    afterSha: event.after_sha256!,
    event,
    indexEdit,
  };
  return execute(ctx, found, intent, after);
}

/**
 * Age is never reset (docs/trust-model.md; docs/claude-code-folders.md): a file shown with its
 * mtime as created gets that value written as `created-at` by the first rewrite, so a
 * transition never makes a memory younger than it was shown.
 */
export function keepAge(set: Record<string, string>, remove: string[], ins: Inspected): Record<string, string> {
  const rewrites = Object.keys(set).length > 0 || remove.length > 0;
  if (!rewrites || ins.fields['created-at'] || 'created-at' in set) return set;
  return { ...set, 'created-at': isoNow(ins.facts.mtime) };
}

/** The private name, in the source's folder, a source is moved to while a transition commits. */
export function asideOf(src: string, op: string): string {
  return path.posix.join(path.posix.dirname(src), `.${path.posix.basename(src)}.${op}.aside.tmp`);
}

/**
 * The durable steps (docs/crash-safety.md, "A transition"); every point between
 * them is covered by recover.ts. The source is first moved out of the way
 * atomically (renamed to a private name in its folder); only if the moved bytes
 * are the ones planned from is the new copy linked into place, never clobbering.
 * A save that lands at any moment therefore either reaches the bytes we compare
 * (refused), or creates a new file at the old place (seen before the commit:
 * refused), or comes after the commit (a newer save, kept). On a refusal
 * everything is put back and nothing is recorded.
 *
 * An intent with `beforeSha: ''` is a create: there is no source, the new copy is
 * linked to a name that must not exist.
 */
export function execute(
  ctx: ServiceContext,
  found: Located<SourceInfo>,
  planned: Intent,
  after: Buffer,
): TransitionResult {
  const root = found.source.root;
  const abs = (rel: string) => path.join(root, rel);
  const create = planned.beforeSha === '';
  const intent: Intent = { ...planned, v: 2, aside: create ? undefined : asideOf(planned.src, planned.op) };
  const name = found.filename;
  const src = abs(intent.src);
  const dst = abs(intent.dst);
  const tmp = abs(intent.tmp);
  const aside = intent.aside ? abs(intent.aside) : '';
  const inPlace = intent.dst === intent.src;
  writeIntent(root, intent);
  crashPoint('after-journal');
  mkdirp(path.dirname(dst));
  unlinkIfExists(tmp);
  writeFileDurable(tmp, after);
  crashPoint('after-temp-write');
  const refused = (message: string, paths: string[]): TransitionResult => {
    unlinkIfExists(tmp);
    clearIntent(root, ctx.machine, intent.op);
    return refuse('conflict', message, paths);
  };
  /** The source back at its place, unless a newer save took it (then the held copy is superseded). */
  const putBack = () => {
    linkNoClobber(aside, src);
    unlinkIfExists(aside);
    fsyncDir(path.dirname(src));
  };
  const changed = `${name} changed on disk while the transition ran: nothing was written`;
  if (!create) {
    if (!renameIfExists(src, aside))
      return refused(`${name} was removed or moved while the transition ran: nothing was written`, [src]);
    crashPoint('after-aside');
    // Last look, at bytes nobody else can reach by name any more.
    if (sha256(fsx.readFileSync(aside)) !== intent.beforeSha) {
      putBack();
      return refused(changed, [src]);
    }
  }
  if (!linkNoClobber(tmp, dst)) {
    if (!create) putBack();
    if (inPlace) return refused(create ? `${name} appeared meanwhile: nothing was written` : changed, [dst]);
    return refused(`${name} appeared in the destination meanwhile: nothing was moved`, [src, dst]);
  }
  fsyncDir(path.dirname(dst));
  crashPoint('after-link');
  if (!create) {
    // A save made through a file opened before the rename lands in the held copy; one made
    // after it creates a new file at the old place. Either undoes the switch.
    const held = sha256(fsx.readFileSync(aside));
    if (held !== intent.beforeSha || (!inPlace && statIfExists(src))) {
      if (sha256(fsx.readFileSync(dst)) === intent.afterSha) unlinkIfExists(dst);
      putBack();
      return refused(changed, [src]);
    }
    // The commit point: from here recovery rolls forward.
    unlinkIfExists(aside);
    fsyncDir(path.dirname(src));
    crashPoint('after-source-unlink');
    if (!inPlace && !intent.trash) recordGitRename(root, intent.src, intent.dst);
  }
  finishIntent(ctx, found.source, intent, false);
  const e = intent.event;
  const moved = !inPlace ? ` (moved to ${intent.dst})` : '';
  return {
    ok: true,
    noop: false,
    op: intent.op,
    memory: name,
    from: e.from,
    to: e.to,
    path: dst,
    message: `${name}: ${e.action} done, ${e.from ?? 'no trust-level'} → ${e.to}${moved}`,
  };
}
