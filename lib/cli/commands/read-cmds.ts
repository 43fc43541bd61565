/** Read-side commands: scan, list, show, history, roots. */
import { exitCodeFor } from '../../error-codes';
import { UsageError, lastValue } from '../args';
import type { Io } from '../io';
import { NO_ROOT, openContext, parseServiceArgs, printJson } from '../service-args';
import { loadConfig } from '../../config';
import { describeSource } from '../../sources';
import { isDemoRoot } from '../../service/demo-root';
import { checkSourceIndex } from '../../service/index-file-scan';
import { ownerIdentity } from '../../identity';
import { listMemories, QUEUES, type Queue } from '../../../db/queries/memories';
import { history } from '../../../db/queries/history';
import { memoryDetail } from '../../service/memory-detail';
import { scan } from '../../service/scan-service';
import { rebuildIndex } from '../../service/rebuild';
import { discoverRoots } from '../../service/discover';
import { EFFECTIVE_TIERS } from '../../trust/tiers';
import { rowActions } from '../../service/list-actions';
import { historyTarget } from '../../service/history-target';
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
      const roots = new Map(ctx.sources.map((s) => [s.id, s]));
      // CONTRACT §9: each item names its layout and key, and the actions §3 allows now (lib/trust/allowed.ts).
      const actions = rowActions(ctx.handle.sqlite, res.items, ctx.now());
      printJson(io, {
        total: res.total,
        ...(ctx.config.demo ? { demo: true } : {}),
        items: res.items.map((i) => ({
          id: i.id, key: i.filename, layout: roots.get(i.source)?.kind, file: i.relPath, root: roots.get(i.source)?.root, location: { file: i.relPath },
          tier: i.tier, type: i.type, name: i.name, createdAt: i.createdAt, lastVerified: i.lastVerified, quarantinedAt: i.quarantinedAt,
          validate: i.validateExit, secret: i.secretExit, injection: i.injectionExit, conflict: i.conflict, sha256: i.sha256,
          actions: actions.get(i.key) ?? [],
        })),
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
    io.out(`${d.filename}  [${d.tier}]  ${d.root}/${d.relPath}${ctx.config.demo ? '  (demo root)' : ''}`);
    for (const [k, v] of Object.entries(d.fields)) io.out(`  ${k}: ${v}`);
    if (d.created.fromMtime) io.out(`  created: ${d.created.at} (file modified time: no created-at; the first rewrite writes it)`);
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
  synopsis: 'history [ID|FILE]',
  summary: 'audit events of the configured roots, newest first (one memory by id, path or unique filename)',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['limit'] });
    if (args.positionals.length > 1) throw new UsageError('at most one memory ID or FILE');
    const limitRaw = lastValue(args, 'limit');
    if (limitRaw !== undefined && !(Number.isInteger(Number(limitRaw)) && Number(limitRaw) > 0)) throw new UsageError('--limit must be a positive integer');
    const ctx = openContext(args, io);
    const ref = args.positionals[0];
    // Scoped to the configured roots, one memory by id (CONTRACT §5; docs/roots.md).
    const target = ref === undefined ? null : historyTarget(ctx, ref);
    if (target && !target.ok) {
      if (args.bools.has('json')) printJson(io, target);
      else io.err(`memtrust history: ${target.message}`);
      return exitCodeFor(target.code);
    }
    const scope = target ? { source: target.source, memory: target.memory } : { sources: ctx.sources.map((s) => s.id) };
    const events = history(ctx.handle.db, { ...scope, limit: Number(limitRaw ?? 1_000_000) });
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
    // Read-only: no database, no root created (CONTRACT §8; docs/roots.md).
    const config = loadConfig({ flagRoots: args.values.get('root') });
    const none = config.demo && !isDemoRoot(config.roots[0]!);
    const sources = none ? [] : config.roots.map(describeSource);
    const discovered = discoverRoots().filter((d) => !config.roots.includes(d));
    const refused = sources.some((s) => s.refused);
    // MEMORY.md is loaded into every session: its findings are checked live here (docs/claude-code-folders.md).
    const owner = ownerIdentity();
    const index = new Map(sources.map((s) => [s.id, checkSourceIndex(s, owner)]));
    if (args.bools.has('json')) {
      printJson(io, {
        configured: sources.map((s) => ({
          root: s.root, id: s.id, kind: s.kind, layout: s.layout, shape: s.shape, error: s.error,
          ...(s.refused ? { refused: s.refused } : {}), ...(config.demo ? { demo: true } : {}),
          ...(index.get(s.id) ? { indexFindings: index.get(s.id) } : {}),
        })),
        origin: none ? 'none' : config.rootsOrigin,
        ...(none ? { message: NO_ROOT } : {}),
        discovered,
      });
      return refused ? 64 : 0;
    }
    if (none) io.out(NO_ROOT);
    else io.out(`configured (${config.demo ? 'demo root: generated sample data, not your memories' : config.rootsOrigin}):`);
    for (const s of sources) {
      if (s.refused) io.out(`  ${s.root}  [not read: ${s.layout}]`);
      else io.out(`  ${s.root}  [${config.demo ? 'demo · ' : ''}${s.label}${s.shape && s.shape !== 'folders' ? `, ${s.shape}` : ''}]${s.error ? `  — ${s.error}` : ''}`);
      for (const f of index.get(s.id) ?? []) io.out(`    ${f.file} line ${f.line ?? '—'}: ${f.label} ${f.message}`);
    }
    for (const s of sources.filter((x) => x.refused)) io.err(`memtrust: ${s.refused}`);
    if (discovered.length) {
      io.out('discovered (not used until you add them with --root, MEMTRUST_ROOT or the dashboard settings):');
      for (const d of discovered) io.out(`  ${d}`);
    }
    return refused ? 64 : 0;
  },
};

export const readCommands: Record<string, Command> = { scan: scanCmd, list: listCmd, show: showCmd, history: historyCmd, roots: rootsCmd };
export type { Io };
