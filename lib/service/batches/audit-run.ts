/**
 * The audit run (`memtrust audit [--apply]`, the dashboard's audit button): the
 * three validators over every memory (via the scan), plus the lifecycle
 * findings. Applying demotes hard failures in memories/ by the actor `validator`
 * with the findings as the reason, as one batch — never as a side effect of a view.
 */
import type { ServiceContext } from '../context';
import { listMemories, type MemoryListItem } from '../../../db/queries/memories';
import type { Planner } from '../write/transition';
import { decide } from '../../trust/transitions';
import { pendingIntents } from '../write/journal';
import type { OwnerIdentity } from '../../validators/types';

export interface AuditReport {
  hardFailures: MemoryListItem[];
  stale: MemoryListItem[];
  dueForReview: MemoryListItem[];
  quarantineAudit: MemoryListItem[];
  archiveCandidates: MemoryListItem[];
  conflicts: MemoryListItem[];
  unfinished: { root: string; op: string }[];
}

const ALL = 1_000_000;

/**
 * "A missing owner identity is never a reason to demote" (docs/validators.md): when the
 * only secret findings are e-mails (no owner e-mail known) or home paths (no owner
 * user known), they may well be the owner's own, so the audit reports but does not demote.
 */
function onlyOwnerGaps(ctx: ServiceContext, key: string, owner: OwnerIdentity): boolean {
  const codes = (
    ctx.handle.sqlite.prepare(`SELECT DISTINCT code FROM findings WHERE key = ? AND "check" = 'secret'`).all(key) as {
      code: string;
    }[]
  ).map((r) => r.code);
  const gaps = new Set<string>();
  if (owner.emails.length === 0) gaps.add('secret.email');
  if (!owner.homeUser) gaps.add('secret.home-path');
  return codes.length > 0 && codes.every((c) => gaps.has(c));
}

/** The audit's findings; applying them is a batch (batch-plan.ts, docs/batches.md), never done here. */
export function runAudit(ctx: ServiceContext): AuditReport {
  const now = ctx.now();
  const q = (queue: Parameters<typeof listMemories>[1]['queue']) =>
    listMemories(ctx.handle.sqlite, { queue, limit: ALL, sort: 'file' }, now).items;
  const owner = ctx.owner();
  const failures = q(undefined).filter(
    (i) =>
      i.location === 'memories' &&
      !i.error &&
      (i.validateExit === 1 || i.validateExit === 2 || (i.secretExit === 1 && !onlyOwnerGaps(ctx, i.key, owner))),
  );
  const report: AuditReport = {
    hardFailures: failures,
    stale: q('stale'),
    dueForReview: q('due'),
    quarantineAudit: q('quarantine-audit'),
    archiveCandidates: q('archive-candidates'),
    conflicts: q('conflicts'),
    unfinished: ctx.sources.flatMap((s) =>
      pendingIntents(s.root, ctx.machine).map((p) => ({ root: s.root, op: p.intent?.op ?? p.file })),
    ),
  };
  return report;
}

/** The validator's demotion of one memory, decided from the file as it is under the lock. */
export function validatorDemotion(ctx: ServiceContext): Planner {
  return (ins, _f, t) => {
    const d = decide('demote', ins.facts, {
      now: t,
      machine: ctx.machine,
      actor: 'validator',
      checks: { validateExit: ins.verdicts.validate.exit, secretExit: ins.verdicts.secret.exit },
    });
    if (!d.ok || d.noop) return d.ok ? { ok: true, noop: true, from: d.from, to: d.to, message: d.message } : d;
    return {
      ok: true,
      noop: false,
      action: 'demote',
      from: d.from,
      to: d.to,
      set: d.set,
      remove: d.remove,
      move: d.move,
      reason: d.set['quarantine-reason'] ?? null,
    };
  };
}
