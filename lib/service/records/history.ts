/**
 * History of one record (docs/records.md, "History and reports"): the audit events its
 * root's trail holds for its key, newest first, from the SQLite mirror. A record is named
 * by its full id or by its bare key; a record no longer in its store (deleted, or the
 * store rewritten by its owner) is still found through its events. A key known in two
 * roots is refused, naming both ids: histories of different records never merge.
 */
import type { SourceInfo } from '../../sources';
import type { ServiceContext } from '../context';
import { history, type HistoryItem } from '../../../db/queries/history';
import { findRecord } from './read';

export type RecordHistoryTarget =
  | { ok: true; source: SourceInfo; key: string; id: string; layout: string }
  | { ok: false; code: 'not-found' | 'ambiguous'; message: string };

function keysWithEvents(ctx: ServiceContext, key: string): string[] {
  const ids = ctx.recordSources.map((s) => s.id);
  const rows = ctx.handle.sqlite
    .prepare(
      'SELECT DISTINCT source FROM audit_events WHERE memory = ? AND source IN (SELECT value FROM json_each(?)) ORDER BY source',
    )
    .all(key, JSON.stringify(ids)) as { source: string }[];
  return rows.map((r) => r.source);
}

export function recordHistoryTarget(ctx: ServiceContext, ref: string): RecordHistoryTarget {
  const hit = (source: SourceInfo, key: string): RecordHistoryTarget => ({
    ok: true,
    source,
    key,
    id: `${source.id}:${key}`,
    layout: source.adapter.layout,
  });
  const found = findRecord(ctx, ref);
  if (found.ok) return hit(found.source, found.record.key);
  if (found.code === 'ambiguous') return { ok: false, code: 'ambiguous', message: found.message };
  // Not in any store now: a full id whose root's trail knows the key, or a bare key whose events one root holds.
  const prefixed = ctx.recordSources.find((s) => ref.startsWith(`${s.id}:`));
  if (prefixed) {
    const key = ref.slice(prefixed.id.length + 1);
    if (keysWithEvents(ctx, key).includes(prefixed.id)) return hit(prefixed, key);
  }
  const known = keysWithEvents(ctx, ref);
  if (known.length === 1) return hit(ctx.recordSources.find((s) => s.id === known[0])!, ref);
  if (known.length > 1)
    return {
      ok: false,
      code: 'ambiguous',
      message: `${ref} names records in ${known.length} roots (${known.map((s) => `${s}:${ref}`).join(', ')}): give the full id`,
    };
  return { ok: false, code: 'not-found', message: `no record ${ref} in the configured record roots` };
}

/** The record's events, newest first (the same query the CLI, the record page and the report use). */
export function recordHistory(ctx: ServiceContext, sourceId: string, key: string, limit = 1_000_000): HistoryItem[] {
  return history(ctx.handle.db, { source: sourceId, memory: key, limit });
}
