/** Read-side commands: scan, list, show, history, roots. */
import path from 'node:path';
import { exitCodeFor } from '../../core/error-codes';
import { UsageError, lastValue } from '../args';
import type { Io } from '../io';
import { NO_ROOT, openContext, parseServiceArgs, printJson } from '../service-args';
import { loadConfig } from '../../core/config';
import { describeSource, isFileSource } from '../../sources';
import { isDemoRoot } from '../../service/settings/demo-root';
import { checkSourceIndex } from '../../service/claude/index-file-scan';
import { ownerIdentity } from '../../core/identity';
import { historyItems } from '../../../db/queries/history';
import { JsonItems, writeLines, writeParts } from './list-output';
import { memoryDetail, type MemoryDetail } from '../../service/index/memory-detail';
import { untrustedSummary } from '../../trust/origin';
import { scan } from '../../service/index/scan-service';
import { warmOrigins } from '../../service/origin/warm';
import { fillOrigins } from '../../service/origin/origin-index';
import { originDataDir } from '../../service/origin/memory-origin';
import { defaultWorkers } from '../../service/index/inspect-pool';
import { rebuildIndex } from '../../service/index/rebuild';
import { discoverRoots } from '../../service/settings/discover';
import { historyTarget } from '../../service/index/history-target';
import { findRecord } from '../../service/records/read';
import { printRecord, recordCount, recordShowJson } from './record-print';
import { listCmd } from './list-cmd';
import type { Command } from './index';

const scanCmd: Command = {
  synopsis: 'scan [--rebuild] [--progress]',
  summary: 'index the roots (incremental; --rebuild drops the cache first; --progress prints progress on stderr)',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { bools: ['rebuild', 'progress'] });
    const ctx = openContext(args, io, { scan: false });
    if (args.bools.has('rebuild')) rebuildIndex(ctx);
    const t = Date.now();
    // For a parent process (the dashboard's first index, docs/first-index.md): one line per
    // batch of files read and checked, the last one DONE = TOTAL.
    const stats = scan(ctx, {
      workers: defaultWorkers(),
      onProgress: args.bools.has('progress') ? (done, total) => io.err(`progress ${done} ${total}`) : undefined,
    });
    const ms = Date.now() - t;
    // The transcripts the Claude Code memories name, read once into the origin cache (docs/origin.md "Cost").
    const origins = warmOrigins(ctx);
    // Then every row's origin from the cache just filled (docs/origin.md "In the index").
    const rows = fillOrigins(ctx.handle.sqlite, ctx.sources, ctx.owner(), originDataDir(ctx), { read: true });
    if (rows.filled || rows.pending)
      stats.originRows = { filled: (stats.originRows?.filled ?? 0) + rows.filled, pending: rows.pending };
    if (args.bools.has('json')) printJson(io, { ...stats, ms, origins });
    else {
      io.out(
        `scanned ${stats.files} files in ${stats.sources} root(s): ${stats.read} read, ${stats.removed} removed, ${stats.events} audit events added${stats.outside ? ` (${stats.outside} of them changes made outside memtrust)` : ''} (${ms} ms${stats.workers ? `; read and checked with ${stats.workers} worker thread(s) beside the main one` : ''})`,
      );
      if (origins.transcripts)
        io.out(
          `origins: ${origins.memories} memories name ${origins.transcripts} session transcript(s); ${origins.read} read now (${Math.round(origins.bytesRead / 1048576)} MB, ${origins.ms} ms), the rest cached`,
        );
      for (const e of stats.errors) io.err(`  ${e}`);
    }
    return 0;
  },
};

