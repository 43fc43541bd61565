/**
 * Test-only: the `list` and `history` commands exactly as they were before the listings were
 * made fast (docs/performance.md, "memtrust list"), kept callable so lib/cli/list-output.test.ts
 * can compare their bytes with the real CLI's for every flag combination. Not registered as commands.
 */
import { exitCodeFor } from '../../error-codes';
import { UsageError, lastValue } from '../args';
import { openContext, parseServiceArgs, printJson } from '../service-args';
import { listMemories, QUEUES, type Queue } from '../../../db/queries/memories';
import { EFFECTIVE_TIERS, type Location } from '../../trust/tiers';
import { fileRecordState } from '../../trust/file-record';
import { lifecycle } from '../../trust/lifecycle';
import { rowActions, rowFacts } from '../../service/index/list-actions';
import { recordLayoutNames } from '../../sources/registry';
import { listRecords } from '../../service/records/read';
import { FILE_LAYOUTS, recordItem, recordLine } from './record-print';
import { history } from '../../../db/queries/history';
import { historyTarget } from '../../service/index/history-target';
import type { Command } from './index';

/** `list` as it was before docs/performance.md's "memtrust list" work: the reference the output test compares against. */
export const legacyListCmd: Command = {
  synopsis: 'list [--tier T] [--queue Q] [--layout L]',
  summary: `memories and records by tier, queue (${QUEUES.join(', ')}) or layout`,
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['tier', 'queue', 'limit', 'q', 'layout'], bools: ['all'] });
    const tier = lastValue(args, 'tier');
    const queue = lastValue(args, 'queue');
    const layout = lastValue(args, 'layout');
    if (tier && !(EFFECTIVE_TIERS as readonly string[]).includes(tier))
      throw new UsageError(`--tier must be one of ${EFFECTIVE_TIERS.join(', ')}`);
    if (queue && !(QUEUES as readonly string[]).includes(queue))
      throw new UsageError(`--queue must be one of ${QUEUES.join(', ')}`);
    const layouts = [...FILE_LAYOUTS, ...recordLayoutNames()];
    if (layout && !layouts.includes(layout)) throw new UsageError(`--layout must be one of ${layouts.join(', ')}`);
    const limitRaw = lastValue(args, 'limit');
    const limit = args.bools.has('all')
      ? 1_000_000
      : limitRaw
        ? Number(limitRaw)
        : args.bools.has('json')
          ? 1_000_000
          : 200;
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer');
    const ctx = openContext(args, io);
    const memQuery = {
      tier: tier as never,
      queue: queue as Queue | undefined,
      q: lastValue(args, 'q'),
      sort: 'file' as const,
    };
    // --layout: a file layout keeps that kind's memories; a record layout keeps only its records (docs/records.md, "CLI").
    let res: ReturnType<typeof listMemories>;
    if (!layout) res = listMemories(ctx.handle.sqlite, { ...memQuery, limit }, ctx.now());
    else if (!(FILE_LAYOUTS as readonly string[]).includes(layout)) res = { items: [], total: 0 };
    else {
      const kinds = new Map(ctx.sources.map((s) => [s.id, s.kind]));
      const all = listMemories(ctx.handle.sqlite, { ...memQuery, limit: 100_000 }, ctx.now()).items.filter(
        (i) => kinds.get(i.source) === layout,
      );
      res = { items: all.slice(0, limit), total: all.length };
    }
    // Records have no queues: --queue lists memories only.
    const fileOnly =
      queue !== undefined || (layout !== undefined && (FILE_LAYOUTS as readonly string[]).includes(layout));
    const recs =
      ctx.recordSources.length && !fileOnly
        ? listRecords(ctx, { layout, tier, q: lastValue(args, 'q'), limit: Math.max(limit - res.items.length, 0) })
        : null;
    if (recs) {
      const roots = new Map(ctx.recordSources.map((s) => [s.id, s.root]));
      for (const e of recs.errors) io.err(`memtrust: ${e.error}`);
      for (const p of recs.problems)
        io.err(`memtrust: ${roots.get(p.source)}/${p.file}${p.line ? ` line ${p.line}` : ''}: ${p.problem}`);
      for (const w of recs.warnings) io.err(`memtrust: ${roots.get(w.source)}: ${w.warning}`);
    }
    if (args.bools.has('json')) {
      const roots = new Map(ctx.sources.map((s) => [s.id, s]));
      const recordSources = new Map(ctx.recordSources.map((s) => [s.id, s]));
      // Each item names its layout and key (docs/records.md) and the actions allowed now (lib/trust/allowed.ts).
      const now = ctx.now();
      const adapters = new Map(ctx.sources.map((s) => [s.id, s.adapter]));
      const actions = rowActions(ctx.handle.sqlite, res.items, now, (id) => adapters.get(id));
      const out: { total: number; items: Record<string, unknown>[]; [k: string]: unknown } = {
        total: res.total,
        ...(ctx.config.demo ? { demo: true } : {}),
        items: res.items.map((i) => ({
          id: i.id,
          key: i.filename,
          layout: roots.get(i.source)?.kind,
          project: roots.get(i.source)?.project ?? null,
          file: i.relPath,
          root: roots.get(i.source)?.root,
          location: { file: i.relPath },
          // The same record fields as every layout's (CONTRACT §9; lib/trust/file-record.ts).
          ...fileRecordState({
            location: i.location as Location,
            trustLevel: i.trustLevel,
            conflict: i.conflict,
            lifecycle: lifecycle(rowFacts(i), now),
            origin: i.origin,
            originReason: i.originReason,
          }),
          tier: i.tier,
          type: i.type,
          name: i.name,
          createdAt: i.createdAt,
          lastVerified: i.lastVerified,
          quarantinedAt: i.quarantinedAt,
          validate: i.validateExit,
          secret: i.secretExit,
          injection: i.injectionExit,
          conflict: i.conflict,
          sha256: i.sha256,
          actions: actions.get(i.key) ?? [],
        })),
      };
      if (recs) {
        out.total += recs.total;
        out.items.push(...recs.items.map((r) => recordItem(r, recordSources.get(r.source))));
        out.problems = recs.problems;
        if (recs.warnings.length) out.warnings = recs.warnings;
        if (recs.errors.length) out.errors = recs.errors;
      }
      printJson(io, out);
      return 0;
    }
    const total = res.total + (recs?.total ?? 0);
    const shown = res.items.length + (recs?.items.length ?? 0);
    if (shown === 0) io.out('no memories match');
    const lines = res.items.map((i) => `${i.tier.padEnd(12)} ${i.relPath.padEnd(48)} ${i.name ?? ''}`);
    for (const r of recs?.items ?? []) lines.push(recordLine(r));
    if (total > shown) lines.push(`… ${total - shown} more (use --all or --limit N)`);
    if (lines.length) io.out(lines.join('\n'));
    return 0;
  },
};

