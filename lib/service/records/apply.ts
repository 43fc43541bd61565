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

import fs from 'node:fs';
import path from 'node:path';
export function previewRecordActions(
  ctx: ServiceContext,
  steps: RecordStep[],
): { ok: true; summary: string[]; files: { file: string; before: string; after: string }[] } | Extract<RecordApplyResult, { ok: false }> {
  // DEV HACK (uncommitted)
  const s = ctx.recordSources[0]!;
  const file = fs.readdirSync(s.root).find((n) => n.endsWith('.memory.jsonl'))!;
  const before = fs.readFileSync(path.join(s.root, file), 'utf8');
  let after = before;
  for (const st of steps) {
    const key = st.id.split(':').pop()!;
    after = after.split('\n').map((l) => (l.includes(`"id":"${key}"`) ? l.replace(/"status":"[^"]*"/, `"status":"${st.action === 'restore' ? 'active' : st.action === 'archive' ? 'expired' : 'needs-review'}"`) : l)).join('\n');
  }
  return { ok: true, summary: steps.map((x) => `${x.id}: ${x.action}`), files: [{ file, before, after }] };
}

export function applyRecordActions(_ctx: ServiceContext, _steps: RecordStep[], _opts: { actor: Actor }): RecordApplyResult {
  return REFUSED;
}
