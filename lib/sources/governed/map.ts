/**
 * Rows of a codeclone engineering-memory store → records (LAYOUTS §4 mapping, written
 * out in docs/governed-layout.md, "Mapping"). Pure: no fs, no database.
 */
import { commandFor, commandLine, type CommandOptions } from './commands';
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

/** The tier and flags of one record from its native state (LAYOUTS §4). */
export function tierOf(status: string, confidence: string, approvedBy: string | null, staleReason: string | null): {
  tier: RecordTier;
  flags: GovernedFlag[];
  reasons: Partial<Record<GovernedFlag, string>>;
} {
  if (status === 'active') return { tier: activeTier(confidence, approvedBy), flags: [], reasons: {} };
  if (status === 'draft') {
    return { tier: 'inferred', flags: ['pending-human'], reasons: { 'pending-human': 'draft: waiting for a human to approve or reject it in codeclone' } };
  }
  if (status === 'stale') {
    return { tier: activeTier(confidence, approvedBy), flags: ['stale'], reasons: { stale: staleReason ? `stale: ${staleReason}` : 'stale: codeclone stored no reason' } };
  }
  if (ARCHIVED.has(status)) return { tier: 'archived', flags: [], reasons: {} };
  // A status this adapter does not know (a newer schema): never verified, and said so.
  return { tier: 'inferred', flags: ['suspect'], reasons: { suspect: `unknown codeclone status "${status}"` } };
}

function groupBy<T>(rows: Row[], key: string, make: (r: Row) => T): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = str(r[key]);
    let list = m.get(k);
    if (!list) m.set(k, (list = []));
    list.push(make(r));
  }
  return m;
}

/** Follows `supersededBy` from `start` to the newest record; stops on a cycle. */
function chainFrom(start: string, supersededBy: Map<string, string[]>): string[] {
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

export function mapRecords(rows: Row[], evidenceRows: Row[], linkRows: Row[], subjectRows: Row[], ctx: MapContext): GovernedRecord[] {
  const ids = new Set(rows.map((r) => str(r.id)));
  const evidence = groupBy<Evidence>(evidenceRows, 'memory_id', (e) => ({
    id: str(e.id),
    kind: str(e.evidence_kind),
    ref: str(e.ref),
    locator: opt(e.locator),
    quote: opt(e.quote),
    digest: opt(e.digest),
    createdAt: str(e.created_at_utc),
  }));
  const subjects = groupBy<Subject>(subjectRows, 'memory_id', (s) => ({ kind: str(s.subject_kind), key: str(s.subject_key), relation: str(s.relation) }));
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
      for (const [a, b] of [[from, to], [to, from]] as const) {
        let s = conflicts.get(a);
        if (!s) conflicts.set(a, (s = new Set()));
        s.add(b);
      }
    }
  }

  const out: GovernedRecord[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const key = str(r.id);
    const status = str(r.status);
    const confidence = str(r.confidence);
    const origin = str(r.origin);
    const approvedBy = opt(r.approved_by);
    const staleReason = opt(r.stale_reason);
    const { tier, flags, reasons } = tierOf(status, confidence, approvedBy, staleReason);
    const conflictsWith = [...(conflicts.get(key) ?? [])].sort();
    if (conflictsWith.length) {
      flags.push('conflict');
      const named = conflictsWith.map((c) => (ids.has(c) ? c : `${c} (not in the store)`));
      reasons.conflict = `contradicts ${named.join(', ')}`;
    }
    const chain = chainFrom(key, supersededBy);
    const fields: RawField[] = [];
    for (const name in r) {
      if (name === '_rowid') continue;
      const v = r[name];
      if (v !== null && v !== undefined) fields.push({ name, value: String(v), line: 0 });
    }
    const actions: GovernedAction[] = [];
    const refused: GovernedRecord['refused'] = {};
    const commands: GovernedRecord['commands'] = {};
    for (const a of GOVERNED_ACTIONS) {
      const c = commandFor(status, a);
      if (c.ok) {
        actions.push(a);
        commands[a] = commandLine(c.command, ctx.projectRoot, key, ctx.command);
      } else refused[a] = c.reason;
    }
    out[i] = {
      id: `${ctx.sourceId}:${key}`,
      layout: 'governed',
      key,
      native: `${status}/${confidence}/${origin}`,
      tier,
      flags,
      flagReasons: reasons,
      location: { file: ctx.storeFile, line: 0, endLine: 0, table: 'memory_records', rowid: Number(r._rowid ?? 0) },
      origin,
      actions,
      refused,
      commands,
      fields,
      governed: {
        projectRoot: ctx.projectRoot,
        projectId: str(r.project_id),
        identityKey: str(r.identity_key),
        type: str(r.type),
        status,
        confidence,
        origin,
        ingestSource: str(r.ingest_source),
        statement: str(r.statement),
        summary: opt(r.summary),
        createdAt: str(r.created_at_utc),
        updatedAt: str(r.updated_at_utc),
        lastVerifiedAt: opt(r.last_verified_at_utc),
        expiresAt: opt(r.expires_at_utc),
        createdBy: str(r.created_by),
        verifiedBy: opt(r.verified_by),
        approvedBy,
        approvedAt: opt(r.approved_at_utc),
        staleReason,
        evidence: evidence.get(key) ?? [],
        links: links.get(key) ?? [],
        subjects: subjects.get(key) ?? [],
        supersedes: (supersedes.get(key) ?? []).slice().sort(),
        supersededBy: (supersededBy.get(key) ?? []).slice().sort(),
        chain,
        current: chain.length > 1 ? chain[chain.length - 1]! : null,
        conflictsWith,
      },
    };
  }
  return out;
}
