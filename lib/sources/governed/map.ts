/**
 * Rows of a codeclone engineering-memory store → records (the mapping written
 * out in docs/governed-layout.md, "Mapping"). Pure: no fs, no database.
 */
import { commandFor, commandLine, type CommandOptions } from './commands';
import type { CodecloneCommand } from './types';
import {
  GOVERNED_ACTIONS,
  type Evidence,
  type GovernedAction,
  type GovernedFlag,
  type GovernedRecord,
  type Link,
  type RawField,
  type RecordTier,
  type Subject,
} from './types';

export type Row = Record<string, unknown>;

export interface MapContext {
  /** Prefix of record ids (the service's source id). */
  sourceId: string;
  /** Project root, for the `--root` of command lines. */
  projectRoot: string;
  /** Store path as shown in `location.file` (relative to the project). */
  storeFile: string;
  command?: CommandOptions;
}

const ARCHIVED = new Set(['historical', 'rejected', 'superseded', 'archived']);

function str(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}
function opt(v: unknown): string | null {
  return v === null || v === undefined || v === '' ? null : String(v);
}

/** Tier an active record would have: approved, or confidence verified → verified. */
function activeTier(confidence: string, approvedBy: string | null): RecordTier {
  return approvedBy !== null || confidence === 'verified' ? 'verified' : 'inferred';
}

/** The tier and flags of one record from its native state (docs/governed-layout.md). */
export function tierOf(
  status: string,
  confidence: string,
  approvedBy: string | null,
  staleReason: string | null,
): {
  tier: RecordTier;
  flags: GovernedFlag[];
  reasons: Partial<Record<GovernedFlag, string>>;
} {
  if (status === 'active') return { tier: activeTier(confidence, approvedBy), flags: [], reasons: {} };
  if (status === 'draft') {
    return {
      tier: 'inferred',
      flags: ['pending-human'],
      reasons: { 'pending-human': 'draft: waiting for a human to approve or reject it in codeclone' },
    };
  }
  if (status === 'stale') {
    return {
      tier: activeTier(confidence, approvedBy),
      flags: ['stale'],
      reasons: { stale: staleReason ? `stale: ${staleReason}` : 'stale: codeclone stored no reason' },
    };
  }
  if (ARCHIVED.has(status)) return { tier: 'archived', flags: [], reasons: {} };
  // A status this adapter does not know (a newer schema): never verified, and said so.
  return { tier: 'inferred', flags: ['suspect'], reasons: { suspect: `unknown codeclone status "${status}"` } };
}

function sorted(xs: string[] | undefined): string[] {
  return xs ? [...xs].sort() : [];
}

function groupBy<T>(rows: Row[], key: string, make: (r: Row) => T): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = str(r[key]);
    let list = m.get(k);
    if (!list) {
      list = [];
      m.set(k, list);
    }
    list.push(make(r));
  }
  return m;
}

/** Follows `supersededBy` from `start` to the newest record; stops on a cycle. */
function chainFrom(start: string, supersededBy: Map<string, string[]>): string[] {
  if (!supersededBy.has(start)) return [start];
  const chain = [start];
  const seen = new Set(chain);
  let at = start;
  for (;;) {
    const next = supersededBy.get(at);
    if (!next || next.length === 0) return chain;
    // Several successors: the smallest id, so the answer does not depend on row order.
    const n = [...next].sort()[0]!;
    if (seen.has(n)) return chain;
    chain.push(n);
    seen.add(n);
    at = n;
  }
}

/** `memory_records` as column names plus one array of values per row (SQLite's raw mode). */
export interface RecordRows {
  columns: string[];
  rows: unknown[][];
}

/** Per status: the actions, the refusals and the codeclone command of each action. */
function actionsFor(
  status: string,
  cache: Map<
    string,
    {
      actions: GovernedAction[];
      refused: GovernedRecord['refused'];
      command: Partial<Record<GovernedAction, CodecloneCommand>>;
    }
  >,
) {
  let hit = cache.get(status);
  if (!hit) {
    hit = { actions: [], refused: {}, command: {} };
    for (const a of GOVERNED_ACTIONS) {
      const c = commandFor(status, a);
      if (c.ok) {
        hit.actions.push(a);
        hit.command[a] = c.command;
      } else hit.refused[a] = c.reason;
    }
    cache.set(status, hit);
  }
  return hit;
}

