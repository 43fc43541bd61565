/**
 * `memtrust list`: memories and records by tier, queue or layout, as a table or JSON.
 *
 * After the rescan every command runs first, a listing of 100,000 memories reads only the
 * columns it prints, as positional rows (db/queries/memories.ts `listRows`), and builds and
 * writes its items in parts (list-output.ts): docs/performance.md, "memtrust list".
 * The bytes printed are those of lib/cli/fixtures/list-legacy.ts, which a test compares.
 */
import { UsageError, lastValue } from '../args';
import { openContext, parseServiceArgs } from '../service-args';
import { listRows, QUEUES, type ListQuery, type MemoryListItem, type Queue } from '../../../db/queries/memories';
import { RECORD_QUEUES } from '../../../db/queries/record-rows';
import { EFFECTIVE_TIERS, type Location } from '../../trust/tiers';
import { fileRecordState, type FileRecordState } from '../../trust/file-record';
import { lifecycle } from '../../trust/lifecycle';
import { loadFindings, rowActionNames, rowFacts } from '../../service/index/list-actions';
import { layoutNames } from '../../sources/registry';
import { listRecords } from '../../service/records/read';
import type { ServiceContext } from '../../service/context';
import { recordItem, recordLine } from './record-print';
import { JsonItems, writeLines, writeParts } from './list-output';
import type { Command } from './index';
import type { Io } from '../io';
import { projectFilter, projectSources } from '../../service/project-filter';
import { printAsOf } from './list-as-of';

/** `--layout` of a file layout: the first 100,000 rows of the listing, then that layout's (as the dashboard's cap). */
const LAYOUT_CAP = 100_000;
/** Items built, stringified and dropped together. */
const PART = 2000;

/** The fields `list --json` reads, in this order in each row. */
const JSON_FIELDS = [
  'key',
  'id',
  'source',
  'relPath',
  'filename',
  'location',
  'tier',
  'trustLevel',
  'type',
  'name',
  'createdAt',
  'lastVerified',
  'quarantinedAt',
  'createdMs',
  'quarantineSinceMs',
  'validateExit',
  'secretExit',
  'injectionExit',
  'conflict',
  'error',
  'sha256',
  'origin',
  'originReason',
] as const satisfies readonly (keyof MemoryListItem)[];
type JsonRow = Pick<MemoryListItem, (typeof JSON_FIELDS)[number]>;

/** The fields of a table line (and the source, for `--layout`). */
const TEXT_FIELDS = ['source', 'tier', 'relPath', 'name'] as const satisfies readonly (keyof MemoryListItem)[];

/** The keys fileRecordState returns, in order: a key added there fails the type check here. */
const RECORD_STATE_KEYS: Record<keyof FileRecordState, true> = { native: true, flags: true, flagReasons: true };
void RECORD_STATE_KEYS;

/** A `list --json` row as an object (one literal: the cheapest object V8 builds). */
function jsonRow(r: unknown[]): JsonRow {
  return {
    key: r[0] as string,
    id: r[1] as string,
    source: r[2] as string,
    relPath: r[3] as string,
    filename: r[4] as string,
    location: r[5] as string,
    tier: r[6] as string,
    trustLevel: r[7] as string | null,
    type: r[8] as string | null,
    name: r[9] as string | null,
    createdAt: r[10] as string | null,
    lastVerified: r[11] as string | null,
    quarantinedAt: r[12] as string | null,
    createdMs: r[13] as number,
    quarantineSinceMs: r[14] as number | null,
    validateExit: r[15] as number,
    secretExit: r[16] as number,
    injectionExit: r[17] as number,
    conflict: !!r[18],
    error: r[19] as string | null,
    sha256: r[20] as string,
    origin: r[21] as string | null,
    originReason: r[22] as string | null,
  };
}

/**
 * The page of memories of one `list` run, as positional rows of `fields`: `listMemories`'
 * rows (sorted by file name, then key), a file `--layout` keeping the first LAYOUT_CAP
 * rows' memories of that layout, a record `--layout` none.
 */
