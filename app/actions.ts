'use server';
/**
 * Server actions: parse input → call the trust service → revalidate. Reads used
 * by client components (React Query) live here too.
 */
import { batchInfo } from '@/lib/service/batches/batch-info';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action, type ActionResult } from '@/lib/core/action-result';
import { context, contextShown, freshContext, resetContext } from '@/lib/server';
import { addRoot, removeRoot, saveContextBudget, saveOwner } from '@/lib/service/settings/settings-service';
import { transitionAsBatch } from '@/lib/service/write/transition-batch';
import { indexSignature } from '@/db/queries/signature';
import { MEMORY_ACTIONS, MEMORY_TYPES } from '@/lib/trust/tiers';
import { parseMemoryId } from '@/lib/core/memory-id';
import { createMemory } from '@/lib/service/write/create-edit';
import { previewTransition, vouchingRefused, type TransitionPreview } from '@/lib/service/write/preview';
import { editMemoryFields, previewFieldsEdit, type EditPreview } from '@/lib/service/write/edit-fields';
import {
  checkRepair,
  repairAndRestore,
  repairModel,
  type RepairCheck,
  type RepairModel,
} from '@/lib/service/write/repair';

const Transition = z.object({
  id: z.string().min(3).max(400),
  action: z.enum(MEMORY_ACTIONS),
  reason: z.string().max(1000).optional(),
  expectSha: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  opId: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/),
});

/** Polled by open pages: changes whenever the index changes (files on disk or audit events). */
export const pollIndex = action(
  z.object({}),
  (): ActionResult<string> => ({ ok: true, data: indexSignature(freshContext().handle.sqlite) }),
);

/** pollIndex for the open Context X-ray: an open tab keeps its plan made ahead (docs/session-context.md). */
export const pollContextIndex = action(z.object({}), (): ActionResult<string> => {
  const ctx = freshContext();
  contextShown();
  return { ok: true, data: indexSignature(ctx.handle.sqlite) };
});

const RootInput = z.object({ root: z.string().min(1).max(4096) });

export const addRootAction = action(RootInput, (input): ActionResult<null> => {
  const r = addRoot(input.root);
  if (!r.ok) return r;
  resetContext();
  revalidatePath('/', 'layout');
  return { ok: true, data: null };
});

export const removeRootAction = action(RootInput, (input): ActionResult<null> => {
  const r = removeRoot(input.root);
  if (!r.ok) return r;
  resetContext();
  revalidatePath('/', 'layout');
  return { ok: true, data: null };
});

const OwnerInput = z.object({
  emails: z.string().max(2000),
  githubHandle: z.string().max(100),
  homeUser: z.string().max(100),
});

export const saveOwnerAction = action(OwnerInput, (input): ActionResult<null> => {
  const r = saveOwner({
    emails: input.emails.split(/[\s,]+/).filter(Boolean),
    githubHandle: input.githubHandle.trim(),
    homeUser: input.homeUser.trim(),
  });
  if (!r.ok) return r;
  resetContext();
  revalidatePath('/', 'layout');
  return { ok: true, data: null };
});

export const saveContextBudgetAction = action(z.object({ budget: z.number() }), (input): ActionResult<null> => {
  const r = saveContextBudget(input.budget);
  if (!r.ok) return r;
  revalidatePath('/', 'layout');
  return { ok: true, data: null };
});

const MemoryFields = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().min(1).max(400),
  body: z.string().max(200_000),
});

export const createMemoryAction = action(
  MemoryFields.extend({ source: z.string().max(64), type: z.enum(MEMORY_TYPES) }),
  (input): ActionResult<{ id: string; message: string }> => {
    const ctx = freshContext();
    const r = createMemory(ctx, input.source, input);
    revalidatePath('/', 'layout');
    return r.ok
      ? { ok: true, data: { id: `${input.source}:${r.memory}`, message: r.message } }
      : { ok: false, code: r.code, message: r.message };
  },
);

// ---- Review inbox, diff preview, repair and restore (docs/review-inbox.md) ----

const MemoryAction = z.object({
  id: z.string().min(3).max(400),
  action: z.enum(MEMORY_ACTIONS),
  reason: z.string().max(1000).optional(),
});

/** What a transition would write, computed without writing. */
export const previewTransitionAction = action(MemoryAction, (input): ActionResult<TransitionPreview> => {
  const ref = parseMemoryId(input.id);
  if (!ref) return { ok: false, code: 'bad-id', message: 'Unknown memory id.' };
  const r = previewTransition(freshContext(), ref, input.action, input.reason);
  return r.ok ? { ok: true, data: r.preview } : { ok: false, code: r.code, message: r.message };
});

