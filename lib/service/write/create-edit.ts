/**
 * Adding and editing memories in the dashboard (docs/trust-model.md "Transitions"): a user's
 * create lands at verified; an edit keeps the tier the memory has — it never promotes, a
 * promote does. Both validate first: a hard failure blocks the save
 * and nothing is written. Quarantined memories are read-only.
 */
import { purgeRemovedCredentials } from '../batches/copy-purge';
import crypto from 'node:crypto';
import path from 'node:path';
import type { Actor, AuditEvent } from '../../audit/event';
import type { ServiceContext } from '../context';
import { composeMemory } from './compose';
import { runAllChecks } from '../../validators/run';
import type { Finding } from '../../validators/types';
import { decide } from '../../trust/transitions';
import { isoNow } from '../../trust/dates';
import { applyToMemory, execute, type TransitionResult } from './transition';
import type { ErrorCode } from '../../core/error-codes';
import { resolveMemory, type Located } from '../index/resolve';
import { withRootLock } from './lock';
import type { Intent } from './journal';
import { sha256, type Inspected } from '../index/inspect';
import { recoverSource } from './recover';

export interface MemoryInput {
  name: string;
  description: string;
  type: 'user' | 'feedback' | 'project' | 'reference';
  body: string;
}

export type SaveResult =
  | TransitionResult
  | { ok: false; code: 'validators-fail'; message: string; findings: Finding[] };

/** The findings that stop a save (hard validator failures, credentials), or null: one rule for every save. */
export function blocking(bytes: Buffer, filename: string, ctx: ServiceContext): Finding[] | null {
  const v = runAllChecks(bytes, filename, ctx.owner());
  const hard = v.validate.exit === 1 || v.validate.exit === 2 || v.secret.exit === 1;
  return hard ? [...v.validate.findings, ...v.secret.findings].filter((f) => f.label !== 'WARN-SEMANTIC') : null;
}

type Blocked = Extract<SaveResult, { code: 'validators-fail'; findings: Finding[] }>;

/** The refusal of a save whose bytes hold a blocking finding (hard failure or credential), or null. */
export function blockedSave(bytes: Buffer, filename: string, ctx: ServiceContext): Blocked | null {
  const found = blocking(bytes, filename, ctx);
  return found
    ? {
        ok: false,
        code: 'validators-fail',
        message: `not saved: ${found.map((f) => f.message).join('; ')}`,
        findings: found,
      }
    : null;
}

/** What an edit writes: the bytes the checks read, and the plan's content part (new body, or the whole file). */
export type EditContent =
  | { ok: true; check: Buffer; set: Record<string, string>; body?: Buffer; replace?: Buffer }
  | { ok: false; code: ErrorCode; message: string };

/**
 * The user's edit-and-save (the editor and the field editor): the edit rule of lib/trust
 * (the tier stays, no trust field is written), the content the caller composes, the same
 * blocking checks as a create. One planner for both, run by applyToMemory.
 */
export function saveEdit(
  ctx: ServiceContext,
  req: { ref: { source: string; filename: string }; expectSha: string; actor: Actor },
  compose: (ins: Inspected, found: Located, now: Date) => EditContent,
): SaveResult {
  let blocked: Blocked | null = null;
  const result = applyToMemory(
    ctx,
    { ref: req.ref.filename, sourceId: req.ref.source, actor: req.actor, expectSha: req.expectSha },
    (ins, found, now) => {
      const d = decide('edit', ins.facts, { now, machine: ctx.machine, actor: 'user' });
      if (!d.ok || d.noop) return d.ok ? { ok: false, code: 'refused', message: d.message } : d;
      const c = compose(ins, found, now);
      if (!c.ok) return c;
      blocked = blockedSave(c.check, found.filename, ctx);
      if (blocked) return blocked;
      const { check: _check, ok: _ok, ...content } = c;
      return {
        ok: true,
        noop: false,
        action: 'edit',
        from: d.from,
        to: d.to,
        remove: [],
        move: null,
        reason: null,
        ...content,
      };
    },
  );
  // An edit that took a credential out leaves no undo copy holding it (copy-purge.ts).
  const source = ctx.sources.find((s) => s.id === req.ref.source);
  if (result.ok && !result.noop && source) purgeRemovedCredentials(ctx, source, [req.ref.filename]);
  return !result.ok && blocked ? blocked : result;
}

