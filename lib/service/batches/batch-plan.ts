/**
 * The plan of a bulk operation (docs/batches.md):
 * each file, its findings (already masked by the validators), where it goes,
 * grouped by finding kind and class with counts, and whether applying needs an
 * explicit confirmation. The CLI's dry run, `--json` and the dashboard's
 * confirmation step all show this one structure.
 */
import { FILE_ENTRY } from '../../../db/queries/entry-kind';
import type { RecordBulkPlan } from '../records/bulk';
import fs from 'node:fs';
import path from 'node:path';
import { rewriteFrontmatter, RewriteError } from '../../memory-file/rewrite';
import type { Check, FindingClass } from '../../validators/types';
import { findingClass } from '../../validators/types';
import { confirmationFor, type Confirmation, type RootShare } from '../../trust/batch-rules';
import type { Tier } from '../../trust/tiers';
import type { Actor } from '../../audit/event';
import type { ServiceContext } from '../context';
import { runAudit, validatorDemotion } from './audit-run';
import { applyBackfill, planBackfill } from './backfill';
import { applyToMemory, transition } from '../write/transition';
import { resolveMemory } from '../index/resolve';
import { inspectLocated } from '../index/inspect-located';
import { memoryActions } from '../index/list-actions';
import { decide } from '../../trust/transitions';
import { runBatch, type BatchOutcome, type BatchStep } from './batch-run';

/** `bulk`: the user's promote, demote or archive of memories chosen in the review inbox (docs/review-inbox.md "Bulk actions"). */
export type PlanKind = 'audit' | 'backfill' | 'bulk';

/**
 * What the inbox offers in bulk. Promote only for the memories the user ticked, each asked
 * the single button's rule, so a flagged one is left out with the reason, never promoted
 * (docs/trust-model.md "Promote is the user's decision").
 */
export type BulkAction = 'promote' | 'demote' | 'archive';

export interface PlanFinding {
  check: Check;
  code: string;
  /** Secret findings: credential or personal data; null for the other checks. */
  class: FindingClass | null;
  line: number | null;
  /** Masked by the validators: never a secret's text. */
  message: string;
  /** Injection flags inform; they never decide a demotion. */
  advisory: boolean;
}

export interface PlanFile {
  /** `<source>:<filename>` */
  id: string;
  source: string;
  root: string;
  /** Where it is now, relative to the root. */
  file: string;
  memory: string;
  sha256: string;
  action: 'promote' | 'demote' | 'archive' | 'backfill';
  from: string | null;
  to: string;
  /** Where it will be, relative to the root. */
  destination: string;
  moves: boolean;
  findings: PlanFinding[];
  /** Backfill: why this tier and what it writes. */
  note: string | null;
  /**
   * Backfill: why the file is kept from verified (a credential, an injection flag, a hard
   * failure; lib/trust/backfill.ts flaggedForBackfill), or null.
   */
  held?: string | null;
}

export interface PlanGroup {
  check: Check;
  code: string;
  class: FindingClass | null;
  findings: number;
  files: number;
}

export interface BatchPlan {
  kind: PlanKind;
  files: PlanFile[];
  groups: PlanGroup[];
  /** Files per destination tier. */
  destinations: { to: string; files: number }[];
  /** Each root the plan touches; `project`: the project it belongs to (a Claude Code project's path), else null. */
  roots: (RootShare & { source: string; project: string | null })[];
  skipped: { file: string; reason: string }[];
  confirm: Confirmation;
  /**
   * A bulk plan's records (the inbox selection's record rows): applied through the record
   * batch path as batches of their own beside this one (lib/service/records/bulk.ts).
   */
  records?: RecordBulkPlan;
}

const ORDER: Record<string, number> = { credential: 0, personal: 1, null: 2 };