/** Confirm after a preview: the previewed sha is required; promote / re-affirm never act on a flagged memory. */
export const confirmTransitionAction = action(
  // ackOrigin: the preview showed an untrusted origin and the user confirmed with it on screen (docs/origin.md).
  Transition.extend({ expectSha: z.string().regex(/^[0-9a-f]{64}$/), ackOrigin: z.boolean().optional() }),
  (input): ActionResult<{ message: string; to: string | null; noop: boolean }> => {
    const ref = parseMemoryId(input.id);
    if (!ref) return { ok: false, code: 'bad-id', message: 'Unknown memory id.' };
    const ctx = context();
    const refused = vouchingRefused(ctx, ref, input.action);
    if (refused) return { ok: false, code: 'flagged', message: refused };
    const r = transitionAsBatch(ctx, {
      ref: ref.filename,
      sourceId: ref.source,
      action: input.action,
      reason: input.reason,
      actor: 'user:web',
      opId: input.opId,
      expectSha: input.expectSha,
      ackOrigin: input.ackOrigin === true,
    });
    revalidatePath('/', 'layout');
    return r.ok
      ? { ok: true, data: { message: r.message, to: r.to, noop: r.noop } }
      : { ok: false, code: r.code, message: r.message };
  },
);

export const repairModelAction = action(
  z.object({ id: z.string().min(3).max(400) }),
  (input): ActionResult<RepairModel> => {
    const ref = parseMemoryId(input.id);
    if (!ref) return { ok: false, code: 'bad-id', message: 'Unknown memory id.' };
    const r = repairModel(freshContext(), ref);
    return r.ok ? { ok: true, data: r.model } : r;
  },
);

const RepairInputSchema = z.object({
  id: z.string().min(3).max(400),
  redactions: z.record(z.string().max(600), z.enum(['redact', 'remove', 'keep'])),
  frontmatter: z
    .string()
    .max(256 * 1024)
    .optional(),
});

/** Live validation of the repair dialog's edits; nothing is written. */
export const checkRepairAction = action(RepairInputSchema, (input): ActionResult<RepairCheck> => {
  const ref = parseMemoryId(input.id);
  if (!ref) return { ok: false, code: 'bad-id', message: 'Unknown memory id.' };
  const r = checkRepair(freshContext(), ref, { redactions: input.redactions, frontmatter: input.frontmatter });
  return r.ok ? { ok: true, data: r.check } : r;
});

export const repairRestoreAction = action(
  RepairInputSchema.extend({
    expectSha: z.string().regex(/^[0-9a-f]{64}$/),
    opId: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/),
  }),
  (input): ActionResult<{ message: string; batch?: string }> => {
    const ref = parseMemoryId(input.id);
    if (!ref) return { ok: false, code: 'bad-id', message: 'Unknown memory id.' };
    const r = repairAndRestore(
      context(),
      ref,
      { redactions: input.redactions, frontmatter: input.frontmatter },
      input.expectSha,
      input.opId,
    );
    revalidatePath('/', 'layout');
    // A batch of one whose id is the operation id: the result offers Undo (docs/review-inbox.md),
    // unless its copy held a credential the repair removed (purged: docs/batches.md).
    const undoable = r.ok && !r.noop && !batchInfo(context(), input.opId)?.noUndo;
    return r.ok
      ? { ok: true, data: { message: r.message, batch: undoable ? input.opId : undefined } }
      : { ok: false, code: r.code, message: r.message };
  },
);

const FieldsEdit = MemoryFields.extend({
  id: z.string().max(400),
  expectSha: z.string().regex(/^[0-9a-f]{64}$/),
  type: z.enum(MEMORY_TYPES),
});

/** The editor's "Preview changes": the line diff a save would write; nothing is written. */
export const previewEditAction = action(FieldsEdit, (input): ActionResult<EditPreview> => {
  const ref = parseMemoryId(input.id);
  if (!ref) return { ok: false, code: 'bad-id', message: 'Unknown memory id.' };
  const r = previewFieldsEdit(context(), ref, input, input.expectSha);
  return r.ok ? { ok: true, data: r.preview } : { ok: false, code: r.code, message: r.message };
});

/** The editor's save: name, description and type (nested ones written back where they were), and the body. */
export const editMemoryFieldsAction = action(FieldsEdit, (input): ActionResult<{ message: string }> => {
  const ref = parseMemoryId(input.id);
  if (!ref) return { ok: false, code: 'bad-id', message: 'Unknown memory id.' };
  const r = editMemoryFields(context(), ref, input, input.expectSha);
  revalidatePath('/', 'layout');
  return r.ok ? { ok: true, data: { message: r.message } } : { ok: false, code: r.code, message: r.message };
});
