/**
 * Reading record sources (docs/records.md, "Reading"): the adapter reads the store, the
 * secret and injection checks run on each record's text with the owner's allowances, the
 * result is masked and written to the one index table, `entries` (`is_record` 1; docs/records.md,
 * "The index"), the root's change token to its `sources` row. A store is read again only
 * when its change token moved (or the owner's rules or the clock hour did); otherwise
 * the process's memory, then the index, answer. The index is a cache: deleting the
 * database loses nothing, the next call reads the stores again.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import {
  RECORD_FLAGS,
  type LayoutRecord,
  type ReadProblem,
  type RecordFlag,
  type RecordTier,
} from '../../sources/record';
import { isFileSource, type SourceInfo } from '../../sources';
import type { Finding, OwnerIdentity } from '../../validators/types';
import { runSecretAndInjection } from '../../validators/secret-and-injection';
import { splitHints } from '../../validators/hints';
import { maskBody } from '../../validators/withhold';
import { confine } from '../../core/paths';
import { readSignature } from '../index/scan';
import type { ServiceContext } from '../context';
import { ms, queueSql } from '../../../db/queries/record-rows';
import { RECORD_ENTRY } from '../../../db/queries/entry-kind';

export interface RecordView extends LayoutRecord {
  /** Source id. */
  source: string;
  /** Secret and injection findings on `text` (docs/validators.md); their lines are file lines where the span allows. */
  findings: Finding[];
}

export interface RecordFilter {
  source?: string;
  layout?: string;
  tier?: string;
  flag?: string;
  /** Records with a finding of this check: `secret` or `injection`. */
  finding?: string;
  /** Records with a secret finding of this class (docs/credentials.md). */
  cls?: 'credential' | 'personal';
  /** Records with a finding of this code (`secret.private-ip`, `injection.persona-override`…). */
  kind?: string;
  /** `detail.category` (canonical entries: landmarks, backlog, …, `pending`). */
  category?: string;
  /** `detail.shape` (canonical entries: flat or sharded). */
  shape?: string;
  /** A queue of the inbox's (`review`, `due`, `stale`, `contradictions`…; db/queries/record-rows.ts queueSql). */
  queue?: string;
  q?: string;
  offset?: number;
  limit?: number;
}

export interface SourceRead {
  records: RecordView[];
  problems: ReadProblem[];
  warnings: string[];
  error: string | null;
}

export type FindResult =
  | { ok: true; source: SourceInfo; record: RecordView }
  | { ok: false; code: 'not-found' | 'ambiguous'; message: string };

/** What one action of a record allows now: refusals carry the reason and, for a read-only layout, the owner's command. */
export interface RecordActionState {
  action: string;
  allowed: boolean;
  reason: string | null;
  command: string | null;
}

// ---- validators on record text ----

/** A finding's line inside the text, placed in the file when the record spans several lines. */
function fileLine(rec: LayoutRecord, line: number | undefined): number | undefined {
  if (line === undefined || rec.location.line <= 0) return line;
  if (rec.location.endLine > rec.location.line) return Math.min(rec.location.line + line - 1, rec.location.endLine);
  return rec.location.line;
}

function maskDeep(v: unknown, owner: OwnerIdentity): unknown {
  if (typeof v === 'string') return maskBody(v, owner).text;
  if (Array.isArray(v)) return v.map((x) => maskDeep(x, owner));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskDeep(x, owner)]));
  return v;
}

/**
 * The same secret and injection checks a memory file gets (lib/validators), on the
 * record's text; a record with a secret finding is masked before it is stored or shown.
 */
export function validateRecord(rec: LayoutRecord, sourceId: string, owner: OwnerIdentity): RecordView {
  const bytes = Buffer.from(rec.text, 'utf8');
  const both = runSecretAndInjection(bytes, owner);
  const secret = both.secret;
  // The always/never density is a hint here too, never an injection finding (docs/validators.md "Hints").
  const { injection, hints } = splitHints(both.injection);
  const findings = [...secret.findings, ...injection.findings, ...hints].map((f) => ({
    ...f,
    line: fileLine(rec, f.line),
  }));
  for (const f of findings) if (f.line === undefined) delete f.line;
  if (secret.exit === 0) return { ...rec, source: sourceId, findings };
  return {
    ...rec,
    source: sourceId,
    findings,
    // Masked in place like the body: the rest of the claim stays readable (docs/credentials.md).
    title: maskBody(rec.title, owner).text,
    text: maskBody(rec.text, owner).text,
    fields: rec.fields.map((f) => ({ ...f, value: maskBody(f.value, owner).text })),
    detail: maskDeep(rec.detail, owner) as Record<string, unknown>,
  };
}