function findingsOf(ctx: ServiceContext) {
  const stmt = ctx.handle.sqlite.prepare(
    `SELECT "check", code, label, line, message FROM findings WHERE key = ? ORDER BY coalesce(line, 0), code`,
  );
  return (key: string): PlanFinding[] =>
    (stmt.all(key) as { check: Check; code: string; label: string; line: number | null; message: string }[])
      // Semantic warnings are advice on wording, not a reason to move anything.
      .filter((f) => f.label !== 'WARN-SEMANTIC')
      .map((f) => ({
        check: f.check,
        code: f.code,
        class: f.check === 'secret' ? findingClass(f.code) : null,
        line: f.line,
        message: f.message,
        advisory: f.check === 'injection',
      }));
}

function summarise(kind: PlanKind, ctx: ServiceContext, files: PlanFile[], skipped: BatchPlan['skipped']): BatchPlan {
  const groups = new Map<string, PlanGroup & { seen: Set<string> }>();
  for (const f of files) {
    for (const x of f.findings) {
      const k = `${x.check}\0${x.code}`;
      const g = groups.get(k) ?? {
        check: x.check,
        code: x.code,
        class: x.class,
        findings: 0,
        files: 0,
        seen: new Set<string>(),
      };
      g.findings++;
      if (!g.seen.has(f.id)) {
        g.seen.add(f.id);
        g.files++;
      }
      groups.set(k, g);
    }
  }
  const dest = new Map<string, number>();
  for (const f of files) dest.set(f.to, (dest.get(f.to) ?? 0) + 1);
  const live = new Map(
    (
      ctx.handle.sqlite
        .prepare(
          `SELECT source, count(*) AS n FROM entries WHERE location = 'memories' AND ${FILE_ENTRY} GROUP BY source`,
        )
        .all() as { source: string; n: number }[]
    ).map((r) => [r.source, r.n]),
  );
  const roots = ctx.sources
    .filter((s) => files.some((f) => f.source === s.id))
    // A demote counts even where the layout demotes in place (the rule is "demote or move").
    .map((s) => ({
      source: s.id,
      root: s.root,
      project: s.project?.path ?? null,
      memories: live.get(s.id) ?? 0,
      moving: files.filter((f) => f.source === s.id && (f.moves || f.action === 'demote')).length,
    }));
  return {
    kind,
    files,
    groups: [...groups.values()]
      .map(({ seen: _seen, ...g }) => g)
      .sort(
        (a, b) =>
          ORDER[String(a.class)]! - ORDER[String(b.class)]! || b.files - a.files || a.code.localeCompare(b.code),
      ),
    destinations: [...dest].map(([to, n]) => ({ to, files: n })),
    roots,
    skipped,
    // A back-fill rewrites every file it plans: above 10 that is confirmed too (docs/batches.md).
    confirm: confirmationFor(roots, kind === 'backfill' ? files.length : 0),
  };
}

function cannotRewrite(abs: string, set: Record<string, string>): string | null {
  try {
    rewriteFrontmatter(fs.readFileSync(abs), { set, remove: [] });
    return null;
  } catch (e) {
    if (e instanceof RewriteError)
      return `frontmatter cannot be rewritten (${e.message}): fix it by hand, then back-fill`;
    return `cannot be read: ${(e as Error).message}`;
  }
}

const rootOf = (ctx: ServiceContext, source: string) => ctx.sources.find((s) => s.id === source);

/** `memtrust audit` / the dashboard's audit: every hard validator failure in the live folder → quarantine. */
export function planAudit(ctx: ServiceContext): BatchPlan {
  const findings = findingsOf(ctx);
  const files: PlanFile[] = [];
  for (const i of runAudit(ctx).hardFailures) {
    const s = rootOf(ctx, i.source);
    if (!s) continue;
    const destination = path.posix.join(s.adapter.files.dirOf('quarantine'), i.filename);
    files.push({
      id: `${i.source}:${i.filename}`,
      source: i.source,
      root: s.root,
      file: i.relPath,
      memory: i.filename,
      sha256: i.sha256,
      action: 'demote',
      from: i.tier,
      to: 'quarantined',
      destination,
      moves: destination !== i.relPath,
      findings: findings(i.key),
      note: null,
    });
  }
  return summarise('audit', ctx, files, []);
}

