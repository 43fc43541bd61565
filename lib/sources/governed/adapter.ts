/**
 * codeclone's governed engineering memory (docs/governed-layout.md) as a LayoutAdapter
 * (lib/sources/layout-adapter.ts), read-only: read.ts's records mapped onto the shared
 * record model, every read failure one ReadProblem naming the file, and every plan a
 * refusal carrying codeclone's own command line. It never writes the store (read.ts
 * reads it into memory). docs/governed-layout.md, "Wiring".
 */
import path from 'node:path';
import type { LayoutAdapter, PlanContext, ReadContext } from '../layout-adapter';
import type { LayoutRead, LayoutRecord, RecordPlanResult } from '../record';
import { READ_ONLY_REASON, commandFor, commandLine } from './commands';
import { changeToken as storeToken, detect, read as readStore } from './read';
import { GOVERNED_ACTIONS, type GovernedRecord } from './types';

/** What the record carries in `detail` (JSON-safe), per docs/governed-layout.md and the records API. */
export interface GovernedDetail {
  status: string;
  confidence: string;
  origin: string;
  type: string;
  /** The command line per action codeclone allows now. */
  commands: Record<string, string>;
  evidence: GovernedRecord['governed']['evidence'];
  links: GovernedRecord['governed']['links'];
  subjects: GovernedRecord['governed']['subjects'];
  chain: string[];
  current: string | null;
  supersedes: string[];
  supersededBy: string[];
  conflictsWith: string[];
  staleReason: string | null;
  summary: string | null;
  identityKey: string;
  projectRoot: string;
  approvedBy: string | null;
  approvedAt: string | null;
  expiresAt: string | null;
  rowid: number;
}

/** The store's path as the configured root sees it (`.codeclone/memory/…` for a project root). */
function relToRoot(root: string, store: string): string {
  return path.relative(path.resolve(root), store).split(path.sep).join('/') || path.basename(store);
}

export function toLayoutRecord(g: GovernedRecord, file: string): LayoutRecord {
  const v = g.governed;
  const detail: GovernedDetail = {
    status: v.status,
    confidence: v.confidence,
    origin: v.origin,
    type: v.type,
    commands: { ...g.commands } as Record<string, string>,
    evidence: v.evidence,
    links: v.links,
    subjects: v.subjects,
    chain: v.chain,
    current: v.current,
    supersedes: v.supersedes,
    supersededBy: v.supersededBy,
    conflictsWith: v.conflictsWith,
    staleReason: v.staleReason,
    summary: v.summary,
    identityKey: v.identityKey,
    projectRoot: v.projectRoot,
    approvedBy: v.approvedBy,
    approvedAt: v.approvedAt,
    expiresAt: v.expiresAt,
    rowid: g.location.rowid,
  };
  const evidenceText = v.evidence.flatMap((e) => [e.ref, e.locator, e.quote].filter((x): x is string => !!x));
  return {
    id: g.id,
    layout: 'governed',
    key: g.key,
    native: g.native,
    tier: g.tier,
    flags: [...g.flags],
    flagReasons: { ...g.flagReasons },
    location: { file, line: 0, endLine: 0 },
    origin: g.origin,
    title: v.statement.split('\n')[0]!.trim() || g.key,
    text: [v.statement, v.summary ?? '', ...evidenceText].filter(Boolean).join('\n'),
    createdAt: v.createdAt || null,
    verifiedAt: v.lastVerifiedAt,
    actions: [...g.actions],
    refused: { ...g.refused } as Record<string, string>,
    fields: g.fields,
    detail: detail as unknown as Record<string, unknown>,
  };
}

function read(root: string, ctx: ReadContext): LayoutRead {
  const detected = detect(root);
  if (!detected)
    return {
      shape: 'missing',
      records: [],
      problems: [
        { file: '.', line: 0, problem: 'no codeclone store here (.codeclone/memory/engineering_memory.sqlite3)' },
      ],
      warnings: [],
    };
  const shape = 'sqlite';
  const file = relToRoot(root, detected.store);
  let r: ReturnType<typeof readStore>;
  try {
    r = readStore(detected, { sourceId: ctx.sourceId });
  } catch (e) {
    // read.ts never throws by design; this keeps the promise if it ever does.
    return {
      shape,
      records: [],
      problems: [
        {
          file,
          line: 0,
          problem: `cannot read the store (${String(e instanceof Error ? e.message : e).split('\n')[0]})`,
        },
      ],
      warnings: [],
    };
  }
  if (!r.ok) {
    // The error's message starts with the absolute path; the problem names the file relative to the root.
    const abs = r.file;
    const rel =
      abs === detected.store
        ? file
        : abs.startsWith(detected.store)
          ? file + abs.slice(detected.store.length)
          : relToRoot(root, abs);
    const problem = r.message.startsWith(`${abs}: `) ? r.message.slice(abs.length + 2) : r.message;
    return { shape, records: [], problems: [{ file: rel, line: 0, problem }], warnings: [] };
  }
  const rel = (w: string) => (w.startsWith(detected.store) ? file + w.slice(detected.store.length) : w);
  return { shape, records: r.records.map((g) => toLayoutRecord(g, file)), problems: [], warnings: r.warnings.map(rel) };
}

/** Never an edit: codeclone's command line when it allows the action now, else why not. */
function plan(record: LayoutRecord, action: string, _ctx: PlanContext): RecordPlanResult {
  const d = record.detail as unknown as Partial<GovernedDetail>;
  const status = d.status ?? record.native.split('/')[0] ?? '';
  const c = commandFor(status, action);
  if (!c.ok) return { ok: false, reason: `${record.key}: ${c.reason}; ${READ_ONLY_REASON}`, command: null };
  const line = d.commands?.[action] ?? commandLine(c.command, d.projectRoot ?? '.', record.key);
  return { ok: false, reason: `${record.key}: ${READ_ONLY_REASON}; run: ${line}`, command: line };
}

export const governedLayout: LayoutAdapter = {
  layout: 'governed',
  label: "codeclone's governed engineering memory (read-only)",
  detect(dir) {
    try {
      const d = detect(dir);
      return d ? { shape: 'sqlite' } : null;
    } catch {
      return null;
    }
  },
  read,
  changeToken(root) {
    const d = detect(root);
    return d ? storeToken(d.store) : 'none';
  },
  actions: GOVERNED_ACTIONS,
  readOnly: READ_ONLY_REASON,
  plan,
};