// ---- cache: memory, then the index ----

interface Cached {
  token: string;
  read: SourceRead;
}
const g = globalThis as unknown as { __memtrustRecordCache?: Map<string, Cached> };
g.__memtrustRecordCache ??= new Map();
const memory = g.__memtrustRecordCache;

/** Forget the in-memory reads (tests; the index stays). */
export function forgetRecordCache(): void {
  memory.clear();
}

/** The adapter's token plus what else the read depends on: the owner's rules and the clock hour (ages, TTLs). */
function fullToken(ctx: ServiceContext, source: SourceInfo, owner: OwnerIdentity): string {
  const adapter = source.adapter;
  return [
    adapter.layout,
    source.root,
    adapter.changeToken(source.root),
    readSignature(owner),
    ctx.now().toISOString().slice(0, 13),
  ].join('\n');
}

function loadIndexed(sqlite: Database.Database, source: SourceInfo, token: string): SourceRead | null {
  const row = sqlite.prepare('SELECT token, problems, warnings FROM sources WHERE id = ?').get(source.id) as
    | { token: string | null; problems: string; warnings: string }
    | undefined;
  if (!row || row.token !== token) return null;
  const rows = sqlite
    .prepare(`SELECT data FROM entries WHERE ${RECORD_ENTRY} AND source = ? ORDER BY file, line, filename`)
    .all(source.id) as { data: string }[];
  return {
    records: rows.map((r) => JSON.parse(r.data) as RecordView),
    problems: JSON.parse(row.problems),
    warnings: JSON.parse(row.warnings),
    error: null,
  };
}

function storeIndexed(sqlite: Database.Database, source: SourceInfo, token: string, read: SourceRead, now: Date): void {
  // A record fills the memory columns as the lists read them (docs/records.md, "The index"):
  // the same dates as epoch ms, its type the category (or type) of its detail.
  const ins = sqlite.prepare(
    `INSERT INTO entries (key, is_record, id, source, rel_path, filename, location, tier, trust_level, type, name, created_at, last_verified,
       created_ms, created_from_mtime, last_verified_ms, size, mtime_ms, sha256, validate_exit, secret_exit, injection_exit,
       finding_count, finding_checks, needs_backfill, conflict, body,
       layout, flags, record_origin, file, line, end_line, credential_count, personal_count, injection_count, data)
     VALUES (@id, 1, @id, @source, @relPath, @key, 'memories', @tier, @native,
       coalesce(json_extract(@data, '$.detail.category'), json_extract(@data, '$.detail.type')), @title, @createdAt, @verifiedAt,
       coalesce(${ms('@createdAt')}, 0), 0, ${ms('@verifiedAt')}, length(CAST(@text AS BLOB)), 0, '', 0,
       CASE WHEN @credential + @personal > 0 THEN 1 ELSE 0 END, CASE WHEN @injection > 0 THEN 1 ELSE 0 END,
       @credential + @personal + @injection,
       trim(CASE WHEN @credential + @personal > 0 THEN 'secret' ELSE '' END || CASE WHEN @injection > 0 THEN ' injection' ELSE '' END),
       0, 0, @text,
       @layout, @flags, @origin, @file, @line, @endLine, @credential, @personal, @injection, @data)`,
  );
  const del = sqlite.prepare(`DELETE FROM entries WHERE key = ? AND ${RECORD_ENTRY}`);
  sqlite
    .transaction(() => {
      // Only the rows that differ are written: a record action changes one line of a store
      // of thousands (docs/performance.md, "Records").
      const old = new Map<string, { key: string; data: string }>();
      for (const row of sqlite
        .prepare(`SELECT key AS id, filename AS key, data FROM entries WHERE ${RECORD_ENTRY} AND source = ?`)
        .iterate(source.id) as Iterable<{ id: string; key: string; data: string }>)
        old.set(row.id, row);
      for (const r of read.records) {
        const data = JSON.stringify(r);
        const was = old.get(r.id);
        old.delete(r.id);
        if (was?.data === data) continue;
        if (was) del.run(r.id);
        const count = (pred: (f: Finding) => boolean) => r.findings.filter(pred).length;
        ins.run({
          id: r.id,
          source: source.id,
          layout: r.layout,
          key: r.key,
          native: r.native,
          tier: r.tier,
          flags: JSON.stringify(r.flags),
          title: r.title,
          origin: r.origin,
          createdAt: r.createdAt,
          verifiedAt: r.verifiedAt,
          relPath: r.location.line > 0 ? `${r.location.file}:${r.location.line}` : r.location.file,
          file: r.location.file,
          line: r.location.line,
          endLine: r.location.endLine,
          credential: count((f) => f.check === 'secret' && f.class !== 'personal'),
          personal: count((f) => f.check === 'secret' && f.class === 'personal'),
          injection: count((f) => f.check === 'injection'),
          text: r.text,
          data,
        });
      }
      for (const id of old.keys()) del.run(id);
      // The root's row in `sources`, its kind the layout (file roots' rows are the scan's).
      sqlite
        .prepare(
          `INSERT INTO sources (id, root, kind, label, scanned_at, error, shape, token, problems, warnings, read_at) VALUES (?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET root = excluded.root, kind = excluded.kind, label = excluded.label, shape = excluded.shape, token = excluded.token,
             problems = excluded.problems, warnings = excluded.warnings, error = NULL, read_at = excluded.read_at`,
        )
        .run(
          source.id,
          source.root,
          source.adapter.layout,
          source.label,
          source.shape ?? '',
          token,
          JSON.stringify(read.problems),
          JSON.stringify(read.warnings),
          now.toISOString(),
        );
    })
    .immediate();
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
}

