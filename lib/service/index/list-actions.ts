/**
 * Allowed actions for index rows (`list --json` items, tables): the same rule as the
 * detail page (memoryActions below), fed from the index — the row's facts, verdict
 * exits and stored (masked) findings. docs/trust-model.md "Offered only when possible", docs/records.md.
 */
import type Database from 'better-sqlite3';
import {
  allowedActionNames,
  allowedActions,
  type ActionAvailability,
  type FileState,
  type FindingRef,
} from '../../trust/allowed';
import { unsupportedAction, type FileLayoutAdapter } from '../../sources/layout-adapter';
import type { MemoryAction } from '../../trust/tiers';
import type { MemoryFacts } from '../../trust/facts';
import type { MemoryListItem } from '../../../db/queries/memories';

const CHUNK = 500;

/**
 * Stored findings of the rows whose verdicts can block an action: only a validate
 * failure (1/2) can make the frontmatter unrewritable, only a secret finding can be a
 * credential. Clean rows need no lookup. The rows are found by key (`+"check"` keeps the
 * planner off the index on check, which would read every validate and secret finding of the
 * index once per chunk: docs/performance.md, "memtrust list").
 */
export function loadFindings(
  sqlite: Database.Database,
  items: readonly Pick<MemoryListItem, 'key' | 'validateExit' | 'secretExit'>[],
): Map<string, FindingRef[]> {
  const keys = items
    .filter((m) => m.validateExit === 1 || m.validateExit === 2 || m.secretExit === 1)
    .map((m) => m.key);
  const findings = new Map<string, FindingRef[]>();
  for (let i = 0; i < keys.length; i += CHUNK) {
    const part = keys.slice(i, i + CHUNK);
    const rows = sqlite
      .prepare(
        `SELECT key, "check" AS "check", code, label, line, message FROM findings WHERE key IN (${part.map(() => '?').join(',')}) AND +"check" IN ('validate', 'secret') ORDER BY "check", rowid`,
      )
      .all(...part) as (FindingRef & { key: string })[];
    for (const { key, ...f } of rows) findings.set(key, [...(findings.get(key) ?? []), f]);
  }
  return findings;
}

/** What `rowFacts` reads of an index row. */
export type FactsRow = Pick<
  MemoryListItem,
  | 'filename'
  | 'location'
  | 'tier'
  | 'type'
  | 'createdAt'
  | 'lastVerified'
  | 'quarantinedAt'
  | 'createdMs'
  | 'quarantineSinceMs'
  | 'conflict'
>;

/**
 * Trust facts from an index row. The row's tier stands for trust-level (the same reading);
 * the file's mtime is recovered from the clock bases that fell back to it (created, else
 * the quarantine clock), which are the only places the rules read it.
 */
export function rowFacts(m: FactsRow): MemoryFacts {
  const mtimeMs = !m.createdAt
    ? m.createdMs
    : !m.quarantinedAt && !m.lastVerified && m.quarantineSinceMs !== null
      ? m.quarantineSinceMs
      : m.createdMs;
  return {
    filename: m.filename,
    location: m.location as MemoryFacts['location'],
    trustLevel: m.tier,
    type: m.type ?? undefined,
    createdAt: m.createdAt ?? undefined,
    lastVerified: m.lastVerified ?? undefined,
    quarantinedAt: m.quarantinedAt ?? undefined,
    mtime: new Date(mtimeMs),
    conflict: m.conflict,
  };
}

/**
 * Every memory action with whether it applies now: the trust rules (lib/trust/allowed.ts),
 * then the layout's capabilities (docs/records.md, "File layouts"). The one place the
 * detail page, the inbox, bulk plans and `list --json` take their actions from.
 */
export function memoryActions(
  adapter: FileLayoutAdapter,
  facts: MemoryFacts,
  now: Date,
  state?: FileState,
): ActionAvailability[] {
  return allowedActions(facts, now, state).map((a) => {
    const unsupported = unsupportedAction(adapter, a.action);
    return unsupported ? { action: a.action, allowed: false, reason: unsupported } : a;
  });
}

/** What `rowActionNames` reads of an index row. */
export type ActionRow = Pick<MemoryListItem, 'key' | 'source' | 'validateExit' | 'secretExit' | 'error'>;

/**
 * The names of the actions allowed now for one index row: the trust rules, then what the
 * row's layout supports. A row that could not be read (error), or whose source has no
 * adapter, offers nothing. `findings` is `loadFindings` of the rows.
 */
export function rowActionNames(
  m: ActionRow,
  facts: MemoryFacts,
  now: Date,
  findings: Map<string, FindingRef[]>,
  adapter: FileLayoutAdapter | undefined,
): MemoryAction[] {
  if (m.error) return [];
  const state = { validateExit: m.validateExit, secretExit: m.secretExit, findings: findings.get(m.key) ?? [] };
  // allowedActionNames is memoryActions' trust-rule half made cheap for thousands of rows (lib/trust/allowed.ts).
  return adapter ? allowedActionNames(facts, now, state).filter((a) => !unsupportedAction(adapter, a)) : [];
}

/**
 * The names of the actions allowed now, per row key: the trust rules, then what the row's
 * layout supports (`adapterOf`, by source id). A row that could not be read (error) offers nothing.
 */
export function rowActions(
  sqlite: Database.Database,
  items: MemoryListItem[],
  now: Date,
  adapterOf: (source: string) => FileLayoutAdapter | undefined,
): Map<string, MemoryAction[]> {
  const findings = loadFindings(sqlite, items);
  const out = new Map<string, MemoryAction[]>();
  for (const m of items) {
    out.set(m.key, m.error ? [] : rowActionNames(m, rowFacts(m), now, findings, adapterOf(m.source)));
  }
  return out;
}
