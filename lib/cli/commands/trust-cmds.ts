/** context, audit and backfill. */
import { UsageError } from '../args';
import type { Io } from '../io';
import { openContext, parseServiceArgs, printJson } from '../service-args';
import { contextCmd } from './context-cmd';
import { runAudit } from '../../service/batches/audit-run';
import { applyPlan, planAudit, planBackfillBatch } from '../../service/batches/batch-plan';
import { printOutcome, printPlan } from './plan-print';
import { isTier, type Tier } from '../../trust/tiers';
import type { Command } from './index';

const auditCmd: Command = {
  synopsis: 'audit [--apply [--yes]]',
  summary: 'validators + lifecycle findings and the plan; --apply demotes hard failures as one batch',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { bools: ['apply', 'yes'] });
    if (args.bools.has('yes') && !args.bools.has('apply')) throw new UsageError('--yes confirms --apply: give both');
    const ctx = openContext(args, io);
    const r = runAudit(ctx);
    const plan = planAudit(ctx);
    const applied = args.bools.has('apply')
      ? applyPlan(ctx, plan, { actor: 'user:cli', confirmed: args.bools.has('yes') })
      : null;
    if (args.bools.has('json')) {
      printJson(io, {
        plan,
        stale: r.stale.map((i) => i.relPath),
        dueForReview: r.dueForReview.map((i) => i.relPath),
        quarantineAudit: r.quarantineAudit.map((i) => ({ file: i.relPath, reason: i.quarantineReason })),
        archiveCandidates: r.archiveCandidates.map((i) => ({ file: i.relPath, reason: i.quarantineReason })),
        conflicts: r.conflicts.map((i) => i.relPath),
        unfinished: r.unfinished,
        applied,
      });
    } else {
      const block = (title: string, lines: string[]) => {
        io.out(`${title}: ${lines.length}`);
        for (const l of lines) io.out(`  ${l}`);
      };
      io.out(`hard validator failures in memories/: ${plan.files.length}`);
      if (!applied?.ok) printPlan(io, plan, 'demote to quarantine');
      block(
        'stale verified',
        r.stale.map((i) => `${i.relPath}  last verified ${i.lastVerified ?? 'never'}`),
      );
      block(
        'inferred due for review',
        r.dueForReview.map((i) => i.relPath),
      );
      block(
        'quarantine audit candidates (day 31–90)',
        r.quarantineAudit.map((i) => `${i.relPath}  ${i.quarantineReason ?? ''}`),
      );
      block(
        'archive candidates (day 91+)',
        r.archiveCandidates.map((i) => `${i.relPath}  ${i.quarantineReason ?? ''}`),
      );
      block(
        'conflicts',
        r.conflicts.map((i) => i.relPath),
      );
      if (r.unfinished.length)
        block(
          'unfinished operations (left untouched)',
          r.unfinished.map((u) => `${u.root}: ${u.op}`),
        );
      if (applied?.ok && applied.outcome) printOutcome(io, applied.outcome, 'demoted');
      if (!applied && plan.files.length)
        io.out(
          `dry run: nothing written. Re-run with --apply${plan.confirm.needed ? ' --yes' : ''} to demote ${plan.files.length === 1 ? 'it' : 'them'} as one batch${plan.confirm.needed ? ` (confirmation needed: ${plan.confirm.reason})` : ''}.`,
        );
    }
    return refusalExit(io, 'audit', applied);
  },
};

/** A refused confirmation is one line on stderr and exit 2; refused steps are exit 2 too. */
function refusalExit(io: Io, cmd: string, applied: ReturnType<typeof applyPlan> | null): number {
  if (!applied) return 0;
  if (!applied.ok) {
    io.err(
      `memtrust ${cmd}: ${applied.message}; nothing was changed. Re-run with --apply --yes to confirm all ${applied.count}.`,
    );
    return 2;
  }
  return applied.outcome?.refused ? 2 : 0;
}

const backfillCmd: Command = {
  synopsis: 'backfill [--apply [--yes]]',
  summary: 'give memories without trust-level their tier (dry run first; --tier FILE=TIER overrides; one batch)',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['tier'], bools: ['apply', 'yes'] });
    if (args.bools.has('yes') && !args.bools.has('apply')) throw new UsageError('--yes confirms --apply: give both');
    const overrides: Record<string, Tier> = {};
    for (const o of args.values.get('tier') ?? []) {
      const m = /^(.+\.md)=(\w+)$/.exec(o);
      if (!m || !isTier(m[2]))
        throw new UsageError(`--tier takes FILE=TIER with TIER verified, inferred or quarantined: ${o}`);
      overrides[m[1]!.split(/[\\/]/).pop()!] = m[2];
    }
    const ctx = openContext(args, io);
    const plan = planBackfillBatch(ctx, overrides);
    const named = new Set([...plan.files.map((f) => f.memory), ...plan.skipped.map((s) => s.file.split('/').pop()!)]);
    const unknown = Object.keys(overrides).filter((f) => !named.has(f));
    if (unknown.length) throw new UsageError(`--tier names files that need no backfill: ${unknown.join(', ')}`);
    const applied = args.bools.has('apply')
      ? applyPlan(ctx, plan, { actor: 'user:cli', confirmed: args.bools.has('yes'), overrides })
      : null;
    if (args.bools.has('json')) {
      printJson(io, { plan, applied });
    } else {
      if (plan.files.length === 0 && plan.skipped.length === 0)
        io.out('every memory has a trust-level: nothing to back-fill');
      else if (!applied?.ok) printPlan(io, plan, 'back-fill');
      if (applied?.ok && applied.outcome) printOutcome(io, applied.outcome, 'back-filled');
      if (!applied && plan.files.length)
        io.out(
          `dry run: nothing written. Re-run with --apply${plan.confirm.needed ? ' --yes' : ''} (and --tier FILE=TIER to override) to apply it as one batch${plan.confirm.needed ? ` (confirmation needed: ${plan.confirm.reason})` : ''}.`,
        );
    }
    return refusalExit(io, 'backfill', applied);
  },
};

export const trustCommands: Record<string, Command> = { context: contextCmd, audit: auditCmd, backfill: backfillCmd };