/**
 * The checks of the records the index already holds, for a re-read of the same store
 * (docs/performance.md, "Records"): a record whose text and lines are as indexed, checked
 * under the same rules and owner and found without a secret (so stored unmasked), gets the
 * same findings again — the checks read nothing but the text, and the lines map the same
 * way. Any other record is checked afresh.
 */
function previousFindings(
  sqlite: Database.Database,
  source: SourceInfo,
  owner: OwnerIdentity,
): (rec: LayoutRecord) => RecordView | null {
  const none = () => null;
  const row = sqlite.prepare('SELECT token FROM sources WHERE id = ?').get(source.id) as
    | { token: string | null }
    | undefined;
  const was = row?.token?.split('\n') ?? [];
  if (was[0] !== source.adapter.layout || was[1] !== source.root || was[3] !== readSignature(owner)) return none;
  const prior = new Map<string, { text: string; line: number; endLine: number; findings: string | null }>();
  for (const r of sqlite
    .prepare(
      // Findings are secret or injection findings: a row that counts neither has none, and its JSON is not parsed.
      `SELECT key AS id, body AS text, line, end_line AS endLine,
              CASE WHEN injection_count = 0 THEN '[]' ELSE json_extract(data, '$.findings') END AS findings
         FROM entries WHERE ${RECORD_ENTRY} AND source = ? AND credential_count = 0 AND personal_count = 0`,
    )
    .iterate(source.id) as Iterable<{
    id: string;
    text: string;
    line: number;
    endLine: number;
    findings: string | null;
  }>)
    prior.set(r.id, r);
  if (prior.size === 0) return none;
  return (rec) => {
    const p = prior.get(rec.id);
    if (!p || p.findings === null || p.text !== rec.text) return null;
    if (p.line !== rec.location.line || p.endLine !== rec.location.endLine) return null;
    const findings = p.findings === '[]' ? [] : (JSON.parse(p.findings) as Finding[]);
    if (findings.some((f) => f.check === 'secret')) return null;
    return { ...rec, source: source.id, findings };
  };
}

/**
 * Every record of one record source, validated and masked; read through the adapter only
 * when the store changed since the last read (memory, then the index, answer otherwise).
 */