/** `memtrust backfill` / the dashboard's back-fill: a tier for every memory without trust-level. */
export function planBackfillBatch(
  ctx: ServiceContext,
  overrides: Record<string, Tier> = {},
  only?: readonly string[],
): BatchPlan {
  // `only`: memory keys `<source>:<relPath>` (the inbox selection); the rest of the folder is not looked at.
  const wanted = only ? new Set(only) : null;
  const findings = findingsOf(ctx);
  const sha = ctx.handle.sqlite.prepare('SELECT sha256 FROM entries WHERE key = ?');
  const files: PlanFile[] = [];
  const skipped: BatchPlan['skipped'] = [];
  for (const e of planBackfill(ctx, overrides)) {
    if (wanted && !wanted.has(`${e.source}:${e.relPath}`)) continue;
    wanted?.delete(`${e.source}:${e.relPath}`);
    const s = rootOf(ctx, e.source);
    if (!s) continue;
    if (e.plan.kind === 'skip') {
      skipped.push({ file: e.relPath, reason: e.plan.reason });
      continue;
    }
    const p = e.plan;
    // The same rewrite apply will do, tried now: a file it cannot rewrite is shown as skipped, not planned.
    const unwritable = cannotRewrite(path.join(s.root, e.relPath), p.set);
    if (unwritable) {
      skipped.push({ file: e.relPath, reason: unwritable });
      continue;
    }
    const destination = p.move
      ? path.posix.join(s.adapter.files.dirOf(p.move.dir, p.move.month), p.filename)
      : e.relPath;
    const sets = Object.entries(p.set)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
    files.push({
      id: `${e.source}:${p.filename}`,
      source: e.source,
      root: s.root,
      file: e.relPath,
      memory: p.filename,
      sha256: (sha.get(`${e.source}:${e.relPath}`) as { sha256: string } | undefined)?.sha256 ?? '',
      action: 'backfill',
      from: null,
      to: p.tier,
      destination,
      moves: destination !== e.relPath,
      findings: findings(`${e.source}:${e.relPath}`),
      note: `${p.reason}; sets ${sets}${p.notes.length ? ` (${p.notes.join('; ')})` : ''}`,
      held: p.basis === 'flagged' ? p.reason : null,
    });
  }
  // Chosen memories the back-fill has nothing for are left out, with the reason.
  for (const key of wanted ?? [])
    skipped.push({
      file: key.slice(key.indexOf(':') + 1),
      reason: 'already has a trust-level (or is not a memory): nothing to back-fill',
    });
  return summarise('backfill', ctx, files, skipped);
}

/**
 * The user's bulk demote or archive of chosen memories (`<source>:<relPath>` keys):
 * each file is asked the same question the single buttons ask (lib/trust/allowed.ts);
 * a memory the action is not allowed for is listed under "left out" with the rule,
 * never planned. The reason is one for all (demote needs it).
 */
export function planTransitions(
  ctx: ServiceContext,
  keys: readonly string[],
  action: BulkAction,
  reason?: string,
): BatchPlan {
  const findings = findingsOf(ctx);
  const files: PlanFile[] = [];
  const skipped: BatchPlan['skipped'] = [];
  const now = ctx.now();
  for (const key of [...new Set(keys)]) {
    const s = ctx.sources.find((x) => key.startsWith(`${x.id}:`));
    const rel = s ? key.slice(s.id.length + 1) : key;
    if (!s) {
      skipped.push({ file: rel, reason: 'not in a configured memory folder' });
      continue;
    }
    const r = resolveMemory(ctx.sources, path.posix.basename(rel), { sourceId: s.id });
    if (!r.ok || r.found.relPath !== rel) {
      skipped.push({ file: rel, reason: r.ok ? `is now at ${r.found.relPath}: review it again` : r.message });
      continue;
    }
    const found = r.found;
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(found.abs);
    } catch (e) {
      skipped.push({ file: rel, reason: `cannot be read: ${(e as Error).message}` });
      continue;
    }
    const ins = inspectLocated(ctx, found, bytes, 0);
    const state = {
      validateExit: ins.verdicts.validate.exit,
      secretExit: ins.verdicts.secret.exit,
      findings: ins.findings,
    };
    const offered = memoryActions(found.source.adapter, ins.facts, now, state).find((a) => a.action === action);
    if (!offered?.allowed) {
      skipped.push({ file: rel, reason: offered?.reason ?? `${action} is not possible for this memory` });
      continue;
    }
    // A bulk promote is for clean memories: an injection flag is advisory, but read it and promote it alone.
    if (action === 'promote' && ins.verdicts.injection.exit !== 0) {
      skipped.push({ file: rel, reason: 'has an injection flag: read it and promote it on its own' });
      continue;
    }
    const d = decide(action, ins.facts, {
      now,
      machine: ctx.machine,
      reason: reason || 'preview',
      actor: 'user',
      checks: state,
    });
    if (!d.ok || d.noop) {
      skipped.push({ file: rel, reason: d.message });
      continue;
    }
    const destination = d.move ? path.posix.join(s.adapter.files.dirOf(d.move.dir, d.move.month), found.filename) : rel;
    files.push({
      id: `${s.id}:${found.filename}`,
      source: s.id,
      root: s.root,
      file: rel,
      memory: found.filename,
      sha256: ins.sha256,
      action,
      from: d.from,
      to: d.to,
      destination,
      moves: destination !== rel,
      findings: findings(key),
      note: null,
    });
  }
  return summarise('bulk', ctx, files, skipped);
}

