/**
 * Allowed actions for index rows (`list --json` items, tables): the same rule as the
 * detail page (lib/trust/allowed.ts), fed from the index — the row's facts, verdict
 * exits and stored (masked) findings. CONTRACT §3 "Offered only when possible", §9.
 */
import type Database from 'better-sqlite3';
import { allowedActions, type ActionAvailability, type FindingRef } from '../trust/allowed';
import type { MemoryFacts } from '../trust/facts';
import type { MemoryListItem } from '../../db/queries/memories';

interface RowExtra {
  key: string;
  trustLevel: string | null;
  mtimeMs: number;
}

const CHUNK = 500;

/** Findings and raw fields of many rows, a few queries in all. */
function loadExtras(sqlite: Database.Database, keys: string[]): { findings: Map<string, FindingRef[]>; extra: Map<string, RowExtra> } {
  const findings = new Map<string, FindingRef[]>();
  const extra = new Map<string, RowExtra>();
  for (let i = 0; i < keys.length; i += CHUNK) {
    const part = keys.slice(i, i + CHUNK);
    const marks = part.map(() => '?').join(',');
    const rows = sqlite
      .prepare(`SELECT key, "check" AS "check", code, label, line, message FROM findings WHERE key IN (${marks}) AND "check" IN ('validate', 'secret')`)
      .all(...part) as (FindingRef & { key: string })[];
    for (const { key, ...f } of rows) findings.set(key, [...(findings.get(key) ?? []), f]);
    const ex = sqlite.prepare(`SELECT key, trust_level AS trustLevel, mtime_ms AS mtimeMs FROM memories WHERE key IN (${marks})`).all(...part) as RowExtra[];
    for (const r of ex) extra.set(r.key, r);
  }
  return { findings, extra };
}

export function rowFacts(m: MemoryListItem, extra?: RowExtra): MemoryFacts {
  return {
    filename: m.filename,
    location: m.location as MemoryFacts['location'],
    trustLevel: extra ? (extra.trustLevel ?? undefined) : m.tier,
    type: m.type ?? undefined,
    createdAt: m.createdAt ?? undefined,
    lastVerified: m.lastVerified ?? undefined,
    quarantinedAt: m.quarantinedAt ?? undefined,
    mtime: new Date(extra?.mtimeMs ?? m.createdMs),
    conflict: m.conflict,
  };
}

/** Availability per row key. A row that could not be read (error) offers nothing. */
export function rowActions(sqlite: Database.Database, items: MemoryListItem[], now: Date): Map<string, ActionAvailability[]> {
  const { findings, extra } = loadExtras(sqlite, items.map((i) => i.key));
  const out = new Map<string, ActionAvailability[]>();
  for (const m of items) {
    if (m.error) {
      out.set(m.key, allowedActions(rowFacts(m, extra.get(m.key)), now).map((a) => ({ action: a.action, allowed: false, reason: `${a.action} refused: ${m.error}` })));
      continue;
    }
    const state = { validateExit: m.validateExit, secretExit: m.secretExit, findings: findings.get(m.key) ?? [] };
    out.set(m.key, allowedActions(rowFacts(m, extra.get(m.key)), now, state));
  }
  return out;
}
