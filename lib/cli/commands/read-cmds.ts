/** Read-side commands: scan, list, show, history, roots. */
import { UsageError, lastValue } from '../args';
import type { Io } from '../io';
import { openContext, parseServiceArgs, printJson } from '../service-args';
import { listMemories, QUEUES, type Queue } from '../../../db/queries/memories';
import { history } from '../../../db/queries/history';
import { memoryDetail } from '../../service/memory-detail';
import { scan } from '../../service/scan-service';
import { rebuildIndex } from '../../service/rebuild';
import { discoverRoots } from '../../service/discover';
import { EFFECTIVE_TIERS } from '../../trust/tiers';
import type { Command } from './index';

const scanCmd: Command = {
  synopsis: 'scan [--rebuild]',
  summary: 'index the roots (incremental; --rebuild drops the cache first)',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { bools: ['rebuild'] });
    const ctx = openContext(args, io, { scan: false });
    if (args.bools.has('rebuild')) rebuildIndex(ctx);
    const t = Date.now();
    const stats = scan(ctx);
    const ms = Date.now() - t;
    if (args.bools.has('json')) printJson(io, { ...stats, ms });
    else {
      io.out(`scanned ${stats.files} files in ${stats.sources} root(s): ${stats.read} read, ${stats.removed} removed, ${stats.events} audit events added (${ms} ms)`);
      for (const e of stats.errors) io.err(`  ${e}`);
    }
    return 0;
  },
};

const listCmd: Command = {
  synopsis: 'list [--tier T] [--queue Q]',
  summary: `memories by tier or queue (${QUEUES.join(', ')})`,
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['tier', 'queue', 'limit', 'q'], bools: ['all'] });
    const tier = lastValue(args, 'tier');
    const queue = lastValue(args, 'queue');
    if (tier && !(EFFECTIVE_TIERS as readonly string[]).includes(tier)) throw new UsageError(`--tier must be one of ${EFFECTIVE_TIERS.join(', ')}`);
    if (queue && !(QUEUES as readonly string[]).includes(queue)) throw new UsageError(`--queue must be one of ${QUEUES.join(', ')}`);
    const limitRaw = lastValue(args, 'limit');
    const limit = args.bools.has('all') ? 1_000_000 : limitRaw ? Number(limitRaw) : args.bools.has('json') ? 1_000_000 : 200;
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer');
    const ctx = openContext(args, io);
    const res = listMemories(ctx.handle.sqlite, { tier: tier as never, queue: queue as Queue | undefined, q: lastValue(args, 'q'), limit, sort: 'file' }, ctx.now());
    if (args.bools.has('json')) {
      const roots = new Map(ctx.sources.map((s) => [s.id, s.root]));
      printJson(io, {
        total: res.total,
        items: res.items.map((i) => ({ id: i.id, file: i.relPath, root: roots.get(i.source), tier: i.tier, type: i.type, name: i.name, createdAt: i.createdAt, lastVerified: i.lastVerified, quarantinedAt: i.quarantinedAt, validate: i.validateExit, secret: i.secretExit, injection: i.injectionExit, conflict: i.conflict, sha256: i.sha256 })),
      });
      return 0;
    }
    if (res.items.length === 0) io.out('no memories match');
    const lines = res.items.map((i) => `${i.tier.padEnd(12)} ${i.relPath.padEnd(48)} ${i.name ?? ''}`);
    if (res.total > res.items.length) lines.push(`… ${res.total - res.items.length} more (use --all or --limit N)`);
    if (lines.length) io.out(lines.join('\n'));
    return 0;
  },
};

const showCmd: Command = {
  synopsis: 'show FILE',
  summary: 'one memory: fields, findings, lifecycle, allowed actions, history',
  async run(argv, io) {
    const args = parseServiceArgs(argv);
    if (args.positionals.length !== 1) throw new UsageError('name exactly one memory FILE');
    const ctx = openContext(args, io);
    const r = memoryDetail(ctx, args.positionals[0]!);
    if (!r.ok) {
      if (args.bools.has('json')) printJson(io, r);
      else io.err(`memtrust show: ${r.message}`);
      return 2;
    }
    const d = r.detail;
    if (args.bools.has('json')) {
      const { facts: _facts, ...rest } = d;
      printJson(io, rest);
      return 0;
    }
    io.out(`${d.filename}  [${d.tier}]  ${d.root}/${d.relPath}`);
    for (const [k, v] of Object.entries(d.fields)) io.out(`  ${k}: ${v}`);
    io.out(`verdicts: validate ${d.verdicts.validate} · secret-check ${d.verdicts.secret} · injection-check ${d.verdicts.injection}`);
    for (const f of d.findings) io.out(`  ${f.label}: ${f.message}${f.line ? ` (line ${f.line})` : ''}`);
    for (const l of d.lifecycle) io.out(`• ${l}`);
    io.out('actions:');
    for (const a of d.actions) io.out(`  ${a.allowed ? '✓' : '✗'} ${a.action}${a.reason ? ` — ${a.reason}` : ''}`);
    if (d.history.length) io.out('history:');
    for (const h of d.history) io.out(`  ${h.at} ${h.actor} ${h.action} ${h.from ?? '—'} → ${h.to ?? '—'}${h.reason ? ` (${h.reason})` : ''}`);
    return 0;
  },
};

const historyCmd: Command = {
  synopsis: 'history [FILE]',
  summary: 'audit events, newest first',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['limit'] });
    if (args.positionals.length > 1) throw new UsageError('at most one FILE');
    const ctx = openContext(args, io);
    const memory = args.positionals[0]?.split(/[\\/]/).pop();
    const events = history(ctx.handle.db, { memory, limit: Number(lastValue(args, 'limit') ?? 1_000_000) });
    if (args.bools.has('json')) printJson(io, { events });
    else if (events.length === 0) io.out('no audit events');
    else for (const e of events) io.out(`${e.at}  ${e.machine.padEnd(14)} ${e.actor.padEnd(9)} ${e.action.padEnd(8)} ${e.memory}  ${e.from ?? '—'} → ${e.to ?? '—'}${e.reason ? `  “${e.reason}”` : ''}${e.recovered ? '  (recovered)' : ''}${e.batch ? `  batch ${e.batch}` : ''}`);
    return 0;
  },
};

const rootsCmd: Command = {
  synopsis: 'roots',
  summary: 'configured roots, and memory folders discovered under ~/.claude',
  async run(argv, io) {
    const args = parseServiceArgs(argv);
    const ctx = openContext(args, io, { scan: false });
    const discovered = discoverRoots().filter((d) => !ctx.config.roots.includes(d));
    if (args.bools.has('json')) {
      printJson(io, { configured: ctx.sources.map((s) => ({ root: s.root, id: s.id, kind: s.kind, error: s.error })), origin: ctx.config.rootsOrigin, discovered });
      return 0;
    }
    io.out(`configured (${ctx.config.rootsOrigin}):`);
    for (const s of ctx.sources) io.out(`  ${s.root}  [${s.label}]${s.error ? `  — ${s.error}` : ''}`);
    if (discovered.length) {
      io.out('discovered (not used until you add them with --root, MEMTRUST_ROOT or the dashboard settings):');
      for (const d of discovered) io.out(`  ${d}`);
    }
    return 0;
  },
};

export const readCommands: Record<string, Command> = { scan: scanCmd, list: listCmd, show: showCmd, history: historyCmd, roots: rootsCmd };
export type { Io };