export function readSourceRecords(ctx: ServiceContext, source: SourceInfo): SourceRead {
  const adapter = source.adapter;
  if (isFileSource(source))
    return { records: [], problems: [], warnings: [], error: `${source.root} is not a record source` };
  if (source.error) return { records: [], problems: [], warnings: [], error: source.error };
  const owner = ctx.owner();
  let token: string;
  try {
    token = fullToken(ctx, source, owner);
  } catch (e) {
    return { records: [], problems: [], warnings: [], error: `cannot read ${source.root}: ${firstLine(e)}` };
  }
  const memKey = `${ctx.handle.path}\n${source.id}`;
  const hit = memory.get(memKey);
  const sqlite = ctx.handle.sqlite;
  // The process's copy holds only while the index agrees (another process may have re-read, or the db was rebuilt).
  const indexed = sqlite.prepare('SELECT token FROM sources WHERE id = ?').get(source.id) as
    | { token: string | null }
    | undefined;
  if (hit && hit.token === token && indexed?.token === token) return hit.read;
  const stored = loadIndexed(sqlite, source, token);
  if (stored) {
    memory.set(memKey, { token, read: stored });
    return stored;
  }
  const reuse = previousFindings(sqlite, source, owner);
  let raw: ReturnType<typeof adapter.read>;
  try {
    raw = adapter.read(source.root, { sourceId: source.id, now: ctx.now() });
  } catch (e) {
    return { records: [], problems: [], warnings: [], error: `cannot read ${source.root}: ${firstLine(e)}` };
  }
  const seen = new Map<string, LayoutRecord>();
  const problems = [...raw.problems];
  const records: RecordView[] = [];
  for (const r of raw.records) {
    const first = seen.get(r.id);
    if (first) {
      problems.push({
        file: r.location.file,
        line: r.location.line,
        problem: `duplicate key ${r.key} (first at ${first.location.file} line ${first.location.line}); this one is not listed`,
      });
      continue;
    }
    seen.set(r.id, r);
    records.push(reuse(r) ?? validateRecord(r, source.id, owner));
  }
  const read: SourceRead = { records, problems, warnings: raw.warnings, error: null };
  storeIndexed(sqlite, source, token, read, ctx.now());
  memory.set(memKey, { token, read });
  return read;
}

/** Brings the index up to date for every record source; returns the reads by source id. */
function syncAll(ctx: ServiceContext): Map<string, SourceRead> {
  return new Map(ctx.recordSources.map((s) => [s.id, readSourceRecords(ctx, s)]));
}

/** Each equality filter of the table and its SQL test on a record's entry (`data` is the RecordView as JSON). */
const FILTER_SQL: [
  keyof RecordFilter & ('layout' | 'tier' | 'flag' | 'finding' | 'cls' | 'kind' | 'category' | 'shape'),
  string,
][] = [
  ['layout', 'layout = @layout'],
  ['tier', 'tier = @tier'],
  ['flag', 'EXISTS (SELECT 1 FROM json_each(flags) WHERE value = @flag)'],
  ['finding', "EXISTS (SELECT 1 FROM json_each(data, '$.findings') WHERE json_extract(value, '$.check') = @finding)"],
  ['cls', "(CASE @cls WHEN 'credential' THEN credential_count ELSE personal_count END) > 0"],
  ['kind', "EXISTS (SELECT 1 FROM json_each(data, '$.findings') WHERE json_extract(value, '$.code') = @kind)"],
  ['category', "json_extract(data, '$.detail.category') = @category"],
  ['shape', "json_extract(data, '$.detail.shape') = @shape"],
];