/** `history` as it was before docs/performance.md's "memtrust history" work: the reference the output test compares against. */
export const legacyHistoryCmd: Command = {
  synopsis: 'history [ID|FILE|KEY]',
  summary:
    'audit events of the configured roots, newest first (one memory by id, path or unique filename; one record by id or key)',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['limit'] });
    if (args.positionals.length > 1) throw new UsageError('at most one memory ID or FILE, or record ID or KEY');
    const limitRaw = lastValue(args, 'limit');
    if (limitRaw !== undefined && !(Number.isInteger(Number(limitRaw)) && Number(limitRaw) > 0))
      throw new UsageError('--limit must be a positive integer');
    const ctx = openContext(args, io);
    const ref = args.positionals[0];
    // Scoped to the configured roots, one memory by id (docs/audit-trail.md; docs/roots.md).
    const target = ref === undefined ? null : historyTarget(ctx, ref);
    if (target && !target.ok) {
      if (args.bools.has('json')) printJson(io, target);
      else io.err(`memtrust history: ${target.message}`);
      return exitCodeFor(target.code);
    }
    // Record roots' events are listed too; a record event names its layout and key (docs/records.md, "History and reports").
    const scope = target
      ? { source: target.source, memory: target.memory }
      : { sources: [...ctx.sources, ...ctx.recordSources].map((s) => s.id) };
    const events = history(ctx.handle.db, { ...scope, limit: Number(limitRaw ?? 1_000_000) });
    if (args.bools.has('json'))
      printJson(io, target?.ok && target.record ? { record: target.record, events } : { events });
    else if (events.length === 0)
      io.out(target?.ok && target.record ? `no audit events for ${target.record.id}` : 'no audit events');
    else
      for (const e of events)
        io.out(
          `${e.at}  ${e.machine.padEnd(14)} ${e.actor.padEnd(9)} ${(e.recordAction ?? e.action).padEnd(8)} ${e.layout ? `${e.layout} ${e.source}:${e.memory}` : e.memory}  ${e.from ?? '—'} → ${e.to ?? '—'}${e.reason ? `  “${e.reason}”` : ''}${e.recovered ? '  (recovered)' : ''}${e.batch ? `  batch ${e.batch}` : ''}`,
        );
    return 0;
  },
};
