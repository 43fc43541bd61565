/**
 * Adding and editing memories in the dashboard — explicit user gestures, so both
 * land at verified (docs/trust-model.md). Both validate first: a hard failure blocks the save
 * and nothing is written. Quarantined memories are read-only.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { Actor, AuditEvent } from '../../audit/event';
import type { ServiceContext } from '../context';
import { composeMemory } from './compose';
import { runAllChecks } from '../../validators/run';
import type { Finding } from '../../validators/types';
import { decide } from '../../trust/transitions';
import { isoNow, today } from '../../trust/dates';
import { applyToMemory, execute, type TransitionResult } from './transition';
import { resolveMemory } from '../index/resolve';
import { withRootLock } from './lock';
import type { Intent } from './journal';
import { sha256 } from '../index/inspect';
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

/** Hard failures (validate 1/2, secret 1) block a save; warnings and injection flags are shown, not blocking. */
/** The findings that stop a save (hard validator failures, credentials), or null: one rule for every save. */
export function blocking(bytes: Buffer, filename: string, ctx: ServiceContext): Finding[] | null {
  const v = runAllChecks(bytes, filename, ctx.owner());
  const hard = v.validate.exit === 1 || v.validate.exit === 2 || v.secret.exit === 1;
  return hard ? [...v.validate.findings, ...v.secret.findings].filter((f) => f.label !== 'WARN-SEMANTIC') : null;
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
  const bad = blocking(bytes, filename, ctx);
  if (bad)
    return {
      ok: false,
      code: 'validators-fail',
      message: `not saved: ${bad.map((f) => f.message).join('; ')}`,
      findings: bad,
    };
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
    const dir = source.adapter.dirOf('memories');
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
    const indexEdit = source.adapter.indexFile
      ? {
          file: source.adapter.indexFile,
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
  let blocked: Finding[] | null = null;
  const result = applyToMemory(
    ctx,
    { ref: ref.filename, sourceId: ref.source, actor, expectSha },
    (ins, found, now) => {
      const d = decide('edit', ins.facts, { now, machine: ctx.machine, actor: 'user' });
      if (!d.ok || d.noop) return d.ok ? { ok: false, code: 'refused', message: d.message } : d;
      const body = Buffer.from(input.body.replace(/\r\n/g, '\n'), 'utf8');
      const set = {
        name: input.name,
        description: input.description,
        'trust-level': 'verified',
        'last-verified': today(now),
      };
      const preview = composeMemory({ ...ins.fields, ...set }, input.body);
      blocked = blocking(preview, found.filename, ctx);
      if (blocked)
        return {
          ok: false,
          code: 'validators-fail',
          message: `not saved: ${blocked.map((f) => f.message).join('; ')}`,
        };
      return {
        ok: true,
        noop: false,
        action: 'edit',
        from: d.from,
        to: 'verified',
        set,
        remove: [],
        move: null,
        reason: null,
        body: Buffer.concat([Buffer.from('\n'), body]),
      };
    },
  );
  if (!result.ok && blocked) return { ok: false, code: 'validators-fail', message: result.message, findings: blocked };
  return result;
}