const showCmd: Command = {
  synopsis: 'show FILE|ID|KEY',
  summary: 'one memory or record: fields, findings, lifecycle or flags, allowed actions, history',
  async run(argv, io) {
    const args = parseServiceArgs(argv);
    if (args.positionals.length !== 1) throw new UsageError('name exactly one memory FILE or record ID or KEY');
    const ctx = openContext(args, io);
    const ref = args.positionals[0]!;
    let r = memoryDetail(ctx, ref);
    // Not a memory file: a record of a record root by id or key (docs/records.md, "CLI").
    if (!r.ok && ctx.recordSources.length) {
      const found = findRecord(ctx, ref);
      if (found.ok) {
        if (args.bools.has('json')) printJson(io, recordShowJson(ctx, found.source, found.record));
        else printRecord(io, ctx, found.source, found.record);
        return 0;
      }
      if (found.code === 'ambiguous' || r.code === 'bad-name' || ctx.sources.length === 0) r = found;
    }
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
    if (d.created.fromMtime)
      io.out(`  created: ${d.created.at} (file modified time: no created-at; the first rewrite writes it)`);
    io.out(
      `verdicts: validate ${d.verdicts.validate} · secret-check ${d.verdicts.secret} · injection-check ${d.verdicts.injection}`,
    );
    for (const f of d.findings) io.out(`  ${f.label}: ${f.message}${f.line ? ` (line ${f.line})` : ''}`);
    for (const l of d.lifecycle) io.out(`• ${l}`);
    printOrigin(io, d.origin);
    io.out('actions:');
    for (const a of d.actions) io.out(`  ${a.allowed ? '✓' : '✗'} ${a.action}${a.reason ? ` — ${a.reason}` : ''}`);
    if (d.history.length) io.out('history:');
    for (const h of d.history)
      io.out(`  ${h.at} ${h.actor} ${h.action} ${h.from ?? '—'} → ${h.to ?? '—'}${h.reason ? ` (${h.reason})` : ''}`);
    return 0;
  },
};

/** The origin block of `show` (docs/origin.md). */
function printOrigin(io: Io, o: MemoryDetail['origin']): void {
  if (o.status === 'unknown') {
    io.out(`origin: unknown (${o.why})`);
    return;
  }
  io.out(
    `origin: session ${o.session.id} (project ${o.session.project}${o.session.startedAt ? `, started ${o.session.startedAt}` : ''}${o.session.cwd ? `, cwd ${o.session.cwd}` : ''})`,
  );
  io.out(
    `  written by ${o.write.tool} ${o.write.toolUseId}${o.write.at ? ` at ${o.write.at}` : ''} (turn ${o.write.turn}, transcript line ${o.write.line}${o.write.count > 1 ? `; the last of ${o.write.count} writes` : ''})`,
  );
  if (o.userMessage !== null) io.out(`  user asked: ${JSON.stringify(o.userMessage)}`);
  if (o.untrustedOrigin)
    io.out(
      `  ⚠ untrusted-origin: before writing, the turn read ${untrustedSummary(o.untrustedOrigin, 10)}; promote needs --ack-origin`,
    );
  if (o.userRequested) io.out('  user-requested: the user asked for it in that message');
}

const historyCmd: Command = {
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
    // Hundreds of thousands of events at 100,000 memories: positional rows, output in parts (docs/performance.md, "memtrust history").
    const events = historyItems(ctx.handle.sqlite, { ...scope, limit: Number(limitRaw ?? 1_000_000) });
    if (args.bools.has('json')) {
      const items = new JsonItems('events');
      for (let at = 0; at < events.length; at += 2000) items.add(events.slice(at, at + 2000));
      writeParts(io, items.finish(target?.ok && target.record ? { record: target.record } : {}, {}));
    } else if (events.length === 0)
      io.out(target?.ok && target.record ? `no audit events for ${target.record.id}` : 'no audit events');
    else
      writeLines(
        io,
        events.map(
          (e) =>
            `${e.at}  ${e.machine.padEnd(14)} ${e.actor.padEnd(9)} ${(e.recordAction ?? e.action).padEnd(8)} ${e.layout ? `${e.layout} ${e.source}:${e.memory}` : e.memory}  ${e.from ?? '—'} → ${e.to ?? '—'}${e.reason ? `  “${e.reason}”` : ''}${e.recovered ? '  (recovered)' : ''}${e.batch ? `  batch ${e.batch}` : ''}`,
        ),
      );
    return 0;
  },
};

