/**
 * The two server-action families behind the one transition component
 * (docs/transition-ui.md), as engines with the same shape: preview the steps,
 * then apply exactly what was shown. A memory transition checks the previewed
 * file hash on the server; a record action previews again and refuses when the
 * plan moved since it was shown (the new preview is returned to show instead).
 */
import { confirmTransitionAction, previewTransitionAction } from '@/app/actions';
import { previewRecordChanges, type StepsPreview } from '@/app/records/actions';
import { applyRecordAction } from '@/app/record-actions';
import type { TransitionPreview } from '@/lib/service/write/preview';

export interface Step {
  id: string;
  action: string;
  reason?: string;
  /** A layout's own choice for the verb (a canonical backlog close: `status`). */
  options?: Record<string, string>;
}

export type PlanPreview = { kind: 'memory'; data: TransitionPreview } | { kind: 'record'; data: StepsPreview };

export type Planned = { ok: true; preview: PlanPreview } | { ok: false; message: string };

export type Applied =
  | { ok: true; batch: string | null; files: number; message?: string }
  | { ok: false; message: string; preview?: PlanPreview };

export interface Engine {
  /** What one subject is called in the reason question. */
  noun: string;
  /** The written lines spell out the reason: it is asked before the preview, and a new reason previews again. */
  reasonFirst: boolean;
  preview(steps: Step[]): Promise<Planned>;
  apply(steps: Step[], shown: PlanPreview): Promise<Applied>;
}

export type EngineName = 'memory' | 'record';

const memory: Engine = {
  noun: 'memory',
  reasonFirst: false,
  async preview(steps) {
    const [s] = steps;
    if (!s || steps.length > 1) return { ok: false, message: 'A memory transition is one step.' };
    const r = await previewTransitionAction({ id: s.id, action: s.action as never });
    return r.ok ? { ok: true, preview: { kind: 'memory', data: r.data } } : { ok: false, message: r.message };
  },
  async apply(steps, shown) {
    const [s] = steps;
    if (!s || shown.kind !== 'memory') return { ok: false, message: 'A memory transition is one step.' };
    const opId = crypto.randomUUID();
    const r = await confirmTransitionAction({
      id: s.id,
      action: s.action as never,
      reason: s.reason,
      expectSha: shown.data.sha256,
      opId,
      // The preview put the untrusted origin on screen: confirming is the acknowledgement (docs/origin.md).
      ackOrigin: !!shown.data.origin,
    });
    // A transition is a batch of one whose id is its operation id (docs/batches.md).
    return r.ok
      ? { ok: true, batch: r.data.noop ? null : opId, files: 1, message: r.data.message }
      : { ok: false, message: r.message };
  },
};

const record: Engine = {
  noun: 'record',
  reasonFirst: true,
  async preview(steps) {
    const r = await previewRecordChanges({ steps });
    return r.ok ? { ok: true, preview: { kind: 'record', data: r.data } } : { ok: false, message: r.message };
  },
  async apply(steps, shown) {
    // Apply only what was shown: when the store moved since the preview, return the new plan to confirm again.
    const again = await record.preview(steps);
    if (!again.ok) return again;
    if (JSON.stringify(again.preview) !== JSON.stringify(shown))
      return {
        ok: false,
        message: 'The store changed since this preview. Check the new preview and confirm again.',
        preview: again.preview,
      };
    const r = await applyRecordAction({ steps });
    if (!r.ok) return { ok: false, message: r.message };
    return { ok: true, batch: r.data.batch, files: shown.kind === 'record' ? shown.data.files.length : 0 };
  },
};

export const ENGINES: Record<EngineName, Engine> = { memory, record };
