/**
 * Backfill (docs/trust-model.md "Backfill"): a dry-run plan for every memory without a
 * trust-level, per-file tier overrides, then one transition (and one audit event)
 * per file through the same crash-safe path as every other write.
 */
import { FILE_ENTRY } from '../../../db/queries/entry-kind';
import type { ServiceContext } from '../context';
import { applyToMemory, type MemoryRequest, type TransitionResult } from '../write/transition';
import { backfillPlan, type BackfillChecks, type BackfillPlan } from '../../trust/backfill';
import type { Inspected } from '../index/inspect';
import type { Tier } from '../../trust/tiers';
import type { Actor } from '../../audit/event';
import { firstBackfillDone, markFirstBackfill } from './backfill-marker';
import { originLine, untrustedOriginLine, untrustedOriginOfFound } from '../origin/memory-origin';

export interface BackfillEntry {
  source: string;
  relPath: string;
  plan: BackfillPlan;
  /** The root's first backfill was done when this plan was made (docs/hooks.md). */
  afterFirstBackfill?: boolean;
}

export function planBackfill(ctx: ServiceContext, overrides: Record<string, Tier> = {}): BackfillEntry[] {
  const rows = ctx.handle.sqlite
    .prepare(
      `SELECT source, rel_path AS relPath, filename, location, type, created_at AS createdAt, source_machine AS sourceMachine,
              mtime_ms AS mtimeMs, conflict, injection_exit AS injectionExit, validate_exit AS validateExit,
              EXISTS (SELECT 1 FROM findings f WHERE f.key = m.key AND f.class = 'credential') AS credential
       FROM entries m WHERE trust_level IS NULL AND location = 'memories' AND error IS NULL AND m.${FILE_ENTRY}
       ORDER BY filename`,
    )
    .all() as {
    source: string;
    relPath: string;
    filename: string;
    location: 'memories';
    type: string | null;
    createdAt: string | null;
    sourceMachine: string | null;
    mtimeMs: number;
    conflict: number;
    injectionExit: number;
    validateExit: number;
    credential: number;
  }[];
  const now = ctx.now();
  const done = new Map(ctx.sources.map((s) => [s.id, firstBackfillDone(s.root)]));
  return rows.map((r) => ({
    source: r.source,
    relPath: r.relPath,
    afterFirstBackfill: done.get(r.source) === true,
    plan: backfillPlan(
      {
        filename: r.filename,
        location: r.location,
        type: r.type ?? undefined,
        createdAt: r.createdAt ?? undefined,
        sourceMachine: r.sourceMachine ?? undefined,
        mtime: new Date(r.mtimeMs),
        conflict: !!r.conflict,
        checks: {
          credential: r.credential === 1,
          injection: r.injectionExit !== 0,
          hardFailure: r.validateExit === 1 || r.validateExit === 2,
        },
      },
      now,
      ctx.machine,
      {
        tier: overrides[r.filename],
        afterFirstBackfill: done.get(r.source) === true,
        untrustedOrigin: untrustedOriginLine(ctx, r.source, r.relPath),
      },
    ),
  }));
}

/** What backfill asks of the checks, from the file as it is now (hints are not injection flags). */
export function checksOf(ins: Inspected): BackfillChecks {
  return {
    credential: ins.verdicts.secret.findings.some((f) => f.class === 'credential'),
    injection: ins.verdicts.injection.exit !== 0,
    hardFailure: ins.verdicts.validate.exit === 1 || ins.verdicts.validate.exit === 2,
  };
}

/** Applies one file's plan, re-planned from the file as it is now (it may have changed since the dry run). */
export function applyBackfill(
  ctx: ServiceContext,
  entry: BackfillEntry,
  actor: Actor,
  override?: Tier,
  ids: Pick<MemoryRequest, 'batch' | 'opId' | 'expectSha'> = {},
): TransitionResult {
  const result = applyToMemory(
    ctx,
    { ref: entry.plan.filename, sourceId: entry.source, actor, ...ids },
    (ins, found, now) => {
      // Decided against the marker as it was at planning time: the run that writes it is still the first.
      const afterFirstBackfill = entry.afterFirstBackfill ?? firstBackfillDone(found.source.root);
      const plan = backfillPlan(
        { ...ins.facts, hasTrustLevel: ins.fields['trust-level'] !== undefined, checks: checksOf(ins) },
        now,
        ctx.machine,
        { tier: override, afterFirstBackfill, untrustedOrigin: originLine(untrustedOriginOfFound(ctx, found, ins)) },
      );
      if (plan.kind === 'skip') return { ok: false, code: 'skipped', message: `${plan.filename}: ${plan.reason}` };
      return {
        ok: true,
        noop: false,
        action: 'backfill',
        from: null,
        to: plan.tier,
        set: plan.set,
        remove: [],
        move: plan.move,
        reason: plan.reason,
      };
    },
  );
  if (result.ok && !result.noop) {
    const source = ctx.sources.find((s) => s.id === entry.source);
    if (source) markFirstBackfill(source.root, ctx.machine, ctx.now());
  }
  return result;
}