export function mapRecords(
  records: RecordRows,
  evidenceRows: Row[],
  linkRows: Row[],
  subjectRows: Row[],
  ctx: MapContext,
): GovernedRecord[] {
  const { columns, rows } = records;
  const col = (name: string) => columns.indexOf(name);
  const c = {
    rowid: col('_rowid'),
    id: col('id'),
    projectId: col('project_id'),
    identityKey: col('identity_key'),
    type: col('type'),
    status: col('status'),
    confidence: col('confidence'),
    origin: col('origin'),
    ingestSource: col('ingest_source'),
    statement: col('statement'),
    summary: col('summary'),
    createdAt: col('created_at_utc'),
    updatedAt: col('updated_at_utc'),
    lastVerifiedAt: col('last_verified_at_utc'),
    expiresAt: col('expires_at_utc'),
    createdBy: col('created_by'),
    verifiedBy: col('verified_by'),
    approvedBy: col('approved_by'),
    approvedAt: col('approved_at_utc'),
    staleReason: col('stale_reason'),
  };
  const ids = new Set(rows.map((r) => str(r[c.id])));
  const perStatus = new Map<string, ReturnType<typeof actionsFor>>();
  const evidence = groupBy<Evidence>(evidenceRows, 'memory_id', (e) => ({
    id: str(e.id),
    kind: str(e.evidence_kind),
    ref: str(e.ref),
    locator: opt(e.locator),
    quote: opt(e.quote),
    digest: opt(e.digest),
    createdAt: str(e.created_at_utc),
  }));
  const subjects = groupBy<Subject>(subjectRows, 'memory_id', (s) => ({
    kind: str(s.subject_kind),
    key: str(s.subject_key),
    relation: str(s.relation),
  }));
  const links = new Map<string, Link[]>();
  const supersedes = new Map<string, string[]>();
  const supersededBy = new Map<string, string[]>();
  const conflicts = new Map<string, Set<string>>();
  const push = <V>(m: Map<string, V[]>, k: string, v: V) => {
    const l = m.get(k);
    if (l) l.push(v);
    else m.set(k, [v]);
  };
  for (const l of linkRows) {
    const from = str(l.from_memory_id);
    const to = str(l.to_memory_id);
    const relation = str(l.relation);
    const base = { id: str(l.id), relation, createdBy: str(l.created_by), createdAt: str(l.created_at_utc) };
    push(links, from, { ...base, direction: 'out', other: to, otherExists: ids.has(to) });
    if (to !== from) push(links, to, { ...base, direction: 'in', other: from, otherExists: ids.has(from) });
    if (relation === 'supersedes') {
      push(supersedes, from, to);
      push(supersededBy, to, from);
    } else if (relation === 'contradicts' && from !== to) {
      for (const [a, b] of [
        [from, to],
        [to, from],
      ] as const) {
        let s = conflicts.get(a);
        if (!s) {
          s = new Set();
          conflicts.set(a, s);
        }
        s.add(b);
      }
    }
  }

  const out: GovernedRecord[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const v = (k: number): unknown => (k < 0 ? undefined : r[k]);
    const key = str(v(c.id));
    const status = str(v(c.status));
    const confidence = str(v(c.confidence));
    const origin = str(v(c.origin));
    const approvedBy = opt(v(c.approvedBy));
    const staleReason = opt(v(c.staleReason));
    const { tier, flags, reasons } = tierOf(status, confidence, approvedBy, staleReason);
    const conflictSet = conflicts.get(key);
    const conflictsWith = conflictSet ? [...conflictSet].sort() : [];
    if (conflictsWith.length) {
      flags.push('conflict');
      const named = conflictsWith.map((c) => (ids.has(c) ? c : `${c} (not in the store)`));
      reasons.conflict = `contradicts ${named.join(', ')}`;
    }
    const chain = chainFrom(key, supersededBy);
    const fields: RawField[] = [];
    for (let k = 0; k < columns.length; k++) {
      const val = r[k];
      if (k !== c.rowid && val !== null && val !== undefined)
        fields.push({ name: columns[k]!, value: String(val), line: 0 });
    }
    const allowed = actionsFor(status, perStatus);
    const commands: GovernedRecord['commands'] = {};
    for (const a of allowed.actions) commands[a] = commandLine(allowed.command[a]!, ctx.projectRoot, key, ctx.command);
    out[i] = {
      id: `${ctx.sourceId}:${key}`,
      layout: 'governed',
      key,
      native: `${status}/${confidence}/${origin}`,
      tier,
      flags,
      flagReasons: reasons,
      location: { file: ctx.storeFile, line: 0, endLine: 0, table: 'memory_records', rowid: Number(v(c.rowid) ?? 0) },
      origin,
      actions: [...allowed.actions],
      refused: { ...allowed.refused },
      commands,
      fields,
      governed: {
        projectRoot: ctx.projectRoot,
        projectId: str(v(c.projectId)),
        identityKey: str(v(c.identityKey)),
        type: str(v(c.type)),
        status,
        confidence,
        origin,
        ingestSource: str(v(c.ingestSource)),
        statement: str(v(c.statement)),
        summary: opt(v(c.summary)),
        createdAt: str(v(c.createdAt)),
        updatedAt: str(v(c.updatedAt)),
        lastVerifiedAt: opt(v(c.lastVerifiedAt)),
        expiresAt: opt(v(c.expiresAt)),
        createdBy: str(v(c.createdBy)),
        verifiedBy: opt(v(c.verifiedBy)),
        approvedBy,
        approvedAt: opt(v(c.approvedAt)),
        staleReason,
        evidence: evidence.get(key) ?? [],
        links: links.get(key) ?? [],
        subjects: subjects.get(key) ?? [],
        supersedes: sorted(supersedes.get(key)),
        supersededBy: sorted(supersededBy.get(key)),
        chain,
        current: chain.length > 1 ? chain[chain.length - 1]! : null,
        conflictsWith,
      },
    };
  }
  return out;
}
