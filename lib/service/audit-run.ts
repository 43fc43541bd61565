/**
 * The audit run (`memtrust audit [--apply]`, the dashboard's audit button): the
 * three validators over every memory (via the scan), plus the lifecycle
 * findings. With apply, hard failures in memories/ are demoted by the actor
 * `validator` with the findings as the reason — never as a side effect of a view.
 */
import type { ServiceContext } from './context';
import { listMemories, type MemoryListItem } from '../../db/queries/memories';
import { applyToMemory, type TransitionResult } from './transition';
import { decide } from '../trust/transitions';
import { pendingIntents } from './journal';
import type { OwnerIdentity } from '../validators/types';

export interface AuditReport {
  hardFailures: MemoryListItem[];
  stale: MemoryListItem[];
  dueForReview: MemoryListItem[];
  quarantineAudit: MemoryListItem[];
  archiveCandidates: MemoryListItem[];
  conflicts: MemoryListItem[];
  unfinished: { root: string; op: string }[];
  applied: { memory: string; result: TransitionResult }[];
  /** Per hard failure (by index key): the classes of its secret findings, credential first (docs/credentials.md). */
  secretClasses: Record<string, ('credential' | 'personal')[]>;
}

const ALL = 1_000_000;

/**
 * "A missing owner identity is never a reason to demote" (CONTRACT §2.2): when the
 * only secret findings are e-mails (no owner e-mail known) or home paths (no owner
 * user known), they may well be the owner's own, so the audit reports but does not demote.
 */
function onlyOwnerGaps(ctx: ServiceContext, key: string, owner: OwnerIdentity): boolean {
  const codes = (ctx.handle.sqlite.prepare(`SELECT DISTINCT code FROM findings WHERE key = ? AND "check" = 'secret'`).all(key) as { code: string }[]).map((r) => r.code);
  const gaps = new Set<string>();
  if (owner.emails.length === 0) gaps.add('secret.email');
  if (!owner.homeUser) gaps.add('secret.home-path');
  return codes.length > 0 && codes.every((c) => gaps.has(c));
}

export function runAudit(ctx: ServiceContext, apply: boolean): AuditReport {
  const now = ctx.now();
  const q = (queue: Parameters<typeof listMemories>[1]['queue']) => listMemories(ctx.handle.sqlite, { queue, limit: ALL, sort: 'file' }, now).items;
  const owner = ctx.owner();
  const failures = q(undefined).filter(
    (i) => i.location === 'memories' && !i.error && (i.validateExit === 1 || i.validateExit === 2 || (i.secretExit === 1 && !onlyOwnerGaps(ctx, i.key, owner))),
  );
  const report: AuditReport = {
    hardFailures: failures,
    stale: q('stale'),
    dueForReview: q('due'),
    quarantineAudit: q('quarantine-audit'),
    archiveCandidates: q('archive-candidates'),
    conflicts: q('conflicts'),
    unfinished: ctx.sources.flatMap((s) => pendingIntents(s.root, ctx.machine).map((p) => ({ root: s.root, op: p.intent?.op ?? p.file }))),
    applied: [],
    secretClasses: {},
  };
  const classes = ctx.handle.sqlite.prepare(`SELECT DISTINCT class FROM findings WHERE key = ? AND "check" = 'secret' AND class IS NOT NULL ORDER BY class`);
  for (const i of failures) report.secretClasses[i.key] = (classes.all(i.key) as { class: 'credential' | 'personal' }[]).map((r) => r.class);
  if (!apply) return report;
  for (const item of failures) {
    const result = applyToMemory(ctx, { ref: item.filename, sourceId: item.source, actor: 'validator' }, (ins, _f, t) => {
      const d = decide('demote', ins.facts, {
        now: t,
        machine: ctx.machine,
        actor: 'validator',
        checks: { validateExit: ins.verdicts.validate.exit, secretExit: ins.verdicts.secret.exit },
      });
      if (!d.ok || d.noop) return d.ok ? { ok: true, noop: true, from: d.from, to: d.to, message: d.message } : d;
      return { ok: true, noop: false, action: 'demote', from: d.from, to: d.to, set: d.set, remove: d.remove, move: d.move, reason: d.set['quarantine-reason'] ?? null };
    });
    report.applied.push({ memory: item.filename, result });
  }
  return report;
}
