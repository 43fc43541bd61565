/** context, audit and backfill. */
import { UsageError, lastValue } from '../args';
import type { Io } from '../io';
import { openContext, parseServiceArgs, printJson } from '../service-args';
import { buildSessionContext } from '../../service/session-context';
import { hookJson } from '../../trust/context';
import { runAudit } from '../../service/audit-run';
import { applyBackfill, planBackfill } from '../../service/backfill';
import { isTier, type Tier } from '../../trust/tiers';
import type { Command } from './index';

const contextCmd: Command = {
  synopsis: 'context [--format text|hook]',
  summary: 'what a session loads (hook: SessionStart JSON, always exit 0)',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['format'] });
    const format = lastValue(args, 'format') ?? 'text';
    if (format !== 'text' && format !== 'hook') throw new UsageError('--format must be text or hook');
    if (format === 'hook') {
      // A hook must never block a session: every failure becomes context text, exit 0.
      let text: string;
      try {
        const ctx = openContext(args, silent(io), { scan: false });
        text = buildSessionContext(ctx).text;
      } catch (e) {
        text = `memtrust could not load memories: ${e instanceof Error ? e.message : String(e)}`;
      }
      io.out(hookJson(text));
      return 0;
    }
    const ctx = openContext(args, io, { scan: false });
    const sc = buildSessionContext(ctx);
    if (args.bools.has('json')) printJson(io, sc);
    else io.out(sc.text);
    return 0;
  },
};

function silent(io: Io): Io {
  return { ...io, err: () => {} };
}

const auditCmd: Command = {
  synopsis: 'audit [--apply]',
  summary: 'validators + lifecycle findings; --apply demotes hard failures',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { bools: ['apply'] });
    const ctx = openContext(args, io);
    const r = runAudit(ctx, args.bools.has('apply'));
    if (args.bools.has('json')) {
      printJson(io, {
        hardFailures: r.hardFailures.map((i) => ({ file: i.relPath, validate: i.validateExit, secret: i.secretExit, classes: r.secretClasses[i.key] ?? [] })),
        stale: r.stale.map((i) => i.relPath),
        dueForReview: r.dueForReview.map((i) => i.relPath),
        quarantineAudit: r.quarantineAudit.map((i) => ({ file: i.relPath, reason: i.quarantineReason })),
        archiveCandidates: r.archiveCandidates.map((i) => ({ file: i.relPath, reason: i.quarantineReason })),
        conflicts: r.conflicts.map((i) => i.relPath),
        unfinished: r.unfinished,
        applied: r.applied,
      });
    } else {
      const block = (title: string, lines: string[]) => {
        io.out(`${title}: ${lines.length}`);
        for (const l of lines) io.out(`  ${l}`);
      };
      // Grouped by what was found: credentials, personal data only, then format failures (docs/credentials.md).
      const group = (i: (typeof r.hardFailures)[number]) => {
        const c = r.secretClasses[i.key] ?? [];
        return c.includes('credential') ? 0 : c.includes('personal') ? 1 : 2;
      };
      const failures = [...r.hardFailures].sort((a, b) => group(a) - group(b));
      const label = ['credential', 'personal data', 'format'];
      block('hard validator failures in memories/', failures.map((i) => `[${label[group(i)]}] ${i.relPath}  (validate exit ${i.validateExit}, secret-check exit ${i.secretExit})`));
      block('stale verified', r.stale.map((i) => `${i.relPath}  last verified ${i.lastVerified ?? 'never'}`));
      block('inferred due for review', r.dueForReview.map((i) => i.relPath));
      block('quarantine audit candidates (day 31–90)', r.quarantineAudit.map((i) => `${i.relPath}  ${i.quarantineReason ?? ''}`));
      block('archive candidates (day 91+)', r.archiveCandidates.map((i) => `${i.relPath}  ${i.quarantineReason ?? ''}`));
      block('conflicts', r.conflicts.map((i) => i.relPath));
      if (r.unfinished.length) block('unfinished operations (left untouched)', r.unfinished.map((u) => `${u.root}: ${u.op}`));
      for (const a of r.applied) io.out(a.result.ok ? `demoted: ${a.result.message}` : `not demoted: ${a.memory}: ${a.result.message}`);
      if (!args.bools.has('apply') && r.hardFailures.length) io.out('run with --apply to demote the hard failures to quarantine/');
    }
    return r.applied.some((a) => !a.result.ok) ? 2 : 0;
  },
};

const backfillCmd: Command = {
  synopsis: 'backfill [--apply] [--tier FILE=TIER …]',
  summary: 'give memories without trust-level their tier (dry run first)',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['tier'], bools: ['apply'] });
    const overrides: Record<string, Tier> = {};
    for (const o of args.values.get('tier') ?? []) {
      const m = /^(.+\.md)=(\w+)$/.exec(o);
      if (!m || !isTier(m[2])) throw new UsageError(`--tier takes FILE=TIER with TIER verified, inferred or quarantined: ${o}`);
      overrides[m[1]!.split(/[\\/]/).pop()!] = m[2];
    }
    const ctx = openContext(args, io);
    const plan = planBackfill(ctx, overrides);
    const unknown = Object.keys(overrides).filter((f) => !plan.some((p) => p.plan.filename === f));
    if (unknown.length) throw new UsageError(`--tier names files that need no backfill: ${unknown.join(', ')}`);
    const apply = args.bools.has('apply');
    const results = apply ? plan.filter((p) => p.plan.kind === 'apply').map((p) => ({ file: p.plan.filename, result: applyBackfill(ctx, p, 'user:cli', overrides[p.plan.filename]) })) : [];
    if (args.bools.has('json')) {
      printJson(io, { applied: apply, plan: plan.map((p) => ({ file: p.relPath, ...p.plan })), results });
    } else {
      if (plan.length === 0) io.out('every memory has a trust-level: nothing to back-fill');
      for (const p of plan) {
        if (p.plan.kind === 'skip') io.out(`skip     ${p.relPath}: ${p.plan.reason}`);
        else io.out(`${p.plan.tier.padEnd(8)} ${p.relPath}: ${p.plan.reason}; sets ${Object.entries(p.plan.set).map(([k, v]) => `${k}=${v}`).join(', ')}${p.plan.notes.length ? ` (${p.plan.notes.join('; ')})` : ''}`);
      }
      for (const r of results) io.out(r.result.ok ? `applied: ${r.result.message}` : `refused: ${r.result.message}`);
      if (!apply && plan.some((p) => p.plan.kind === 'apply')) io.out('dry run: nothing written. Re-run with --apply (and --tier FILE=TIER to override).');
    }
    return results.some((r) => !r.result.ok) ? 2 : 0;
  },
};

export const trustCommands: Record<string, Command> = { context: contextCmd, audit: auditCmd, backfill: backfillCmd };