function memoryPage(
  ctx: ServiceContext,
  q: ListQuery,
  limit: number,
  layout: string | undefined,
  fields: readonly (keyof MemoryListItem)[],
): { rows: unknown[][]; total: number } {
  const now = ctx.now();
  // --project: the sources of that project only (ctx.sources is already scoped, docs/roots.md).
  const only = ctx.config.projectFilter !== undefined ? { sources: ctx.sources.map((s) => s.id) } : {};
  if (!layout) return listRows(ctx.handle.sqlite, { ...q, limit }, now, fields, only);
  if (!layoutNames(true).includes(layout)) return { rows: [], total: 0 };
  const ids = ctx.sources.filter((s) => s.kind === layout).map((s) => s.id);
  if (ids.length === 0) return { rows: [], total: 0 };
  // Up to the cap, the layout is a filter on the source; past it, the cap comes first.
  const over = (
    ctx.handle.sqlite.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM entries LIMIT ${LAYOUT_CAP + 1})`).get() as {
      n: number;
    }
  ).n;
  // Then the page and the total are those of the filter with the layout's sources.
  if (over <= LAYOUT_CAP) return listRows(ctx.handle.sqlite, { ...q, limit }, now, fields, { sources: ids });
  const at = fields.indexOf('source');
  const keep = new Set(ids);
  const all = listRows(ctx.handle.sqlite, { ...q, limit: LAYOUT_CAP }, now, fields).rows.filter((r) =>
    keep.has(r[at] as string),
  );
  return { rows: all.slice(0, limit), total: all.length };
}

/** The inbox's queue words (lib/web/queues.ts): the memory queues, then those only records are in. */
const LIST_QUEUES = [...QUEUES, ...RECORD_QUEUES] as const;
type ListQueue = (typeof LIST_QUEUES)[number];
const isMemoryQueue = (q: ListQueue | undefined): q is Queue | undefined =>
  q === undefined || (QUEUES as readonly string[]).includes(q);

export const listCmd: Command = {
  synopsis: 'list [--tier T] [--queue Q] [--layout L] [--project DIR] | list --as-of TIME',
  summary: `memories and records by tier, queue (${LIST_QUEUES.join(', ')}), layout or project`,
  async run(argv, io) {
    const args = parseServiceArgs(argv, {
      values: ['tier', 'queue', 'limit', 'q', 'layout', 'project', 'as-of'],
      bools: ['all'],
    });
    // A root as it was, from the kept versions (docs/versions.md, "As of").
    const asOf = lastValue(args, 'as-of');
    if (asOf !== undefined) return printAsOf(args, asOf, io);
    const tier = lastValue(args, 'tier');
    const queue = lastValue(args, 'queue');
    const layout = lastValue(args, 'layout');
    if (tier && !(EFFECTIVE_TIERS as readonly string[]).includes(tier))
      throw new UsageError(`--tier must be one of ${EFFECTIVE_TIERS.join(', ')}`);
    if (queue && !(LIST_QUEUES as readonly string[]).includes(queue))
      throw new UsageError(`--queue must be one of ${LIST_QUEUES.join(', ')}`);
    const layouts = layoutNames();
    if (layout && !layouts.includes(layout)) throw new UsageError(`--layout must be one of ${layouts.join(', ')}`);
    const limitRaw = lastValue(args, 'limit');
    const json = args.bools.has('json');
    const limit = args.bools.has('all') ? 1_000_000 : limitRaw ? Number(limitRaw) : json ? 1_000_000 : 200;
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer');
    const ctx = scopeToProject(openContext(args, io), projectFilter(lastValue(args, 'project')));
    return runList(
      ctx,
      { tier, queue: queue as ListQueue | undefined, layout, q: lastValue(args, 'q'), limit, json },
      io,
    );
  },
};

/** The context seen through a project filter (`--project DIR`): its sources only; none keeps all. */
function scopeToProject(ctx: ServiceContext, filter: string | undefined): ServiceContext {
  if (filter === undefined) return ctx;
  return {
    ...ctx,
    config: { ...ctx.config, projectFilter: filter },
    sources: projectSources(ctx.sources, filter),
    recordSources: projectSources(ctx.recordSources, filter),
  };
}

/** A checked `list` request. */
export interface ListOptions {
  tier?: string;
  queue?: ListQueue;
  layout?: string;
  q?: string;
  limit: number;
  json: boolean;
}

/** Everything `list` does after the context is open (and the roots rescanned): bench/scan.ts times it alone. */
export function runList(ctx: ServiceContext, o: ListOptions, io: Io): number {
  const { tier, queue, layout, limit, json } = o;
  // --layout: a file layout keeps that kind's memories; a record layout keeps only its records (docs/records.md, "CLI").
  // A record-only queue (contradictions, suspect…) holds no memory.
  const page = isMemoryQueue(queue)
    ? memoryPage(
        ctx,
        { tier: tier as never, queue, q: o.q, sort: 'file' },
        limit,
        layout,
        json ? JSON_FIELDS : TEXT_FIELDS,
      )
    : { rows: [], total: 0 };
  // --queue keeps the records in that queue by the inbox's rule (queueSql): one vocabulary for both.
  const fileOnly = layout !== undefined && layoutNames(true).includes(layout);
  const recs =
    ctx.recordSources.length && !fileOnly
      ? listRecords(ctx, { layout, tier, queue, q: o.q, limit: Math.max(limit - page.rows.length, 0) })
      : null;
  if (recs) {
    const roots = new Map(ctx.recordSources.map((s) => [s.id, s.root]));
    for (const e of recs.errors) io.err(`memtrust: ${e.error}`);
    for (const p of recs.problems)
      io.err(`memtrust: ${roots.get(p.source)}/${p.file}${p.line ? ` line ${p.line}` : ''}: ${p.problem}`);
    for (const w of recs.warnings) io.err(`memtrust: ${roots.get(w.source)}: ${w.warning}`);
  }
  if (json) {
    const items = jsonItems(ctx, page.rows);
    const recordSources = new Map(ctx.recordSources.map((s) => [s.id, s]));
    const tail: Record<string, unknown> = {};
    if (recs) {
      items.add(recs.items.map((r) => recordItem(r, recordSources.get(r.source))));
      tail.problems = recs.problems;
      if (recs.warnings.length) tail.warnings = recs.warnings;
      if (recs.errors.length) tail.errors = recs.errors;
    }
    const head = { total: page.total + (recs?.total ?? 0), ...(ctx.config.demo ? { demo: true } : {}) };
    writeParts(io, items.finish(head, tail));
    return 0;
  }
  const total = page.total + (recs?.total ?? 0);
  const shown = page.rows.length + (recs?.items.length ?? 0);
  if (shown === 0) io.out('no memories match');
  // TEXT_FIELDS: source, tier, relPath, name.
  const lines = page.rows.map(
    (r) => `${(r[1] as string).padEnd(12)} ${(r[2] as string).padEnd(48)} ${(r[3] as string | null) ?? ''}`,
  );
  for (const r of recs?.items ?? []) lines.push(recordLine(r));
  if (total > shown) lines.push(`… ${total - shown} more (use --all or --limit N)`);
  if (lines.length) writeLines(io, lines);
  return 0;
}

/**
 * The `list --json` items of memory rows, part by part. Each item names its layout and key
 * (docs/records.md), the record fields every layout has (CONTRACT §9; lib/trust/file-record.ts)
 * and the actions allowed now (lib/trust/allowed.ts), with the keys in the order printed.
 */
function jsonItems(ctx: ServiceContext, raw: unknown[][]): JsonItems {
  const now = ctx.now();
  const roots = new Map(ctx.sources.map((s) => [s.id, s]));
  const out = new JsonItems();
  for (let at = 0; at < raw.length; at += PART) {
    const part: JsonRow[] = [];
    for (let k = at; k < Math.min(at + PART, raw.length); k++) part.push(jsonRow(raw[k]!));
    const findings = loadFindings(ctx.handle.sqlite, part);
    const items: Record<string, unknown>[] = [];
    for (const i of part) {
      const src = roots.get(i.source);
      const facts = rowFacts(i);
      const state = fileRecordState({
        location: i.location as Location,
        trustLevel: i.trustLevel,
        conflict: i.conflict,
        lifecycle: lifecycle(facts, now),
        origin: i.origin,
        originReason: i.originReason,
      });
      items.push({
        id: i.id,
        key: i.filename,
        layout: src?.kind,
        project: src?.project ?? null,
        file: i.relPath,
        root: src?.root,
        location: { file: i.relPath },
        native: state.native,
        flags: state.flags,
        flagReasons: state.flagReasons,
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
        actions: rowActionNames(i, facts, now, findings, src?.adapter),
      });
    }
    out.add(items);
  }
  return out;
}