export function listRecords(
  ctx: ServiceContext,
  filter: RecordFilter = {},
): {
  items: RecordView[];
  total: number;
  problems: (ReadProblem & { source: string })[];
  warnings: { source: string; warning: string }[];
  errors: { source: string; error: string }[];
} {
  const all = syncAll(ctx);
  // Problems, warnings and errors of the sources the filter keeps.
  const layouts = new Map(ctx.recordSources.map((s) => [s.id, s.adapter.layout as string]));
  const reads = [...all].filter(
    ([s]) => (!filter.source || s === filter.source) && (!filter.layout || layouts.get(s) === filter.layout),
  );
  const problems = reads.flatMap(([source, r]) => r.problems.map((p) => ({ ...p, source })));
  const warnings = reads.flatMap(([source, r]) => r.warnings.map((warning) => ({ source, warning })));
  const errors = reads.flatMap(([source, r]) => (r.error ? [{ source, error: r.error }] : []));
  const ok = reads.filter(([, r]) => !r.error).map(([s]) => s);
  const where = ['source IN (SELECT value FROM json_each(@sources))'];
  const params: Record<string, unknown> = { sources: JSON.stringify(ok) };
  for (const [name, test] of FILTER_SQL) {
    if (!filter[name]) continue;
    where.push(test);
    params[name] = filter[name];
  }
  const queue = filter.queue ? queueSql(filter.queue) : '';
  if (queue) where.push(queue);
  if (filter.q) {
    where.push("(name LIKE @q ESCAPE '\\' OR filename LIKE @q ESCAPE '\\' OR body LIKE @q ESCAPE '\\')");
    params.q = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }
  const sql = `FROM entries m WHERE m.${RECORD_ENTRY} AND ${where.join(' AND ')}`;
  const sqlite = ctx.handle.sqlite;
  const total = (sqlite.prepare(`SELECT count(*) AS n ${sql}`).get(params) as { n: number }).n;
  const limit = Math.min(Math.max(filter.limit ?? 1_000_000, 0), 1_000_000);
  const offset = Math.max(filter.offset ?? 0, 0);
  const rows = sqlite
    .prepare(`SELECT data ${sql} ORDER BY source, file, line, filename LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit, offset }) as { data: string }[];
  return { items: rows.map((r) => JSON.parse(r.data) as RecordView), total, problems, warnings, errors };
}

/**
 * Is the index current for this source (its token is the store's now)? Then a lookup needs
 * none of its rows in memory (docs/performance.md, "Records"); otherwise the store is read.
 */
function syncOne(ctx: ServiceContext, source: SourceInfo): { error: string | null } {
  if (!isFileSource(source) && !source.error) {
    try {
      const token = fullToken(ctx, source, ctx.owner());
      const indexed = ctx.handle.sqlite.prepare('SELECT token FROM sources WHERE id = ?').get(source.id) as
        | { token: string | null }
        | undefined;
      if (indexed?.token === token) return { error: null };
    } catch {
      // readSourceRecords says what went wrong
    }
  }
  return { error: readSourceRecords(ctx, source).error };
}

/** One record by its full id (`<source>:<key>`) or its bare key; a key found in two roots is refused, naming both. */
/**
 * Brings the record rows of `entries` up to date for every configured record root (a token compare when
 * nothing moved) and returns the ids of the roots read without error: the list queries over
 * memories and records (db/queries/record-rows.ts) keep these roots' rows only.
 */
export function syncRecordIndex(ctx: ServiceContext): string[] {
  return ctx.recordSources.filter((s) => !syncOne(ctx, s).error).map((s) => s.id);
}

export function findRecord(ctx: ServiceContext, idOrKey: string): FindResult {
  const synced = new Map(ctx.recordSources.map((s) => [s.id, syncOne(ctx, s)]));
  const ok = [...synced].filter(([, r]) => !r.error).map(([s]) => s);
  const sqlite = ctx.handle.sqlite;
  const pick = (where: string, value: string) =>
    sqlite
      .prepare(
        `SELECT source, data FROM entries WHERE ${RECORD_ENTRY} AND ${where} AND source IN (SELECT value FROM json_each(?)) ORDER BY source`,
      )
      .all(value, JSON.stringify(ok)) as { source: string; data: string }[];
  let rows = pick('key = ?', idOrKey);
  if (rows.length === 0) rows = pick('filename = ?', idOrKey);
  if (rows.length === 0) {
    const reads = syncAll(ctx);
    // A root that gave no record at all because its store could not be read is named: the record may be there.
    const unread = [...reads].flatMap(([s, r]) => {
      const root = ctx.recordSources.find((x) => x.id === s)?.root ?? s;
      if (r.error) return [r.error];
      if (r.records.length) return [];
      return r.problems.map((p) => `${path.join(root, p.file)}: ${p.problem}`);
    });
    return {
      ok: false,
      code: 'not-found',
      message: `no record ${idOrKey} in the configured record roots${unread.length ? `; unreadable: ${unread.join('; ')}` : ''}`,
    };
  }
  if (rows.length > 1) {
    return {
      ok: false,
      code: 'ambiguous',
      message: `${idOrKey} names records in ${rows.length} roots (${rows.map((r) => JSON.parse(r.data).id).join(', ')}): give the full id`,
    };
  }
  const source = ctx.recordSources.find((s) => s.id === rows[0]!.source)!;
  return { ok: true, source, record: JSON.parse(rows[0]!.data) as RecordView };
}

/**
 * Every verb of the record's layout, allowed or not: a refusal names why, and for a
 * read-only layout the owning tool's command the adapter plans instead (docs/records.md).
 */
export function recordActionStates(ctx: ServiceContext, source: SourceInfo, record: RecordView): RecordActionState[] {
  const adapter = source.adapter;
  const read = (file: string): Buffer | null => {
    try {
      return fs.readFileSync(confine(source.root, file));
    } catch {
      return null;
    }
  };
  const verbs = [...adapter.actions, ...record.actions.filter((a) => !adapter.actions.includes(a))];
  return verbs.map((action) => {
    // A read-only layout allows memtrust nothing: each verb it knows is the owner's command to copy.
    if (!adapter.readOnly && record.actions.includes(action))
      return { action, allowed: true, reason: null, command: null };
    let reason = record.refused[action] ?? adapter.readOnly ?? `${action} does not apply to this record`;
    let command: string | null = null;
    if (adapter.readOnly) {
      const r = adapter.plan(record, action, { now: ctx.now(), read });
      if (!r.ok) {
        reason = r.reason;
        command = r.command ?? null;
      }
    }
    return { action, allowed: false, reason, command };
  });
}

export interface RecordSourceSummary {
  source: string;
  root: string;
  label: string;
  layout: string;
  shape: string;
  count: number;
  problems: number;
  error: string | null;
  /** The records by tier, by flag, and with secret / injection findings: the overview's record cards. */
  counts: RecordCounts;
}

export interface RecordCounts {
  tiers: Record<RecordTier, number>;
  flags: Record<RecordFlag, number>;
  secret: number;
  injection: number;
}

/** Tier, flag and finding counts of some records (a record with two flags counts under both). */
export function recordCounts(records: readonly Pick<RecordView, 'tier' | 'flags' | 'findings'>[]): RecordCounts {
  const counts: RecordCounts = {
    tiers: { verified: 0, inferred: 0, quarantined: 0, archived: 0 },
    flags: Object.fromEntries(RECORD_FLAGS.map((f) => [f, 0])) as Record<RecordFlag, number>,
    secret: 0,
    injection: 0,
  };
  for (const r of records) {
    counts.tiers[r.tier]++;
    for (const f of r.flags) counts.flags[f]++;
    if (r.findings.some((f) => f.check === 'secret')) counts.secret++;
    if (r.findings.some((f) => f.check === 'injection')) counts.injection++;
  }
  return counts;
}

/** The sum of several roots' counts. */
export function addRecordCounts(all: readonly RecordCounts[]): RecordCounts {
  const total = recordCounts([]);
  for (const c of all) {
    for (const t of Object.keys(total.tiers) as RecordTier[]) total.tiers[t] += c.tiers[t];
    for (const f of RECORD_FLAGS) total.flags[f] += c.flags[f];
    total.secret += c.secret;
    total.injection += c.injection;
  }
  return total;
}

/** Per record root, what the overview and settings show: layout, shape, record count, unreadable entries, counts. */
export function recordSourceSummaries(ctx: ServiceContext): RecordSourceSummary[] {
  return ctx.recordSources.map((s) => {
    const r = readSourceRecords(ctx, s);
    return {
      source: s.id,
      root: s.root,
      label: s.label,
      layout: s.adapter.layout,
      shape: s.shape ?? '',
      count: r.records.length,
      problems: r.problems.length,
      error: r.error,
      counts: recordCounts(r.records),
    };
  });
}

/**
 * The record as the store holds it now, unmasked and uncached: what a plan needs (the
 * write pipeline reads the store afresh under its lock; pages and the CLI use RecordView).
 */
export function readRawRecord(ctx: ServiceContext, source: SourceInfo, id: string): LayoutRecord | null {
  if (isFileSource(source) || source.error) return null;
  const r = source.adapter.read(source.root, { sourceId: source.id, now: ctx.now() });
  return r.records.find((x) => x.id === id) ?? null;
}
