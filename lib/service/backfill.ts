/**
 * Backfill (CONTRACT §3, seed §9): a dry-run plan for every memory without a
 * trust-level, per-file tier overrides, then one transition (and one audit event)
 * per file through the same crash-safe path as every other write.
 */
import type { ServiceContext } from './context';
import { applyToMemory, type MemoryRequest, type TransitionResult } from './transition';
import { backfillPlan, type BackfillPlan } from '../trust/backfill';
import type { Tier } from '../trust/tiers';
import type { Actor } from '../audit/event';

export interface BackfillEntry {
  source: string;
  relPath: string;
  plan: BackfillPlan;
}

export function planBackfill(ctx: ServiceContext, overrides: Record<string, Tier> = {}): BackfillEntry[] {
  const rows = ctx.handle.sqlite
    .prepare(
      `SELECT source, rel_path AS relPath, filename, location, type, created_at AS createdAt, source_machine AS sourceMachine,
              mtime_ms AS mtimeMs, conflict FROM memories WHERE trust_level IS NULL AND location = 'memories' AND error IS NULL
       ORDER BY filename`,
    )
    .all() as { source: string; relPath: string; filename: string; location: 'memories'; type: string | null; createdAt: string | null; sourceMachine: string | null; mtimeMs: number; conflict: number }[];
  const now = ctx.now();
  return rows.map((r) => ({
    source: r.source,
    relPath: r.relPath,
    plan: backfillPlan(
      {
        filename: r.filename,
        location: r.location,
        type: r.type ?? undefined,
        createdAt: r.createdAt ?? undefined,
        sourceMachine: r.sourceMachine ?? undefined,
        mtime: new Date(r.mtimeMs),
        conflict: !!r.conflict,
      },
      now,
      ctx.machine,
      { tier: overrides[r.filename] },
    ),
  }));
}

/** Applies one file's plan, re-planned from the file as it is now (it may have changed since the dry run). */
export function applyBackfill(ctx: ServiceContext, entry: BackfillEntry, actor: Actor, override?: Tier, ids: Pick<MemoryRequest, 'batch' | 'opId' | 'expectSha'> = {}): TransitionResult {
  return applyToMemory(ctx, { ref: entry.plan.filename, sourceId: entry.source, actor, ...ids }, (ins, _found, now) => {
    const plan = backfillPlan({ ...ins.facts, hasTrustLevel: ins.fields['trust-level'] !== undefined }, now, ctx.machine, { tier: override });
    if (plan.kind === 'skip') return { ok: false, code: 'skipped', message: `${plan.filename}: ${plan.reason}` };
    return {
      ok: true, noop: false, action: 'backfill', from: null, to: plan.tier, set: plan.set, remove: [], move: plan.move,
      reason: plan.reason,
    };
  });
}
