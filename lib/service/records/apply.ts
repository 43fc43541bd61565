// TEMPORARY (recpages): replaced by recsvc/recwrite at merge
/** Stand-in for recwrite's record write pipeline with the agreed signatures: it applies nothing. */
import type { ServiceContext } from '../context';
import type { Actor } from '../../audit/event';

export interface RecordStep {
  id: string;
  action: string;
  reason?: string;
  options?: Record<string, unknown>;
}

export type RecordApplyResult =
  | { ok: true; batch: string; done: number; summary: string[] }
  | { ok: false; code: 'not-found' | 'ambiguous' | 'refused' | 'read-only' | 'conflict' | 'locked'; message: string; command?: string | null };

const REFUSED = { ok: false as const, code: 'refused' as const, message: 'record writes are not available in this build', command: null };

export function previewRecordActions(
  _ctx: ServiceContext,
  _steps: RecordStep[],
): { ok: true; summary: string[]; files: { file: string; before: string; after: string }[] } | Extract<RecordApplyResult, { ok: false }> {
  return REFUSED;
}

export function applyRecordActions(_ctx: ServiceContext, _steps: RecordStep[], _opts: { actor: Actor }): RecordApplyResult {
  return REFUSED;
}