const rootsCmd: Command = {
  synopsis: 'roots',
  summary: 'configured roots, and memory folders discovered under ~/.claude',
  async run(argv, io) {
    const args = parseServiceArgs(argv);
    // Read-only: no database, no root created (docs/configuration.md; docs/roots.md).
    const config = loadConfig({ flagRoots: args.values.get('root') });
    const none = config.demo && !isDemoRoot(config.roots[0]!);
    const sources = none ? [] : config.roots.map((r) => describeSource(r));
    const discovered = discoverRoots().filter((d) => !config.roots.includes(d));
    const refused = sources.some((s) => s.refused);
    // MEMORY.md is loaded into every session: its findings are checked live here (docs/claude-code-folders.md).
    const owner = ownerIdentity();
    const index = new Map(sources.map((s) => [s.id, checkSourceIndex(s, owner)]));
    // A record root is read for its count (no database here); its layout and shape come from its adapter.
    const counts = new Map(sources.filter((s) => !isFileSource(s)).map((s) => [s.id, recordCount(s, config.now())]));
    if (args.bools.has('json')) {
      printJson(io, {
        configured: sources.map((s) => ({
          root: s.root,
          id: s.id,
          kind: s.kind,
          layout: s.layout,
          shape: s.shape,
          project: s.project,
          error: s.error,
          ...(s.refused ? { refused: s.refused } : {}),
          ...(config.demo ? { demo: true } : {}),
          ...(index.get(s.id) ? { indexFindings: index.get(s.id) } : {}),
          ...(!isFileSource(s) ? recordRootJson(s.label, counts.get(s.id)!) : {}),
        })),
        origin: none ? 'none' : config.rootsOrigin,
        ...(none ? { message: NO_ROOT } : {}),
        discovered,
      });
      return refused ? 64 : 0;
    }
    if (none) io.out(NO_ROOT);
    else
      io.out(
        `configured (${config.demo ? 'demo root: generated sample data, not your memories' : config.rootsOrigin}):`,
      );
    for (const s of sources) {
      if (s.refused) io.out(`  ${s.root}  [not read: ${s.layout}]`);
      else if (!isFileSource(s)) {
        const c = counts.get(s.id)!;
        const n = c.error
          ? `  — ${c.error}`
          : `  — ${c.count} ${c.count === 1 ? 'record' : 'records'}${c.problems ? `, ${c.problems} unreadable ${c.problems === 1 ? 'entry' : 'entries'}` : ''}`;
        io.out(`  ${s.root}  [${s.label}: layout ${s.layout}, ${s.shape}]${s.error ? `  — ${s.error}` : n}`);
      } else
        io.out(
          `  ${s.root}  [${config.demo ? 'demo · ' : ''}${s.label}${s.shape && s.shape !== 'folders' ? `, ${s.shape}` : ''}]${s.error ? `  — ${s.error}` : ''}`,
        );
      if (s.project) io.out(`    project ${s.project.path}${s.project.exists ? '' : ' (no longer exists)'}`);
      for (const f of index.get(s.id) ?? []) io.out(`    ${f.file} line ${f.line ?? '—'}: ${f.label} ${f.message}`);
    }
    for (const s of sources.filter((x) => x.refused)) io.err(`memtrust: ${s.refused}`);
    // What a record root's store could not give, one line each naming the file (as `list` prints them).
    for (const s of sources) {
      const r = counts.get(s.id)?.read;
      for (const p of r?.problems ?? [])
        io.err(`memtrust: ${path.join(s.root, p.file)}${p.line ? ` line ${p.line}` : ''}: ${p.problem}`);
      for (const w of r?.warnings ?? []) io.err(`memtrust: ${s.root}: ${w}`);
    }
    if (discovered.length) {
      io.out('discovered (not used until you add them with --root, MEMTRUST_ROOT or the dashboard settings):');
      for (const d of discovered) io.out(`  ${d}`);
    }
    return refused ? 64 : 0;
  },
};

/** A record root in `roots --json`: its count, plus the read's problems and warnings when there are any. */
function recordRootJson(label: string, c: ReturnType<typeof recordCount>): Record<string, unknown> {
  const { read, ...records } = c;
  return {
    label,
    records,
    ...(read?.problems.length ? { readProblems: read.problems } : {}),
    ...(read?.warnings.length ? { warnings: read.warnings } : {}),
  };
}

export const readCommands: Record<string, Command> = {
  scan: scanCmd,
  list: listCmd,
  show: showCmd,
  history: historyCmd,
  roots: rootsCmd,
};
export type { Io };