export type ApplyResult =
  | { ok: true; outcome: BatchOutcome | null; message: string }
  | { ok: false; code: 'needs-confirmation'; message: string; count: number };

/**
 * Applies a plan as one batch. `confirmed` must be true when the plan says so
 * (CLI `--yes`, the dashboard's typed count); otherwise nothing is touched.
 */
export function applyPlan(
  ctx: ServiceContext,
  plan: BatchPlan,
  opts: { actor: Actor; confirmed: boolean; overrides?: Record<string, Tier>; reason?: string },
): ApplyResult {
  if (plan.confirm.needed && !opts.confirmed) {
    return {
      ok: false,
      code: 'needs-confirmation',
      count: plan.confirm.count,
      message: `refused without confirmation: ${plan.confirm.reason}`,
    };
  }
  if (plan.files.length === 0) return { ok: true, outcome: null, message: 'nothing to apply' };
  const demote = validatorDemotion(ctx);
  const entries =
    plan.kind === 'backfill'
      ? new Map(planBackfill(ctx, opts.overrides).map((e) => [`${e.source}:${e.plan.filename}`, e]))
      : new Map();
  const steps: BatchStep[] = plan.files.map((f) => ({
    source: rootOf(ctx, f.source)!,
    memory: f.memory,
    relPath: f.file,
    expectSha: f.sha256 || undefined,
    run: (ids) =>
      plan.kind === 'audit'
        ? applyToMemory(ctx, { ref: f.memory, sourceId: f.source, actor: 'validator', ...ids }, demote)
        : plan.kind === 'bulk'
          ? // The one single-transition path: it re-checks the rule on the file as it is now.
            transition(ctx, {
              ref: f.memory,
              sourceId: f.source,
              actor: opts.actor,
              action: f.action as BulkAction,
              reason: opts.reason,
              ...ids,
            })
          : entries.has(f.id)
            ? applyBackfill(ctx, entries.get(f.id)!, opts.actor, opts.overrides?.[f.memory], ids)
            : { ok: false, code: 'skipped', message: `${f.memory} no longer needs a back-fill` },
  }));
  const outcome = runBatch(ctx, { kind: plan.kind, actor: opts.actor }, steps);
  const verb =
    plan.kind === 'audit'
      ? 'demoted'
      : plan.kind === 'bulk'
        ? { promote: 'promoted', archive: 'archived', demote: 'demoted', backfill: 'back-filled' }[
            plan.files[0]?.action ?? 'demote'
          ]
        : 'back-filled';
  return {
    ok: true,
    outcome,
    message: `batch ${outcome.batch}: ${outcome.done} ${verb}${outcome.noop ? `, ${outcome.noop} already done` : ''}${outcome.refused ? `, ${outcome.refused} refused` : ''}`,
  };
}