export function suggestFilename(input: MemoryInput): string {
  const slug =
    input.name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60) || 'memory';
  return `${input.type}_${slug}.md`;
}

export function createMemory(
  ctx: ServiceContext,
  sourceId: string,
  input: MemoryInput,
  actor: Actor = 'user:web',
): SaveResult {
  const source = ctx.sources.find((s) => s.id === sourceId && !s.error);
  if (!source)
    return { ok: false, code: 'not-found', message: 'That memory root is not configured or cannot be read.' };
  const filename = suggestFilename(input);
  const now = ctx.now();
  const d = decide('create-user', null, { now, machine: ctx.machine, actor: 'user' });
  if (!d.ok || d.noop) return { ok: false, code: 'refused', message: d.ok ? d.message : d.message };
  const bytes = composeMemory(
    { name: input.name, description: input.description, type: input.type, ...d.set },
    input.body,
  );
  const bad = blockedSave(bytes, filename, ctx);
  if (bad) return bad;
  return withRootLock(source.root, ctx.machine, () => {
    recoverSource(ctx, source);
    const clash = resolveMemory([source], filename);
    if (clash.ok)
      return {
        ok: false,
        code: 'conflict',
        message: `${filename} already exists (${clash.found.relPath}): choose another name`,
        paths: [clash.found.abs],
      };
    const dir = source.adapter.files.dirOf('memories');
    const rel = dir ? `${dir}/${filename}` : filename;
    const op = crypto.randomUUID();
    const event: AuditEvent = {
      v: 1,
      id: op,
      at: isoNow(now),
      machine: ctx.machine,
      actor,
      action: 'create',
      memory: filename,
      from: null,
      to: 'verified',
      reason: null,
      findings: [],
      before_sha256: null,
      after_sha256: sha256(bytes),
      recovered: false,
      batch: op,
    };
    const tmp = path.posix.join(dir, `.${filename}.${op}.tmp`);
    const indexEdit = source.adapter.files?.indexFile
      ? {
          file: source.adapter.files?.indexFile,
          kind: 'insert' as const,
          line: `- [${input.name.replace(/[[\]\n\r]/g, ' ')}](${filename}) — ${input.description.replace(/[\n\r]/g, ' ')}`,
          at: -1,
        }
      : undefined;
    const intent: Intent = {
      v: 1,
      op,
      machine: ctx.machine,
      src: rel,
      dst: rel,
      tmp,
      beforeSha: '',
      afterSha: event.after_sha256!,
      event,
      indexEdit,
    };
    // The same durable steps as every transition (docs/crash-safety.md): a create is one with no source.
    const located = { source, relPath: rel, abs: path.join(source.root, rel), filename, location: 'memories' as const };
    const r = execute(ctx, located, intent, bytes);
    return r.ok ? { ...r, message: `${filename} created as verified` } : r;
  });
}

export function editMemory(
  ctx: ServiceContext,
  ref: { source: string; filename: string },
  input: Omit<MemoryInput, 'type'>,
  expectSha: string,
  actor: Actor = 'user:web',
): SaveResult {
  return saveEdit(ctx, { ref, expectSha, actor }, (ins) => {
    const set = { name: input.name, description: input.description };
    const body = Buffer.from(input.body.replace(/\r\n/g, '\n'), 'utf8');
    return {
      ok: true,
      check: composeMemory({ ...ins.fields, ...set }, input.body),
      set,
      body: Buffer.concat([Buffer.from('\n'), body]),
    };
  });
}
